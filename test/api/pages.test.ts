// The customer-facing pages and the embeddable badge on the real seeded stack: chain, indexer, Postgres, HTTP.
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import { expect } from "chai";
import { createBrand, setBrandStatus } from "../../api/src/brands/service";
import { tokenIdOf } from "../../api/src/passports/content";
import { setBranding } from "../../api/src/brands/branding";
import { waitFor } from "../../scripts/lib/processes";
import { runAdmin } from "../support/admin-cli";
import { json } from "../support/http";
import { runPrintedVerifyScript } from "../support/verify-script";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";

const XSS_NAME = "<script>alert(1)</script>";
const ATTR_NAME = `Tee "><img src=x onerror=alert(2)>`;
const TAGLINE = `Say "hello" to 'honest' clothes & <b>more</b>`;

describe("customer-facing pages and the badge", () => {
  let stack: SeededStack;
  let base: string;
  const minted = () => stack.demo.products.find((p) => p.minted)!.uid;
  const unminted = () => stack.demo.products.find((p) => !p.minted)!.uid;
  /** A brand of this file alone: its counters, branding and limits change without touching the demo brand. */
  const own = { slug: "pages-test", key: "", id: 0, xssUid: "", certifiedUid: "" };

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    const { brand, key } = await createBrand(stack.api.db, { slug: own.slug, name: `Quote "Co" & <Sons>`, uidPrefix: "PGT", plan: "starter" });
    own.key = key.key;
    own.id = brand.id;
    await setBranding(stack.api.db, own.slug, {
      primary_color: "#f2f2f2",
      tagline: TAGLINE,
      about: "Line one.\nLine <two>.",
      social: { instagram: "https://www.instagram.com/pages.test" },
    });
    own.xssUid = await registerProduct(XSS_NAME);
    own.certifiedUid = await registerProduct(ATTR_NAME);
  });

  async function registerProduct(name: string): Promise<string> {
    const res = await v1("POST", "/products", { sku: `PT-${Math.random().toString(36).slice(2, 8)}`, name, category: "t-shirt", fabric_type: "organic cotton", price: 990 });
    expect(res.status, await res.clone().text()).to.equal(201);
    return (await json(res)).data.uid as string;
  }

  function v1(method: string, route: string, body?: unknown) {
    return fetch(`${base}/api/v1${route}`, {
      method,
      headers: { Authorization: `Bearer ${own.key}`, "X-Service-Brand": own.slug, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function page(route: string, init?: RequestInit) {
    const res = await fetch(`${base}${route}`, init);
    return { res, body: await res.text() };
  }

  /** The page's own checks: HTML, nosniff, a CSP that runs no script and allows exactly the inline stylesheet. */
  function expectSafeHtml(res: Response, body: string, scripts = false) {
    expect(res.headers.get("content-type")).to.equal("text/html; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).to.equal("nosniff");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).to.include("default-src 'none'");
    expect(csp).not.to.include("unsafe-inline");
    expect(csp.includes("script-src")).to.equal(scripts);
    const styles = [...body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).to.have.length(1);
    const hash = createHash("sha256").update(styles[0]!, "utf8").digest("base64");
    expect(csp).to.include(`style-src 'sha256-${hash}'`);
    if (!scripts) expect(body).not.to.match(/<script/i);
  }

  describe("GET /scan/:uid", () => {
    it("shows a minted passport in the brand's white label, verified, with every section", async () => {
      const { res, body } = await page(`/scan/${minted()}`);
      expect(res.status).to.equal(200);
      expectSafeHtml(res, body);
      expect(res.headers.get("cache-control")).to.equal("no-store");
      const record = await json(await fetch(`${base}/api/dpp/${minted()}`));
      expect(body).to.include('<meta name="theme-color" content="#0A7C5A">');
      expect(body).to.include("--primary:#0A7C5A");
      expect(body).to.include("Demo Apparel Co.");
      expect(body).to.include('<p class="tagline">Garments made to last, traced from fibre to shelf.</p>');
      expect(body).to.include(record.content.product.name);
      expect(body).to.include("✓ Verified on hardhat-local");
      expect(body).not.to.include("Not yet certified");
      // Carbon badge: letter, qualitative label, figure.
      expect(body).to.include(`<div class="disc r${record.content.carbon.rating}" aria-hidden="true">${record.content.carbon.rating}</div>`);
      expect(body).to.include(`${record.content.carbon.kg_co2e.toFixed(2)} kg CO2e`);
      expect(body).to.include({ A: "Low impact", B: "Moderate", C: "High", D: "Very high" }[record.content.carbon.rating as string]);
      expect(body).to.include("<span>cotton</span><span>100%</span>");
      expect(body).to.include(record.manufacturer.name).and.include("✓ Verified factory");
      // The supply-chain timeline: each stage by name with a link to its transaction.
      expect(record.supply_chain_events.length).to.be.greaterThan(0);
      for (const event of record.supply_chain_events) expect(body).to.include(`href="${event.explorer_url}"`);
      expect(body).to.include("Fibre sourced").and.include("Sewn").and.include("Quality checked");
      expect(body).to.include(record.content.care_instructions);
      expect(body).to.include(`href="/dpp-certificate/${minted()}"`);
      expect(body).to.include(`href="${base}/certificates/${minted()}.pdf"`);
      // DPP footer: the brand's social links.
      expect(body).to.include('href="https://www.facebook.com/demo-apparel"').and.include(">Instagram</a>").and.include(">Website</a>");
      expect(body).to.include(`<meta property="og:url" content="${base}/scan/${minted()}">`);
    });

    it("says plainly that an unissued product is not yet certified, without a PDF link", async () => {
      const { res, body } = await page(`/scan/${unminted().toLowerCase()}`);
      expect(res.status).to.equal(200);
      expect(body).to.include("Not yet certified");
      expect(body).not.to.include("Verified on");
      expect(body).not.to.include(".pdf");
    });

    // Which views count as scans, and what a counted scan writes: scan-counting.test.ts.

    it("escapes the product name, the brand name and a tagline with quotes", async () => {
      const { res, body } = await page(`/scan/${own.xssUid}`);
      expectSafeHtml(res, body);
      expect(body).not.to.include(XSS_NAME);
      expect(body).to.include("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(body).to.include("Quote &quot;Co&quot; &amp; &lt;Sons&gt;");
      expect(body).to.include(`<p class="tagline">Say &quot;hello&quot; to &#39;honest&#39; clothes &amp; &lt;b&gt;more&lt;/b&gt;</p>`);
      // Inside attributes too: Open Graph title and description.
      expect(body).to.include(`<meta property="og:title" content="&lt;script&gt;alert(1)&lt;/script&gt; · Quote &quot;Co&quot; &amp; &lt;Sons&gt;">`);
      // A pale primary colour gets dark header text.
      expect(body).to.include("--primary:#F2F2F2;--on-primary:#111111");
    });

    it("answers a friendly 404 page for an unknown UID and a 422 page for a malformed one", async () => {
      const missing = await page("/scan/DEMO-ZZZZZZZZ");
      expect(missing.res.status).to.equal(404);
      expectSafeHtml(missing.res, missing.body);
      expect(missing.body).to.include("No product passport has this address");
      const malformed = await page(`/scan/${encodeURIComponent("<b>nope</b>")}`);
      expect(malformed.res.status).to.equal(422);
      expectSafeHtml(malformed.res, malformed.body);
      expect(malformed.body).to.include("This address is not valid");
      expect(malformed.body).not.to.include("<b>nope");
    });
  });

  describe("GET /dpp-certificate/:uid", () => {
    it("shows the on-chain record, matching hashes, a QR code, the PDF link and how to verify", async () => {
      const { res, body } = await page(`/dpp-certificate/${minted()}`);
      expect(res.status).to.equal(200);
      expectSafeHtml(res, body);
      const chain = (await json(await fetch(`${base}/api/dpp/${minted()}`))).blockchain;
      expect(body).to.include("Certificate of authenticity");
      expect(body).to.include(chain.token_id).and.include(chain.contract).and.include("hardhat-local (chain id 31337)");
      expect(body).to.include(`<a href="${chain.explorer_url}">${chain.tx_hash}</a>`);
      expect(body).to.include(chain.data_hash).and.include(chain.computed_data_hash).and.include("✓ match");
      expect(chain.data_hash).to.equal(chain.computed_data_hash);
      expect(body).to.match(/<figure role="img" aria-label="QR code[^"]*"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(body).to.include(`href="${base}/certificates/${minted()}.pdf"`);
      expect(body).to.include("How to verify this yourself").and.include("dataHashOf(tokenId)").and.include(`${base}/api/dpp/${minted()}`);
      expect((await fetch(`${base}/certificates/${minted()}.pdf`)).status).to.equal(200);
    });

    it("publishes a verification script that, run as printed, finds the passport authentic", async function () {
      this.timeout(120_000);
      const { body } = await page(`/dpp-certificate/${minted()}`);
      expect(await runPrintedVerifyScript(body, stack.chain.rpcUrl)).to.equal("authentic");
    });

    it("answers 200 with 'not yet issued' for a product whose certificate is not issued", async () => {
      const { res, body } = await page(`/dpp-certificate/${own.xssUid}`);
      expect(res.status).to.equal(200);
      expect(body).to.include("Certificate not yet issued");
      expect(body).not.to.include("<svg").and.not.to.include(".pdf");
      expect(body).to.include("&lt;script&gt;alert(1)&lt;/script&gt;").and.not.to.include(XSS_NAME);
    });

    it("answers 404 and 422 pages like the scan page", async () => {
      expect((await page("/dpp-certificate/DEMO-ZZZZZZZZ")).res.status).to.equal(404);
      expect((await page("/dpp-certificate/x")).res.status).to.equal(422);
    });

    it("turns red on the scan page once the product is reported stolen", async function () {
      this.timeout(120_000);
      const issued = await v1("POST", "/certs/issue", { uid: own.certifiedUid });
      expect(issued.status, await issued.clone().text()).to.equal(201);
      const tx = await stack.wallet.send(() => stack.contracts.passport.setStatus(tokenIdOf(own.certifiedUid), 2));
      await tx.wait();
      await waitForIndexer(stack);
      const { body } = await page(`/scan/${own.certifiedUid}`);
      expect(body).to.include('<p class="alert danger" role="alert">This product has been reported stolen.');
      const certificate = await page(`/dpp-certificate/${own.certifiedUid}`);
      expect(certificate.body).to.include("reported stolen").and.include("<svg");
      expect(certificate.body).not.to.include("<img src=x");
    });
  });

  describe("GET /brand/:slug", () => {
    it("shows the profile: about, social links, counts and the latest certified products", async () => {
      const { res, body } = await page("/brand/demo-apparel");
      expect(res.status).to.equal(200);
      expectSafeHtml(res, body);
      const db = stack.api.db;
      const brand = await db("app.brands").where({ slug: "demo-apparel" }).first<{ id: number }>("id");
      const products = Number((await db("app.products").where({ brand_id: brand.id }).count<{ n: number }[]>("* as n"))[0]!.n);
      const certified = Number(
        (await db("app.products as p").join("app.passports as x", "x.product_id", "p.id").where({ "p.brand_id": brand.id, "x.status": "minted" }).count<{ n: number }[]>("* as n"))[0]!.n,
      );
      expect(body).to.include(`<strong>${products}</strong><span class="muted">products</span>`);
      expect(body).to.include(`<strong>${certified}</strong><span class="muted">certified on chain</span>`);
      expect(body).to.include("Every piece carries an NFC tag");
      expect(body).to.include('href="https://www.instagram.com/demo.apparel"');
      expect(body).to.include(`href="/scan/${minted()}"`);
      expect(body).not.to.include(`href="/scan/${unminted()}"`);
    });

    it("escapes the brand's texts and certified product names; reads the slug case-insensitively", async () => {
      const { res, body } = await page("/brand/PAGES-TEST");
      expect(res.status).to.equal(200);
      expect(body).to.include('<p class="about">Line one.\nLine &lt;two&gt;.</p>');
      expect(body).to.include("Tee &quot;&gt;&lt;img src=x onerror=alert(2)&gt;");
      expect(body).not.to.include("<img src=x");
      expect(body).to.include("<strong>2</strong><span class=\"muted\">products</span>");
    });

    it("answers 404 for an unknown or suspended brand and 422 for a malformed slug", async () => {
      expect((await page("/brand/no-such-brand")).res.status).to.equal(404);
      await createBrand(stack.api.db, { slug: "pages-suspended", name: "Suspended", uidPrefix: "PGS" });
      expect((await page("/brand/pages-suspended")).res.status).to.equal(200);
      await setBrandStatus(stack.api.db, "pages-suspended", "suspended");
      const suspended = await page("/brand/pages-suspended");
      expect(suspended.res.status).to.equal(404);
      expect(suspended.body).to.include("There is no brand profile at this address.");
      const malformed = await page("/brand/bad_slug!");
      expect(malformed.res.status).to.equal(422);
      expect(malformed.res.headers.get("content-type")).to.equal("text/html; charset=utf-8");
    });
  });

  describe("the embeddable badge", () => {
    it("serves the badge JSON to any origin, with short caching", async () => {
      const res = await fetch(`${base}/api/badge/${minted().toLowerCase()}`, { headers: { Origin: "https://shop.example" } });
      expect(res.status).to.equal(200);
      expect(res.headers.get("access-control-allow-origin")).to.equal("*");
      expect(res.headers.get("cache-control")).to.match(/^public, max-age=60\b/);
      const badge = await json(res);
      expect(badge).to.have.all.keys(["uid", "carbon_rating", "carbon_label", "carbon_kg", "certified", "certificate_url"]);
      const record = await json(await fetch(`${base}/api/dpp/${minted()}`));
      expect(badge).to.deep.equal({
        uid: minted(),
        carbon_rating: record.content.carbon.rating,
        carbon_label: { A: "Low impact", B: "Moderate", C: "High", D: "Very high" }[record.content.carbon.rating as string],
        carbon_kg: record.content.carbon.kg_co2e,
        certified: true,
        certificate_url: `${base}/dpp-certificate/${minted()}`,
      });
      expect((await json(await fetch(`${base}/api/badge/${unminted()}`))).certified).to.equal(false);
      const missing = await fetch(`${base}/api/badge/DEMO-ZZZZZZZZ`);
      expect(missing.status).to.equal(404);
      expect(missing.headers.get("access-control-allow-origin")).to.equal("*");
      expect((await fetch(`${base}/api/badge/nope`)).status).to.equal(422);
    });

    it("serves the script as cacheable JavaScript with an ETag, and never builds HTML from data", async () => {
      const res = await fetch(`${base}/embed/badge.js`);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.equal("application/javascript; charset=utf-8");
      expect(res.headers.get("cache-control")).to.equal("public, max-age=3600");
      const etag = res.headers.get("etag")!;
      expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
      const source = await res.text();
      expect(source).not.to.match(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
      expect((await fetch(`${base}/embed/badge.js`, { headers: { "If-None-Match": etag } })).status).to.equal(304);
    });

    it("renders each badge in a Shadow DOM from the script's own origin, including badges added later", async () => {
      const source = await (await fetch(`${base}/embed/badge.js`)).text();
      const dom = fakeDom(`${base}/embed/badge.js`);
      const first = dom.badge(minted());
      const twin = dom.badge(minted());
      const unissued = dom.badge(unminted());
      const unknown = dom.badge("DEMO-ZZZZZZZZ");
      const hostile = dom.badge('"><img src=x onerror=alert(1)>');
      vm.runInNewContext(source, dom.context);

      const rendered = (host: FakeElement) => waitFor("the badge to render", async () => (host.shadowRoot?.text() ? host.shadowRoot : undefined), 30_000, 20);
      const shadow = await rendered(first);
      const badge = await json(await fetch(`${base}/api/badge/${minted()}`));
      expect(shadow.find("disc")!.text()).to.equal(badge.carbon_rating);
      expect(shadow.find("label")!.text()).to.equal(badge.carbon_label);
      expect(shadow.find("kg")!.text()).to.equal(`${badge.carbon_kg.toFixed(2)} kg CO2e`);
      expect(shadow.find("cert")!.text()).to.equal("✓ Certified on chain");
      expect(shadow.find("badge")!.tagName).to.equal("A");
      expect(shadow.find("badge")!.getAttribute("href")).to.equal(`${base}/dpp-certificate/${minted()}`);
      expect(shadow.adoptedStyleSheets).to.have.length(1);
      expect((await rendered(twin)).find("disc")!.text()).to.equal(badge.carbon_rating);
      expect((await rendered(unissued)).find("cert")).to.equal(undefined);
      expect((await rendered(unknown)).text()).to.equal("Passport unavailable");
      expect((await rendered(hostile)).text()).to.equal("Passport unavailable");
      // One request per UID, and none for a UID that is not one.
      expect(dom.fetched.filter((url) => url.endsWith(`/api/badge/${minted()}`))).to.have.length(1);
      expect(dom.fetched.every((url) => url.startsWith(`${base}/api/badge/`))).to.equal(true);
      expect(dom.fetched.some((url) => url.includes("img"))).to.equal(false);

      const later = dom.badge(unminted(), false);
      dom.mutate([later]);
      expect((await rendered(later)).find("label")!.text()).to.be.a("string").and.not.equal("");
    });

    it("serves a demo page that includes the script, and a 422 page for a malformed uid", async () => {
      const { res, body } = await page(`/embed/demo?uid=${minted().toLowerCase()}`);
      expect(res.status).to.equal(200);
      expectSafeHtml(res, body, true);
      expect(res.headers.get("content-security-policy")).to.include("script-src 'self'").and.include("connect-src 'self'");
      expect(body).to.match(/<head>[\s\S]*<script src="\/embed\/badge\.js"><\/script>[\s\S]*<\/head>/);
      expect(body).to.include(`<div class="service-badge" data-uid="${minted()}"></div>`);
      expect((await page("/embed/demo")).res.status).to.equal(200);
      const bad = await page(`/embed/demo?uid=${encodeURIComponent('"><script>x</script>')}`);
      expect(bad.res.status).to.equal(422);
      expect(bad.body).not.to.include("<script>x");
    });

    it("renders the demo page in headless Chromium when it is installed", async function () {
      this.timeout(120_000);
      let chromium: string;
      try {
        chromium = execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
      } catch {
        // CI installs it (.ci/run), so there a missing browser is a failure, never a skip.
        if (process.env.CI) throw new Error("Debian's chromium is not installed (`which chromium` found nothing); .ci/run should have installed it");
        console.log("      (SKIPPED: Debian's chromium is not installed; `apt-get install chromium` to run this check)");
        this.skip();
      }
      const dir = mkdtempSync(path.join(os.tmpdir(), "badge-shot-"));
      const shot = path.join(dir, "demo.png");
      try {
        await new Promise<void>((resolve, reject) => {
          execFile(
            chromium!,
            ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", `--user-data-dir=${path.join(dir, "profile")}`, `--screenshot=${shot}`, "--window-size=412,900", "--virtual-time-budget=5000",
              `${base}/embed/demo?uid=${minted()}`],
            { timeout: 90_000 },
            (error) => (error ? reject(error) : resolve()),
          );
        });
        expect(statSync(shot).size).to.be.greaterThan(1000);
        expect(readFileSync(shot).subarray(1, 4).toString()).to.equal("PNG");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe("operator CLI: set-branding and show-branding", () => {
    const admin = (args: string[]) => runAdmin(args, { DATABASE_URL: stack.api.config.databaseUrl });

    it("refuses values outside the bounds (exit 2, naming each field) and changes nothing", async function () {
      this.timeout(120_000);
      const run = await admin([
        "set-branding", "--brand", own.slug, "--primary-color", "green", "--tagline", "x".repeat(121), "--about", "y".repeat(501),
        "--facebook", "https://evil.example/fb", "--logo-url", "http://insecure.example/logo.png",
      ]);
      expect(run.code, run.stderr).to.equal(2);
      for (const field of ["primary_color", "tagline", "about", "social.facebook", "logo_url"]) expect(run.stderr).to.include(field);
      const { body } = await page(`/brand/${own.slug}`);
      expect(body).to.include("--primary:#F2F2F2");
    });

    it("sets branding that the pages show at once, and shows it back", async function () {
      this.timeout(120_000);
      const tagline = "t".repeat(120);
      const set = await admin(["set-branding", "--brand", own.slug, "--primary-color", "#0a7c5a", "--tagline", tagline, "--logo-url", "https://cdn.example/logo.webp", "--instagram", "", "--json"]);
      expect(set.code, set.stderr).to.equal(0);
      expect(JSON.parse(set.stdout).branding).to.deep.equal({
        primary_color: "#0A7C5A",
        tagline,
        about: "Line one.\nLine <two>.",
        logo_url: "https://cdn.example/logo.webp",
      });
      const { body } = await page(`/scan/${own.xssUid}`);
      expect(body).to.include("--primary:#0A7C5A").and.include(`<p class="tagline">${tagline}</p>`);
      expect(body).to.include('<img src="https://cdn.example/logo.webp" alt="Quote &quot;Co&quot; &amp; &lt;Sons&gt; logo" height="44">');
      expect(body).not.to.include("instagram.com");
      const shown = await admin(["show-branding", "--brand", own.slug]);
      expect(shown.code, shown.stderr).to.equal(0);
      expect(shown.stdout).to.include("#0A7C5A").and.include("https://cdn.example/logo.webp").and.include("(not set)");
      expect((await admin(["show-branding", "--brand", "no-such-brand"])).code).to.equal(1);
    });
  });

  it("answers malformed addresses with 4xx, never 5xx, and HTML on the pages", async () => {
    const pages = [
      "/scan/%E0%A4%A", "/scan/..%2F..%2Fetc%2Fpasswd", `/scan/DEMO-${"A".repeat(5000)}`, "/scan/DEMO-%00AAAA", "/scan/DEMO-7K3M9Q2X%20",
      "/dpp-certificate/%ff%fe", "/dpp-certificate/DEMO-%3Cscript%3E", "/brand/%00", `/brand/${"a".repeat(300)}`, "/brand/demo%2Dapparel%2F",
      "/embed/demo?uid=DEMO-7K3M9Q2X&uid=DEMO-4VH8N1TR", "/embed/demo?uid=%E0%A4%A",
    ];
    for (const route of pages) {
      const answer = await rawGet(route);
      expect(answer.status, route).to.be.within(400, 499);
      expect(answer.type, route).to.equal("text/html; charset=utf-8");
      expect(answer.body, route).not.to.match(/<script(?! src="\/embed\/badge\.js")/);
    }
    for (const route of ["/api/badge/%E0%A4%A", "/api/badge/DEMO-%00AAAA", `/api/badge/${"x".repeat(5000)}`]) {
      const answer = await rawGet(route);
      expect(answer.status, route).to.be.within(400, 499);
      expect(JSON.parse(answer.body).success, route).to.equal(false);
    }
  });

  /** A GET with the request target sent verbatim (fetch would normalise dots and encodings). */
  function rawGet(target: string): Promise<{ status: number; type: string; body: string }> {
    const url = new URL(base);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: target, method: "GET", agent: false, timeout: 30_000 }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), body }));
      });
      req.on("timeout", () => req.destroy(new Error(`timeout on ${target}`)));
      req.on("error", reject);
      req.end();
    });
  }

  it("registers every page route in OpenAPI under the tag Pages with its content type", async () => {
    const doc = await json(await fetch(`${base}/api/openapi.json`));
    const types: Record<string, string> = {
      "/scan/{uid}": "text/html",
      "/dpp-certificate/{uid}": "text/html",
      "/brand/{slug}": "text/html",
      "/embed/demo": "text/html",
      "/embed/badge.js": "application/javascript",
      "/api/badge/{uid}": "application/json",
    };
    for (const [route, type] of Object.entries(types)) {
      const operation = doc.paths[route]?.get;
      expect(operation, route).to.not.equal(undefined);
      expect(operation.tags).to.deep.equal(["Pages"]);
      expect(Object.keys(operation.responses["200"].content)).to.deep.equal([type]);
    }
  });
});

