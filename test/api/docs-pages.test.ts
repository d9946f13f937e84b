// The landing page (GET /) and the API reference (GET /docs) on the real seeded stack: every file from our own
// origin, nothing outside the whitelist served, every link answering, and the reference rendered in Chromium.
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect } from "chai";
import { chromium, type Browser } from "playwright-core";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { json } from "../support/http";
import { createTestDatabase } from "../support/hooks";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";

const SWAGGER_UI_DIR = path.dirname(require.resolve("swagger-ui-dist/package.json"));
const SWAGGER_UI_VERSION = (JSON.parse(readFileSync(path.join(SWAGGER_UI_DIR, "package.json"), "utf8")) as { version: string }).version;
const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

/** The URLs of a page's src and href attributes, in order. */
function references(body: string): string[] {
  return [...body.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
}

/** GET with the path sent exactly as written: fetch would normalise "../" and some escapes away before sending. */
function rawGet(base: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("landing page and API reference", () => {
  let stack: SeededStack;
  let base: string;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
  });

  describe("GET /docs", () => {
    it("is a page that loads only files of our own origin, under a policy allowing nothing else", async () => {
      const res = await fetch(`${base}/docs`);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.equal("text/html; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).to.equal("nosniff");
      const csp = res.headers.get("content-security-policy")!;
      for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "img-src 'self' data:", "base-uri 'none'", "frame-ancestors 'none'"]) {
        expect(csp).to.include(directive);
      }
      expect(csp).not.to.match(/unsafe-inline|unsafe-eval|https?:|\*/);
      const body = await res.text();
      // No inline script: the only scripts are files, ours.
      const scripts = [...body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts).to.have.length(2);
      for (const [, attributes, content] of scripts) {
        expect(attributes).to.match(/ src="\/[^/]/);
        expect(content).to.equal("");
      }
      const refs = references(body);
      expect(refs).to.include("/api/openapi.json");
      for (const ref of refs) expect(ref, ref).to.match(/^\/(?!\/)/);
      expect(body).not.to.match(/https?:\/\//);
    });

    it("serves every file the page references with the right type", async () => {
      const body = await (await fetch(`${base}/docs`)).text();
      const expected: Array<[RegExp, string]> = [
        [/\.js$/, "application/javascript; charset=utf-8"],
        [/\.css$/, "text/css; charset=utf-8"],
        [/\.png$/, "image/png"],
        [/^\/docs$|^\/$/, "text/html; charset=utf-8"],
        [/^\/api\/openapi\.json$/, "application/json; charset=utf-8"],
      ];
      const refs = references(body);
      expect(refs).to.include.members([
        `/docs/assets/${SWAGGER_UI_VERSION}/swagger-ui-bundle.js`,
        `/docs/assets/${SWAGGER_UI_VERSION}/swagger-ui.css`,
        "/docs/init.js",
      ]);
      for (const ref of refs) {
        const res = await fetch(`${base}${ref}`);
        expect(res.status, ref).to.equal(200);
        const type = expected.find(([pattern]) => pattern.test(ref));
        expect(type, `no expected type for ${ref}`).to.not.equal(undefined);
        expect(res.headers.get("content-type"), ref).to.equal(type![1]);
        await res.arrayBuffer();
      }
    });

    it("serves Swagger UI's files as they are in the package, gzipped, cached a year, revalidated by ETag", async () => {
      const url = `${base}/docs/assets/${SWAGGER_UI_VERSION}/swagger-ui-bundle.js`;
      const res = await fetch(url);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-encoding")).to.equal("gzip");
      expect(res.headers.get("cache-control")).to.equal("public, max-age=31536000, immutable");
      expect(res.headers.get("vary")).to.include("Accept-Encoding");
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(path.join(SWAGGER_UI_DIR, "swagger-ui-bundle.js")))).to.equal(true);
      const etag = res.headers.get("etag")!;
      expect(etag).to.match(/^"[^"]+"$/);
      const again = await fetch(url, { headers: { "If-None-Match": etag } });
      expect(again.status).to.equal(304);

      const plain = await fetch(url, { headers: { "Accept-Encoding": "identity" } });
      expect(plain.headers.get("content-encoding")).to.equal(null);
      expect(plain.headers.get("etag")).to.not.equal(etag);
      expect((await plain.arrayBuffer()).byteLength).to.equal(readFileSync(path.join(SWAGGER_UI_DIR, "swagger-ui-bundle.js")).length);
    });

    it("starts Swagger UI on our document with the outside validator off", async () => {
      const res = await fetch(`${base}/docs/init.js`);
      expect(res.status).to.equal(200);
      expect(res.headers.get("etag")).to.match(/^"/);
      const script = await res.text();
      expect(script).to.match(/url: "\/api\/openapi\.json"/);
      expect(script).to.match(/validatorUrl: null/);
      expect(script).not.to.match(/https?:\/\//);
    });

    it("serves nothing outside its list: traversal, encoded traversal, other files of the package, other versions", async () => {
      const v = SWAGGER_UI_VERSION;
      const attempts = [
        `/docs/assets/${v}/../../../package.json`,
        `/docs/assets/${v}/..%2f..%2f..%2fpackage.json`,
        `/docs/assets/${v}/..%2F..%2F..%2F..%2Fpackage.json`,
        `/docs/assets/${v}/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json`,
        `/docs/assets/${v}/%2e%2e/%2e%2e/%2e%2e/package.json`,
        `/docs/assets/${v}/%252e%252e%252fpackage.json`,
        `/docs/assets/${v}/..%5c..%5cpackage.json`,
        `/docs/assets/${v}/%c0%ae%c0%ae%c0%afpackage.json`,
        `/docs/assets/..%2f..%2f..%2fnode_modules%2fswagger-ui-dist/package.json`,
        `/docs/assets/${v}/swagger-ui.css%00.png`,
        `/docs/assets/${v}/package.json`,
        `/docs/assets/${v}/index.html`,
        `/docs/assets/${v}/swagger-ui.css.map`,
        `/docs/assets/${v}/swagger-initializer.js`,
        `/docs/assets/${v}/constructor`,
        `/docs/assets/${v}/__proto__`,
        `/docs/assets/0.0.1/swagger-ui.css`,
        `/docs/assets/swagger-ui.css`,
        `/docs/../package.json`,
        `/docs/init.js/../../package.json`,
      ];
      for (const attempt of attempts) {
        const res = await rawGet(base, attempt);
        expect(res.status, attempt).to.equal(404);
        expect(res.body, attempt).not.to.include('"version"');
      }
    });
  });

  describe("GET /", () => {
    it("is a small accessible page that says what the service is", async () => {
      const res = await fetch(`${base}/`);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.equal("text/html; charset=utf-8");
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).to.include("default-src 'none'");
      expect(csp).not.to.match(/script-src|unsafe-inline/);
      const body = await res.text();
      expect(body).not.to.match(/<script/i);
      expect(body).to.match(/<html lang="en">/);
      expect(body.match(/<h1[ >]/g)).to.have.length(1);
      expect(body).to.match(/<h2 id="api">API<\/h2>/);
      // The dashboard is live: linked, never announced as coming.
      expect(body).to.match(/<a href="\/dashboard">Brand dashboard<\/a>/);
      expect(body).not.to.match(/\bcoming\b/i);
    });

    it("links the reference, the document, a minted demo passport, the statistics, readiness and the dashboard, and each link answers", async () => {
      const body = await (await fetch(`${base}/`)).text();
      const links = [...body.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => new URL(m[1]!, base));
      const paths = links.map((url) => url.pathname);
      expect(paths).to.include.members(["/docs", "/api/openapi.json", "/api/stats", "/readyz", "/dashboard"]);
      for (const url of links) expect(url.origin, url.href).to.equal(new URL(base).origin);

      const scan = paths.find((p) => p.startsWith("/scan/"));
      expect(scan, "no demo scan page link").to.not.equal(undefined);
      const uid = scan!.slice("/scan/".length);
      expect(paths).to.include.members([`/api/dpp/${uid}`, `/dpp-certificate/${uid}`]);
      const record = await json(await fetch(`${base}/api/dpp/${uid}`, { headers: { Accept: "application/json" } }));
      expect(record.uid).to.equal(uid);
      expect(record.blockchain.tx_hash).to.match(/^0x[0-9a-f]{64}$/);

      for (const url of links) {
        // /readyz is 200 only while the indexer is within a block or two of the head, which moves every second here.
        if (url.pathname === "/readyz") await waitForIndexer(stack);
        // HEAD: a GET of the scan page would count a scan, which other files sharing the stack would see.
        const res = await fetch(url, { method: "HEAD", redirect: "manual" });
        expect(res.status, url.href).to.be.within(200, 399);
      }
    });

    it("says so when no passport has been issued yet", async () => {
      let bare: InProcessApi | undefined;
      try {
        bare = await startInProcessApi({ DATABASE_URL: await createTestDatabase("docs_pages_bare"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
        const res = await fetch(`${bare.url}/`);
        expect(res.status).to.equal(200);
        const body = await res.text();
        expect(body).to.include("No passport has been issued yet.");
        expect(body).not.to.match(/href="[^"]*\/scan\//);
      } finally {
        await bare?.close();
      }
    });
  });

  describe("in Chromium", () => {
    let browser: Browser | undefined;

    before(async function () {
      if (!existsSync(CHROMIUM)) {
        if (process.env.CI) throw new Error(`${CHROMIUM} is missing; CI must install Debian's chromium`);
        console.warn(`\n  !!! SKIPPED: ${CHROMIUM} is missing, so /docs is not rendered in a browser here (apt-get install chromium).\n`);
        this.skip();
      }
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    });
    after(() => browser?.close());

    it("renders the reference from our document, asking nothing of another origin and breaking no policy", async () => {
      const context = await browser!.newContext();
      const page = await context.newPage();
      const origin = new URL(base).origin;
      const requested: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      try {
        await page.goto(`${base}/docs`);
        await page.getByRole("heading", { name: /Passport Registry API/ }).waitFor({ timeout: 60_000 });
        const operation = page.locator('.opblock-summary-path[data-path="/api/dpp/{uid}"]');
        await operation.first().waitFor();
        expect(await operation.first().textContent()).to.include("/api/dpp/{uid}");

        // Opening an operation renders its parameters and responses, with Swagger UI's inline styles and icons.
        await operation.first().click();
        await page.locator(".opblock.is-open .parameters").first().waitFor();

        expect(requested.length).to.be.greaterThan(3);
        for (const url of requested) expect(url.startsWith(`${origin}/`) || url.startsWith("data:"), url).to.equal(true);
        expect(requested).to.include(`${origin}/api/openapi.json`);
        expect(problems, problems.join("\n")).to.deep.equal([]);
      } finally {
        await context.close();
      }
    });
  });
});
