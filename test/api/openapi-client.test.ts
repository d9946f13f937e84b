// A typed client generated from the served OpenAPI document by a standard generator (openapi-typescript), compiled
// with a small strict program that uses it through openapi-fetch, then run against the demo: the document is one an
// integrator can build on, not only one a person can read.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { sharedStack, type SeededStack } from "../support/shared-stack";

const ROOT = path.resolve(__dirname, "..", "..");

/** What an integrator would write: every call typed by the generated `paths`, no cast and no `any`. */
const PROGRAM = `import createClient from "openapi-fetch";
import type { paths } from "./api";

const [baseUrl, uid, factoryId, brand, key] = process.argv.slice(2) as [string, string, string, string, string];
const client = createClient<paths>({ baseUrl });
const asBrand = { "X-Service-Brand": brand };
const auth = { Authorization: \`Bearer \${key}\` };

function fail(what: string, response: Response, error: unknown): never {
  console.error(what, response.status, JSON.stringify(error));
  process.exit(1);
}

const passport = await client.GET("/api/dpp/{uid}", { params: { path: { uid } } });
if (!passport.data) fail("passport", passport.response, passport.error);
const reputation = await client.GET("/api/factory/{id}/reputation", { params: { path: { id: factoryId } } });
if (!reputation.data) fail("reputation", reputation.response, reputation.error);
const product = await client.GET("/api/v1/products/{uid}", { params: { path: { uid }, header: asBrand }, headers: auth });
if (!product.data) fail("product", product.response, product.error);
const created = await client.POST("/api/v1/products", {
  params: { header: asBrand },
  headers: auth,
  body: { sku: "CLIENT-001", name: "Generated Client Tee", category: "t-shirt", fabric_type: "organic cotton", price: 890 },
});
if (!created.data) fail("registration", created.response, created.error);

const verified: boolean = passport.data.blockchain.verified;
const grade: string = reputation.data.grade;
console.log(JSON.stringify({
  passport: { uid: passport.data.uid, verified, tx_hash: passport.data.blockchain.tx_hash },
  reputation: { factory_id: reputation.data.factory_id, score: reputation.data.score, grade },
  product: { uid: product.data.data.uid, title: product.data.data.product.title },
  created: { status: created.response.status, uid: created.data.data.uid, dpp_url: created.data.data.dpp_url },
}));
`;

describe("OpenAPI document: a generated typed client", () => {
  let stack: SeededStack;
  let dir: string;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    // Outside the tree, so that nothing here is linted or type-checked with the project; node_modules linked so the
    // program resolves openapi-fetch and tsx as an integrator's project would.
    dir = mkdtempSync(path.join(os.tmpdir(), "openapi-client-"));
    symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("generates, compiles under strict TypeScript with no error, and reads and writes the demo", async function () {
    this.timeout(180_000);
    const document = await (await fetch(`${stack.api.url}/api/openapi.json`)).text();
    writeFileSync(path.join(dir, "api.d.ts"), astToString(await openapiTS(document)));
    writeFileSync(path.join(dir, "main.ts"), PROGRAM);

    const program = ts.createProgram([path.join(dir, "main.ts")], {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: ["node"],
      typeRoots: [path.join(ROOT, "node_modules", "@types")],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const report = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => "\n" });
    expect(diagnostics, `type errors in the generated client or its use:\n${report}`).to.have.length(0);

    const minted = stack.demo.products.find((product) => product.minted)!.uid;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "main.ts", stack.api.url, minted, String(stack.demo.factory_ids[0]), stack.demo.brand_slug, stack.demo.api_key],
      { cwd: dir, timeout: 60_000 },
    );
    const out = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(out.passport).to.include({ uid: minted, verified: true });
    expect(out.passport.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
    expect(out.reputation.factory_id).to.equal(stack.demo.factory_ids[0]);
    expect(out.reputation.grade).to.be.a("string").and.not.equal("");
    expect(out.product).to.include({ uid: minted });
    expect(out.product.title).to.be.a("string").and.not.equal("");
    expect(out.created.status).to.equal(201);
    expect(out.created.uid).to.match(/^DEMO-[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(out.created.dpp_url).to.equal(`${stack.api.url}/api/dpp/${out.created.uid}`);
  });
});