// A DOM just large enough for the badge script, so its rendering is checked without a browser. It has no
// innerHTML at all: any attempt to parse markup throws.

class FakeNode {
  childNodes: FakeElement[] = [];
  constructor(readonly nodeType: number) {}
  get firstChild() {
    return this.childNodes[0] ?? null;
  }
  appendChild(node: FakeElement) {
    this.childNodes.push(node);
    return node;
  }
  removeChild(node: FakeElement) {
    this.childNodes = this.childNodes.filter((n) => n !== node);
    return node;
  }
  set innerHTML(_value: string) {
    throw new Error("innerHTML used");
  }
  descendants(): FakeElement[] {
    return this.childNodes.flatMap((child) => [child, ...child.descendants()]);
  }
  querySelectorAll(selector: string) {
    return this.descendants().filter((el) => el.matches(selector));
  }
  text(): string {
    return this.childNodes.map((child) => child.text()).join("");
  }
  /** The first descendant with this class. */
  find(className: string) {
    return this.descendants().find((el) => el.className.split(" ").includes(className));
  }
}

class FakeShadow extends FakeNode {
  adoptedStyleSheets: unknown[] = [];
  constructor() {
    super(11);
  }
}

class FakeElement extends FakeNode {
  className = "";
  shadowRoot: FakeShadow | null = null;
  readonly style = { setProperty: (name: string, value: string) => this.styles.set(name, value) };
  private readonly attributes = new Map<string, string>();
  private readonly styles = new Map<string, string>();
  private ownText = "";
  constructor(readonly tagName: string) {
    super(1);
  }
  set textContent(value: string) {
    this.childNodes = [];
    this.ownText = value;
  }
  override text(): string {
    return this.ownText + super.text();
  }
  setAttribute(name: string, value: string) {
    if (name === "class") this.className = value;
    else this.attributes.set(name, value);
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  attachShadow() {
    this.shadowRoot = new FakeShadow();
    return this.shadowRoot;
  }
  matches(selector: string) {
    if (selector !== "div.service-badge[data-uid]") return false;
    return this.tagName === "DIV" && this.className.split(" ").includes("service-badge") && this.attributes.has("data-uid");
  }
}

function fakeDom(scriptSrc: string) {
  const body = new FakeElement("BODY");
  const fetched: string[] = [];
  let observer: ((records: unknown[]) => void) | undefined;
  const document = {
    nodeType: 9,
    readyState: "complete",
    currentScript: { src: scriptSrc },
    documentElement: body,
    createElement: (tag: string) => new FakeElement(tag.toUpperCase()),
    querySelectorAll: (selector: string) => body.querySelectorAll(selector),
    addEventListener: () => undefined,
  };
  const context = {
    document,
    window: {},
    URL,
    fetch: (url: string, init?: RequestInit) => {
      fetched.push(url);
      return fetch(url, init);
    },
    CSSStyleSheet: class {
      replaceSync(_css: string) {}
    },
    MutationObserver: class {
      constructor(callback: (records: unknown[]) => void) {
        observer = callback;
      }
      observe() {}
    },
  };
  return {
    context,
    fetched,
    /** A placeholder as the embed snippet makes it, in the page from the start or (attach false) added later. */
    badge(uid: string, attach = true) {
      const el = new FakeElement("DIV");
      el.setAttribute("class", "service-badge");
      el.setAttribute("data-uid", uid);
      if (attach) body.appendChild(el);
      return el;
    },
    mutate(added: FakeElement[]) {
      for (const el of added) body.appendChild(el);
      observer?.([{ type: "childList", addedNodes: added }]);
    },
  };
}
