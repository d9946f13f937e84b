// Brand authentication under attack (issue 9): the Authorization header parsed in linear time (finding 2), and a
// revoked key refused on every replica promptly, even when a lookup races the revocation (finding 8).
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { Linter } from "eslint";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";
import { hashApiKey } from "../../api/src/auth/api-keys";
import { brandForKey, createBrand, revokeKey } from "../../api/src/brands/service";
import { parseAuthorization } from "../../api/src/middleware/brand-auth";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const ROOT = path.resolve(__dirname, "..", "..");

/** Calls `probe` up to `maxPolls` times, `everyMs` apart, until it returns true; the bound is a count, not a time. */
async function pollUntil(what: string, probe: () => Promise<boolean>, maxPolls = 200, everyMs = 10): Promise<number> {
  for (let poll = 1; poll <= maxPolls; poll += 1) {
    if (await probe()) return poll;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${what}: not after ${maxPolls} polls`);
}

describe("the Authorization header (finding 2)", () => {
  /** The rules that find patterns whose running time grows faster than the input, over `code`. */
  function superLinearReports(code: string, filename: string): Linter.LintMessage[] {
    const linter = new Linter({ configType: "flat" });
    return linter.verify(
      code,
      [
        {
          files: ["**/*.ts"],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { regexp: regexp as unknown as NonNullable<Linter.Config["plugins"]>[string] },
          rules: { "regexp/no-super-linear-backtracking": "error", "regexp/no-super-linear-move": "error" },
        },
      ],
      filename,
    );
  }

  it("is read by code with no super-linear pattern (the check finds the one it replaced)", () => {
    const old = superLinearReports("export const BEARER = /^Bearer(?:\\s+(\\S*))?\\s*$/i;\n", "old.ts");
    expect(old.map((m) => m.ruleId)).to.include("regexp/no-super-linear-backtracking");
    for (const file of ["api/src/middleware/brand-auth.ts", "api/src/middleware/operator-auth.ts"]) {
      const reports = superLinearReports(readFileSync(path.join(ROOT, file), "utf8"), file);
      expect(reports.map((m) => `${m.line}: ${m.message}`), file).to.deep.equal([]);
    }
  });

  it("parses like the scheme it implements: Bearer in any case, one token, white space around", () => {
    const cases: Array<[string, ReturnType<typeof parseAuthorization>]> = [
      ["", { kind: "none" }],
      ["   ", { kind: "none" }],
      ["Bearer", { kind: "none" }],
      ["bearer \t ", { kind: "none" }],
      ["Bearer pr_live_abc", { kind: "bearer", token: "pr_live_abc" }],
      ["BEARER  pr_live_abc  ", { kind: "bearer", token: "pr_live_abc" }],
      ["Bearer\tpr_live_abc", { kind: "bearer", token: "pr_live_abc" }],
      ["Bearerpr_live_abc", { kind: "other" }],
      ["Bearer a b", { kind: "other" }],
      ["Bearer a, Bearer b", { kind: "other" }],
      ["Basic dXNlcjpwYXNz", { kind: "other" }],
      [`Bearer${" ".repeat(15_000)}a b`, { kind: "other" }],
      [`Bearer${" ".repeat(16_000)}`, { kind: "none" }],
    ];
    for (const [header, expected] of cases) expect(parseAuthorization(header), JSON.stringify(header.slice(0, 40))).to.deep.equal(expected);
  });

  describe("over HTTP", () => {
    let api: InProcessApi;
    before(async () => {
      api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("trust_auth_header"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    });
    after(() => api?.close());

    it("answers 'Bearer', 15,000 spaces and 'a b' with 401 INVALID_KEY", async () => {
      const { brand } = await createBrand(api.db, { slug: "header-brand", name: "Header Brand", uidPrefix: "HDR" });
      const res = await fetch(`${api.url}/api/v1/brand`, {
        headers: { Authorization: `Bearer${" ".repeat(15_000)}a b`, "X-Service-Brand": brand.slug },
      });
      expect(res.status).to.equal(401);
      expect((await json(res)).error.code).to.equal("INVALID_KEY");
    });
  });
});

describe("key revocation across replicas (finding 8)", () => {
  let a: InProcessApi;
  let b: InProcessApi;
  let counter = 0;

  before(async () => {
    // Two replicas of the API on one database, each with its own key cache listening for changes.
    const databaseUrl = await createTestDatabase("trust_auth_replicas");
    const rpc = `http://127.0.0.1:${await freePort()}`;
    a = await startInProcessApi({ DATABASE_URL: databaseUrl, RPC_URL: rpc });
    b = await startInProcessApi({ DATABASE_URL: databaseUrl, RPC_URL: rpc });
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  async function newBrand() {
    counter += 1;
    const { brand, key } = await createBrand(a.db, { slug: `replica-${counter}`, name: `Replica ${counter}`, uidPrefix: `RP${counter}` });
    return { slug: brand.slug, key: key.key, keyId: key.id };
  }
  const getBrand = (api: InProcessApi, brand: { slug: string; key: string }) =>
    fetch(`${api.url}/api/v1/brand`, { headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug } });

  it("refuses a revoked key on every replica, once each has heard of it", async () => {
    const brand = await newBrand();
    // Both replicas have the key cached.
    for (const api of [a, b]) {
      expect((await getBrand(api, brand)).status).to.equal(200);
      expect((await getBrand(api, brand)).status).to.equal(200);
    }
    await revokeKey(a.db, brand.slug, String(brand.keyId));
    for (const api of [a, b]) {
      await pollUntil(`the revoked key refused on ${api.url}`, async () => (await getBrand(api, brand)).status === 401);
    }
  });

  it("does not keep a key read just before its revocation, when the revocation is heard before the read is stored", async () => {
    const brand = await newBrand();
    const hash = hashApiKey(brand.key);

    // The interleaving, made certain with Postgres locks rather than luck:
    //  1. `revocation` revokes the key and holds its transaction open;
    //  2. `gate` queues for a SHARE lock on api_keys behind it (granted only when the revocation commits);
    //  3. replica B looks the key up: its SELECT reads the key as valid (the revocation is not committed), and its
    //     last-used UPDATE queues behind `gate`, holding the lookup between its read and its store in the cache;
    //  4. the revocation commits and B hears its NOTIFY; only then does `gate` let B's lookup finish.
    const revocation = await a.db.transaction();
    const gate = await a.db.transaction();
    try {
      await revocation("app.api_keys").where({ id: brand.keyId }).update({ revoked_at: revocation.fn.now() });
      const gateLocked = gate.raw("LOCK TABLE app.api_keys IN SHARE MODE").then(() => undefined);
      const waiting = async (mode: string) => {
        const rows = await a.db.raw(
          `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
           WHERE c.relname = 'api_keys' AND l.mode = ? AND NOT l.granted`,
          [mode],
        );
        return rows.rows.length > 0;
      };
      await pollUntil("the gate to queue", () => waiting("ShareLock"));
      const lookup = brandForKey(b.db, brand.key, b.keyCache);
      await pollUntil("B's lookup to read the key and queue its update", () => waiting("RowExclusiveLock"));

      const heard = b.keyCache.notifications;
      await revocation.commit();
      await gateLocked;
      await pollUntil("B to hear the revocation", async () => b.keyCache.notifications > heard);
      await gate.rollback();
      // The lookup began before the revocation: it may answer with the brand. What it read must not outlive it.
      expect((await lookup)?.slug).to.equal(brand.slug);
    } finally {
      if (!revocation.isCompleted()) await revocation.rollback();
      if (!gate.isCompleted()) await gate.rollback();
    }

    expect(b.keyCache.get(hash.toString("hex"))).to.equal(undefined);
    const res = await getBrand(b, brand);
    expect(res.status).to.equal(401);
    expect((await json(res)).error.code).to.equal("INVALID_KEY");
  });

  it("keeps no key longer than 2 s, so a lost notification cannot keep a revoked key alive longer", async () => {
    const brand = await newBrand();
    expect((await getBrand(b, brand)).status).to.equal(200);
    const entry = b.keyCache.get(hashApiKey(brand.key).toString("hex"));
    expect(entry, "the key is cached").to.not.equal(undefined);
    expect(entry!.validUntil).to.be.at.most(Date.now() + 2000);
  });
});
