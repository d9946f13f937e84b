// Routing by Host over HTTP against a real Postgres: a brand's subdomain and verified custom domain serve that brand
// only (its profile as the home page, its passports; another brand's UID 404 as an unknown one, as a page or as
// JSON), the main site's own routes are not served there, names of ours that serve nothing answer 404 (an unknown
// subdomain, a pending or removed domain), an unknown host is the main site; Caddy's ask endpoint (loopback only, or
// the shared secret); and absolute URLs on the brand's own address behind TLS.
import http from "node:http";
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { insertDomain } from "../../api/src/domains/domains.repo";
import { registerProduct } from "../../api/src/products/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { dashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";

type Answer = { status: number; type: string; body: string };

/** GET `path` (or POST `body` as JSON) from the API at `base` with the Host header `host` (fetch cannot set Host). */
function visit(base: string, host: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const url = new URL(base);
  const sent = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const method = sent === undefined ? "GET" : "POST";
    const json = sent === undefined ? {} : { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(sent)) };
    const request = http.request({ host: url.hostname, port: url.port, path, method, headers: { Host: host, ...json, ...headers } }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, type: String(response.headers["content-type"] ?? ""), body }));
    });
    request.on("error", reject);
    request.end(sent);
  });
}

describe("routing by host, and the TLS ask endpoint", () => {
  let api: InProcessApi;
  /** A second API on the same database as a TLS deployment: https public URL, a real base domain, an ask secret. */
  let tls: InProcessApi;
  const alpha = { id: 0, slug: "alpha-wear", name: "Alpha Wear", uid: "" };
  const beta = { id: 0, slug: "beta-goods", name: "Beta Goods", uid: "" };
  const CUSTOM = "shop.alpha.test";
  const SECRET = "ask-secret-0123456789";

  before(async function () {
    this.timeout(60_000);
    const database = await createTestDatabase("domains_routing");
    const rpc = `http://127.0.0.1:${await freePort()}`;
    api = await startInProcessApi({ DATABASE_URL: database, RPC_URL: rpc });
    tls = await startInProcessApi({ DATABASE_URL: database, RPC_URL: rpc, PUBLIC_BASE_URL: "https://passports.test", BASE_DOMAIN: "brands.passports.test", TLS_ASK_SECRET: SECRET });
    for (const [brand, prefix] of [[alpha, "ALPH"], [beta, "BETA"]] as const) {
      brand.id = (await createBrand(api.db, { slug: brand.slug, name: brand.name, uidPrefix: prefix, plan: "growth" })).brand.id;
      brand.uid = (await registerProduct(api.db, { id: brand.id, slug: brand.slug, uidPrefix: prefix }, { sku: `${prefix}-1`, name: `${brand.name} shirt`, category: "shirt", price: 10 })).uid;
    }
    // Alpha's custom domain, verified (verification itself: domains-dashboard and domains-dns tests); Beta's pending.
    for (const [brandId, hostname] of [[alpha.id, CUSTOM], [beta.id, "shop.beta.test"]] as const) {
      await insertDomain(api.db, { brandId, hostname, verifyToken: "0".repeat(32) });
    }
    await api.db("app.custom_domains").where({ hostname: CUSTOM }).update({ status: "verified", verified_at: api.db.fn.now(), next_check_at: null });
    // Both brands sell on their scan pages, by Cash QR.
    for (const brand of [alpha, beta]) {
      const owner = await dashboardClient(api.url, api.db, brand.id, "owner");
      expect((await owner.call("/api/dashboard/sales", { method: "PUT", json: { enabled: true } })).status).to.equal(200);
      expect((await owner.call("/api/dashboard/gateway-keys/cash_qr", { method: "PUT", json: { enabled: true } })).status).to.equal(200);
    }
  });
  after(async () => {
    await tls?.close();
    await api?.close();
  });

  const get = (host: string, path: string, headers?: Record<string, string>) => visit(api.url, host, path, headers);
  const errorOf = (answer: Answer) => (JSON.parse(answer.body) as { error: { code: string; message: string } }).error;
  /** The error without its request id: what says whether a thing exists. */
  const said = (answer: Answer) => ({ status: answer.status, code: errorOf(answer).code, message: errorOf(answer).message });

  for (const host of ["alpha-wear.localhost", CUSTOM]) {
    describe(`on ${host}`, () => {
      it("serves the brand's profile as the home page, and its passports as page, JSON, badge and verdict", async () => {
        const home = await get(host, "/");
        expect(home.status).to.equal(200);
        expect(home.type).to.match(/text\/html/);
        expect(home.body).to.contain('class="brand-name">Alpha Wear<');
        expect((await get(host, `/scan/${alpha.uid}`)).body).to.contain("Alpha Wear shirt");
        expect((await get(host, `/dpp-certificate/${alpha.uid}`)).status).to.equal(200);
        expect(JSON.parse((await get(host, `/api/dpp/${alpha.uid}`)).body).uid).to.equal(alpha.uid);
        expect((await get(host, `/api/badge/${alpha.uid}`)).status).to.equal(200);
        expect((await get(host, `/api/scan/${alpha.uid}`)).status).to.equal(200);
        expect((await get(host, `/brand/${alpha.slug}`)).status).to.equal(200);
        expect((await get(host, "/embed/badge.js")).status).to.equal(200);
      });

      it("answers another brand's UID 404 as an unknown one: the HTML page for pages, JSON for data", async () => {
        const unknown = `${alpha.uid.slice(0, 5)}ZZZZZZZZZZ`;
        for (const path of [`/scan/${beta.uid}`, `/dpp-certificate/${beta.uid}`, `/scan/${beta.uid.toLowerCase()}`, `/scan/${beta.uid.replace("-", "%2D")}/`]) {
          const page = await get(host, path);
          expect(page.status, path).to.equal(404);
          expect(page.type, path).to.match(/text\/html/);
          expect(page.body, path).to.contain("No product passport has this address.");
        }
        // The same words as for a UID that does not exist anywhere.
        expect((await get(host, `/scan/${unknown}`)).body).to.contain("No product passport has this address.");
        for (const path of [`/api/dpp/${beta.uid}`, `/api/badge/${beta.uid}`, `/api/scan/${beta.uid}`]) {
          const answer = await get(host, path);
          expect(answer.status, path).to.equal(404);
          expect(errorOf(answer), path).to.include({ code: "NOT_FOUND", message: "Passport not found." });
        }
        expect(errorOf(await get(host, `/certificates/${beta.uid}.pdf`))).to.include({ code: "NOT_FOUND", message: "Certificate not found." });
        const asPage = await get(host, `/api/dpp/${beta.uid}`, { Accept: "text/html" });
        expect(asPage.status).to.equal(404);
        expect(asPage.type).to.match(/text\/html/);
        const profile = await get(host, `/brand/${beta.slug}`);
        expect(profile.status).to.equal(404);
        expect(profile.body).to.contain("There is no brand profile at this address.");
      });

      it("sells and shows orders of the brand's own products only: another brand's product or order is 404 as an unknown one", async () => {
        const main = new URL(api.url).host;
        const order = async (on: string, uid: string) => {
          const answer = await visit(api.url, on, "/api/orders", {}, { uid, method: "cash_qr" });
          expect(answer.status, `${uid} on ${on}: ${answer.body}`).to.equal(201);
          return JSON.parse(answer.body).data as { order_id: string; order_secret: string };
        };
        const mine = await order(host, alpha.uid);
        const theirs = await order(main, beta.uid);
        const refused = await visit(api.url, host, "/api/orders", {}, { uid: beta.uid, method: "cash_qr" });
        expect(refused.status).to.equal(404);
        // The same answer as for a UID no product has.
        expect(said(refused)).to.deep.equal(said(await visit(api.url, host, "/api/orders", {}, { uid: "ALPH-NOSUCHTHING", method: "cash_qr" })));
        expect(errorOf(refused)).to.include({ code: "NOT_FOUND", message: "Product not found." });

        const read = (on: string, placed: { order_id: string; order_secret: string }) => get(on, `/api/orders/${placed.order_id}`, { "X-Order-Secret": placed.order_secret });
        expect((await read(host, mine)).status).to.equal(200);
        expect(JSON.parse((await read(host, mine)).body).data.order_id).to.equal(mine.order_id);
        const other = await read(host, theirs);
        expect(other.status).to.equal(404);
        expect(said(other)).to.deep.equal(said(await read(host, { ...theirs, order_secret: "wrong" })));
        expect(errorOf(other)).to.include({ code: "NOT_FOUND", message: "Order not found." });
        // The main site serves every brand's orders, as before.
        expect((await read(main, theirs)).status).to.equal(200);
        expect((await read(main, mine)).status).to.equal(200);
      });

      it("does not serve the main site's own routes there (v1 API, dashboard, docs, the ask endpoint)", async () => {
        for (const path of ["/api/v1/products", "/api/dashboard/session", `/internal/tls/ask?domain=${CUSTOM}`, "/api/openapi.json"]) {
          const answer = await get(host, path);
          expect(answer.status, path).to.equal(404);
          expect(errorOf(answer), path).to.include({ code: "NOT_FOUND" });
        }
        for (const path of ["/dashboard", "/docs"]) {
          const page = await get(host, path, { Accept: "text/html" });
          expect(page.status, path).to.equal(404);
          expect(page.body, path).to.contain("This address serves Alpha Wear");
        }
      });
    });
  }

  describe("other hosts", () => {
    it("reads the host without letter case, port or trailing dot", async () => {
      for (const host of ["SHOP.Alpha.TEST:8443", "shop.alpha.test.", "Alpha-Wear.LOCALHOST:3000"]) {
        const home = await get(host, "/");
        expect(home.status, host).to.equal(200);
        expect(home.body, host).to.contain('class="brand-name">Alpha Wear<');
      }
    });

    it("answers 404 for everything on a name of ours that serves nothing: an unknown subdomain, a pending domain", async () => {
      for (const host of ["nobody.localhost", "shop.beta.test"]) {
        for (const path of ["/", `/scan/${beta.uid}`]) {
          const page = await get(host, path, { Accept: "text/html" });
          expect(page.status, `${host}${path}`).to.equal(404);
          expect(page.body).to.contain("Nothing is served at this address.");
        }
        expect(errorOf(await get(host, `/api/dpp/${beta.uid}`))).to.include({ code: "NOT_FOUND" });
      }
    });

    it("serves the main site, every brand's passports, on an unknown host and on the main host", async () => {
      const main = await get(new URL(api.url).host, "/");
      for (const host of ["never-added.test", "localhost:8080", new URL(api.url).host]) {
        expect((await get(host, "/")).body, host).to.equal(main.body);
        expect((await get(host, `/scan/${beta.uid}`)).status, host).to.equal(200);
        expect((await get(host, `/scan/${alpha.uid}`)).status, host).to.equal(200);
      }
    });
  });

  describe("behind TLS (https public URL, BASE_DOMAIN brands.passports.test)", () => {
    const viaTls = (path: string, headers?: Record<string, string>) => visit(tls.url, new URL(tls.url).host, path, headers);

    it("gives a brand's absolute URLs its verified custom domain, else its subdomain", async () => {
      const own = JSON.parse((await viaTls(`/api/dpp/${alpha.uid}`)).body);
      expect(own.links).to.deep.equal({
        dpp_url: `https://${CUSTOM}/api/dpp/${alpha.uid}`,
        certificate_url: `https://${CUSTOM}/dpp-certificate/${alpha.uid}`,
        scan_url: `https://${CUSTOM}/scan/${alpha.uid}`,
      });
      expect(JSON.parse((await viaTls(`/api/badge/${alpha.uid}`)).body).certificate_url).to.equal(`https://${CUSTOM}/dpp-certificate/${alpha.uid}`);
      // Beta's domain is pending: its subdomain.
      expect(JSON.parse((await viaTls(`/api/dpp/${beta.uid}`)).body).links.scan_url).to.equal(`https://beta-goods.brands.passports.test/scan/${beta.uid}`);
      // The page served on the custom domain names itself there (Open Graph URL).
      expect((await visit(tls.url, CUSTOM, `/scan/${alpha.uid}`)).body).to.contain(`content="https://${CUSTOM}/scan/${alpha.uid}"`);
      // The local stack (http) keeps its own address: brand hosts there answer a Host header, not a browser.
      expect(JSON.parse((await get(new URL(api.url).host, `/api/dpp/${alpha.uid}`)).body).links.scan_url).to.equal(`${api.url}/scan/${alpha.uid}`);
    });

    it("asks for the secret when one is set (parameter or header), from anywhere", async () => {
      const ask = (query: string, headers?: Record<string, string>) => viaTls(`/internal/tls/ask?domain=${CUSTOM}${query}`, headers);
      expect((await ask("")).status).to.equal(403);
      expect((await ask("&secret=wrong-secret-0123456789")).status).to.equal(403);
      expect((await ask("", { "X-TLS-Ask-Secret": "wrong" })).status).to.equal(403);
      const allowed = await ask(`&secret=${SECRET}`);
      expect(allowed.status).to.equal(200);
      expect(JSON.parse(allowed.body)).to.deep.equal({ domain: CUSTOM });
      expect((await ask("", { "X-TLS-Ask-Secret": SECRET })).status).to.equal(200);
      expect((await viaTls(`/internal/tls/ask?domain=alpha-wear.brands.passports.test&secret=${SECRET}`)).status).to.equal(200);
    });
  });

  describe("the TLS ask endpoint, loopback only without a secret", () => {
    const ask = (domain: string, headers?: Record<string, string>) => get(new URL(api.url).host, `/internal/tls/ask?domain=${encodeURIComponent(domain)}`, headers);

    it("answers 200 for a verified custom domain and a brand's subdomain, whatever the letter case or trailing dot", async () => {
      for (const [domain, answered] of [[CUSTOM, CUSTOM], ["SHOP.ALPHA.TEST.", CUSTOM], ["alpha-wear.localhost", "alpha-wear.localhost"]]) {
        const answer = await ask(domain!);
        expect(answer.status, domain).to.equal(200);
        expect(JSON.parse(answer.body), domain).to.deep.equal({ domain: answered });
        expect(answer.type).to.match(/application\/json/);
      }
    });

    it("answers 404 for a pending domain, an unknown name, an unknown subdomain, the main host and addresses", async () => {
      for (const domain of ["shop.beta.test", "never-added.test", "nobody.localhost", "127.0.0.1", "localhost", "passports.test", "a b"]) {
        const answer = await ask(domain);
        expect(answer.status, domain).to.equal(404);
        expect(errorOf(answer).code).to.equal("NOT_FOUND");
      }
      expect((await get(new URL(api.url).host, "/internal/tls/ask")).status).to.equal(422);
    });

    it("refuses a request relayed by a proxy (X-Forwarded-For) even on loopback", async () => {
      const answer = await ask(CUSTOM, { "X-Forwarded-For": "203.0.113.9" });
      expect(answer.status).to.equal(403);
      expect(errorOf(answer).code).to.equal("FORBIDDEN");
    });
  });

  // Last: the other suites use the domain.
  describe("removal", () => {
    it("stops serving a removed domain at once: 404 there, and for the ask endpoint", async () => {
      const owner = await dashboardClient(api.url, api.db, alpha.id, "owner");
      // Served (and cached) just before.
      expect((await get(CUSTOM, "/")).status).to.equal(200);
      const removed = await owner.call("/api/dashboard/domain/custom", { method: "DELETE" });
      expect(removed.status).to.equal(200);
      for (const path of ["/", `/scan/${alpha.uid}`]) {
        const page = await get(CUSTOM, path, { Accept: "text/html" });
        expect(page.status, path).to.equal(404);
        expect(page.body).to.contain("Nothing is served at this address.");
      }
      expect((await get(new URL(api.url).host, `/internal/tls/ask?domain=${CUSTOM}`)).status).to.equal(404);
      // Its subdomain still serves it.
      expect((await get("alpha-wear.localhost", "/")).status).to.equal(200);
    });
  });
});
