// Bengali and English on the real seeded stack (chain, indexer, Postgres, HTTP): brand translations through the v1
// and dashboard APIs, the language choice and its headers on the shopper pages, the web font, and the Bengali PDF.
import { execFileSync } from "node:child_process";
import http from "node:http";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { FONT_PATH_PREFIX } from "../../api/src/pages/fonts";
import { OpenApiContract } from "../support/contract";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

const BN_NAME = "জৈব সুতির টি-শার্ট";
const BN_DESCRIPTION = "গোল গলা, ১৮০ জিএসএম সুতি।";

describe("i18n: Bengali and English pages, translations and the PDF", () => {
  let stack: SeededStack;
  let base: string;
  let contract: OpenApiContract;
  let owner: DashboardClient;
  let other: DashboardClient;
  const own = { slug: "i18n-test", key: "", id: 0, uid: "" };
  const minted = () => stack.demo.products.find((p) => p.minted)!.uid;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    contract = await OpenApiContract.load(base);
    const { brand, key } = await createBrand(stack.api.db, { slug: own.slug, name: "Nodi Textiles", uidPrefix: "NDI", plan: "starter" });
    own.key = key.key;
    own.id = brand.id;
    owner = await dashboardClient(base, stack.api.db, brand.id, "owner");
    const { brand: second } = await createBrand(stack.api.db, { slug: "i18n-other", name: "Other Co", uidPrefix: "OTH", plan: "starter" });
    other = await dashboardClient(base, stack.api.db, second.id, "owner");
  });

  function v1(method: string, route: string, body?: unknown) {
    return fetch(`${base}/api/v1${route}`, {
      method,
      headers: { Authorization: `Bearer ${own.key}`, "X-Service-Brand": own.slug, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** The status of GET `path` with the Host header `host` (fetch cannot set Host). */
  function statusOnHost(host: string, path: string): Promise<number> {
    const url = new URL(base);
    return new Promise((resolve, reject) => {
      const req = http.get({ host: url.hostname, port: url.port, path, headers: { Host: host }, agent: false, timeout: 30_000 }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("timeout", () => req.destroy(new Error(`timeout on ${path}`)));
      req.on("error", reject);
    });
  }

  const product = (extra: Record<string, unknown> = {}) => ({
    sku: `I18N-${Math.random().toString(36).slice(2, 8)}`,
    name: "Organic Tee",
    description: "Crew neck, 180 gsm cotton.",
    category: "t-shirt",
    fabric_type: "organic cotton",
    price: 990,
    ...extra,
  });

  describe("brand translations", () => {
    it("are accepted by v1 registration and returned by the v1 read, outside the anchored content", async () => {
      const res = await v1("POST", "/products", product({ translations: { bn: { name: BN_NAME, description: BN_DESCRIPTION } } }));
      expect(res.status, await res.clone().text()).to.equal(201);
      own.uid = (await json(res)).data.uid;
      const read = await v1("GET", `/products/${own.uid}`);
      expect(await contract.check("GET", `/api/v1/products/${own.uid}`, read.clone())).to.deep.equal([]);
      const body = await json(read);
      expect(body.data.product.translations).to.deep.equal({ bn: { name: BN_NAME, description: BN_DESCRIPTION } });
      const record = await json(await fetch(`${base}/api/dpp/${own.uid}`));
      expect(JSON.stringify(record.content)).not.to.include(BN_NAME);
      expect(record.content.product.name).to.equal("Organic Tee");
      // EN 18222's full representation gives the name in every language, the brand's Bengali beside the English.
      const full = await json(await fetch(`${base}/api/dpp-lifecycle/v1/dppsByProductId/${own.uid}?representation=full`));
      const name = JSON.stringify(full).match(/\{"elementId":"name","objectType":"MultiLanguage"[^\]]*\]/)?.[0];
      expect(name).to.include(JSON.stringify({ language: "bn", text: BN_NAME }));
      expect(name).to.include(JSON.stringify({ language: "en", text: "Organic Tee" }));
    });

    it("refuse what is not a translation with 422 naming the field, and register nothing", async () => {
      const bad = [
        { translations: { fr: { name: "Tee" } } },
        { translations: { bn: { name: "" } } },
        { translations: { bn: { name: "ক".repeat(201) } } },
        { translations: { bn: { name: "ক", description: "ক".repeat(2001) } } },
        { translations: { bn: { description: "only" } } },
        { translations: { bn: { name: "ক", extra: 1 } } },
        { translations: { bn: { name: "   " } } },
        { translations: "bn" },
      ];
      for (const extra of bad) {
        const res = await v1("POST", "/products", product({ ...extra, sku: "I18N-REFUSED" }));
        expect(res.status, JSON.stringify(extra)).to.equal(422);
        const body = await json(res);
        expect(body.error.code).to.equal("VALIDATION_ERROR");
        expect(JSON.stringify(body.error.details)).to.include("translations");
      }
      const count = await stack.api.db("app.products").where({ brand_id: own.id, sku: "I18N-REFUSED" }).count<[{ count: string }]>("* as count");
      expect(Number(count[0].count)).to.equal(0);
    });

    it("are edited, shown and removed in the dashboard, without re-anchoring", async () => {
      const made = await owner.call("/api/dashboard/products", { method: "POST", json: product({ translations: { bn: { name: "পুরনো নাম" } } }) });
      expect(made.status, await made.clone().text()).to.equal(201);
      const created = (await json(made)).data;
      const uid = created.uid as string;
      expect(created.translations).to.deep.equal({ bn: { name: "পুরনো নাম", description: "" } });
      const edited = await owner.call(`/api/dashboard/products/${uid}`, { method: "PATCH", json: { translations: { bn: { name: "নতুন নাম", description: "বিবরণ" } } } });
      expect(edited.status, await edited.clone().text()).to.equal(200);
      expect(await contract.check("PATCH", `/api/dashboard/products/${uid}`, edited.clone())).to.deep.equal([]);
      expect((await json(edited)).data.translations.bn).to.deep.equal({ name: "নতুন নাম", description: "বিবরণ" });
      const removed = await owner.call(`/api/dashboard/products/${uid}`, { method: "PATCH", json: { translations: { bn: null } } });
      expect((await json(removed)).data.translations).to.deep.equal({});
      const refused = await owner.call(`/api/dashboard/products/${uid}`, { method: "PATCH", json: { translations: { bn: { name: "x".repeat(201) } } } });
      expect(refused.status).to.equal(422);
    });

    it("belong to the brand: another brand can neither read nor write them", async () => {
      const write = await other.call(`/api/dashboard/products/${own.uid}`, { method: "PATCH", json: { translations: { bn: { name: "হাইজ্যাক" } } } });
      expect(write.status).to.equal(404);
      expect((await other.call(`/api/dashboard/products/${own.uid}`)).status).to.equal(404);
      const page = await (await fetch(`${base}/scan/${own.uid}?lang=bn`)).text();
      expect(page).to.include(BN_NAME).and.not.include("হাইজ্যাক");
    });
  });

  describe("the shopper pages", () => {
    it("answer Bengali for ?lang=bn, remember it in a Lax cookie, and say so in the headers", async () => {
      const res = await fetch(`${base}/scan/${own.uid}?lang=bn`);
      const body = await res.text();
      expect(res.status).to.equal(200);
      expect(body).to.include('<html lang="bn">');
      expect(res.headers.get("content-language")).to.equal("bn");
      expect(res.headers.get("vary")).to.include("Accept-Language").and.include("Cookie");
      const cookie = res.headers.get("set-cookie")!;
      expect(cookie).to.match(/^lang=bn;/).and.match(/samesite=lax/i).and.match(/httponly/i);
      expect(body).to.include(`<h1>${BN_NAME}</h1>`).and.include(BN_DESCRIPTION);
      expect(body).to.include("কার্বন ফুটপ্রিন্ট").and.include("সার্টিফিকেট");
      expect(body).to.include('<a href="?lang=en" lang="en" hreflang="en">English</a>');
      expect(body).to.include('<a href="?lang=bn" lang="bn" hreflang="bn" aria-current="true">বাংলা</a>');
      expect(res.headers.get("content-security-policy")).to.include("font-src 'self'");
    });

    it("follow the cookie, then Accept-Language, then English with the original name", async () => {
      const byCookie = await fetch(`${base}/scan/${own.uid}`, { headers: { Cookie: "lang=bn", "Accept-Language": "en" } });
      expect(await byCookie.text()).to.include('<html lang="bn">');
      expect(byCookie.headers.get("set-cookie")).to.equal(null);
      const byHeader = await fetch(`${base}/scan/${own.uid}`, { headers: { "Accept-Language": "bn-BD,bn;q=0.9,en;q=0.5" } });
      expect(await byHeader.text()).to.include('<html lang="bn">').and.include(BN_NAME);
      const english = await fetch(`${base}/scan/${own.uid}?lang=xx`, { headers: { "Accept-Language": "de" } });
      const body = await english.text();
      expect(english.headers.get("content-language")).to.equal("en");
      expect(body).to.include('<html lang="en">').and.include("<h1>Organic Tee</h1>").and.not.include(BN_NAME);
      expect(english.headers.get("set-cookie")).to.equal(null);
      const switched = await fetch(`${base}/scan/${own.uid}?lang=en`, { headers: { Cookie: "lang=bn" } });
      expect(await switched.text()).to.include('<html lang="en">');
      expect(switched.headers.get("set-cookie")).to.match(/^lang=en;/);
    });

    it("show the certificate page of a minted passport in Bengali, with the machine-readable links", async () => {
      const res = await fetch(`${base}/dpp-certificate/${minted()}?lang=bn`);
      const body = await res.text();
      expect(res.status).to.equal(200);
      expect(body).to.include('<html lang="bn">').and.include("সত্যতার সার্টিফিকেট").and.include("নিজে কীভাবে যাচাই করবেন");
      expect(body).to.include(`href="${base}/certificates/${minted()}.pdf?lang=bn"`);
      expect(body).to.include(`<link rel="alternate" type="application/vc+jwt" href="/api/dpp/${minted()}/credential">`);
      expect(body).to.include(`href="/api/dpp/${minted()}/catena-x"`).and.include("যন্ত্রে পাঠযোগ্য পাসপোর্ট");
      const gtin = stack.demo.products.find((p) => p.minted && p.gtin && p.serial);
      if (gtin) expect((await (await fetch(`${base}/scan/${gtin.uid}`)).text())).to.include(`/01/${gtin.gtin}/21/${gtin.serial}`);
    });

    it("show the brand profile and the order page in Bengali", async () => {
      const profile = await fetch(`${base}/brand/${stack.demo.brand_slug}?lang=bn`);
      expect(await profile.text()).to.include('<html lang="bn">').and.include("সর্বশেষ প্রত্যয়িত পণ্য");
      const order = await fetch(`${base}/orders/ord_4bX9k2LmQp7RtV1wYz3aCd`, { headers: { Cookie: "lang=bn" } });
      expect(await order.text()).to.include('<html lang="bn">').and.include("আপনার অর্ডার").and.include("রসিদ");
      expect(order.headers.get("vary")).to.include("Cookie");
    });

    it("serve the Bengali web font from our origin, cached for a year, and nothing else from that folder", async () => {
      const res = await fetch(`${base}${FONT_PATH_PREFIX}/bengali-400.woff2`);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.equal("font/woff2");
      expect(res.headers.get("cache-control")).to.include("immutable");
      expect(Buffer.from(await res.arrayBuffer()).subarray(0, 4).toString("latin1")).to.equal("wOF2");
      expect((await fetch(`${base}${FONT_PATH_PREFIX}/bengali-999.woff2`)).status).to.equal(404);
      expect((await fetch(`${base}${FONT_PATH_PREFIX}/..%2Fpackage.json`)).status).to.be.oneOf([404, 422]);
      const page = await (await fetch(`${base}/scan/${minted()}`)).text();
      expect(page).to.include(`url(${FONT_PATH_PREFIX}/bengali-400.woff2)`).and.include("unicode-range:U+0964-0965,U+0980-09FE");
      // A brand's own host serves the pages, so it serves their font too.
      expect(await statusOnHost(stack.demo.subdomain_host, `${FONT_PATH_PREFIX}/bengali-700.woff2`)).to.equal(200);
    });
  });

  describe("the certificate PDF", () => {
    it("is Bengali for ?lang=bn: its own ETag, the Bengali font embedded, and it renders", async function () {
      this.timeout(60_000);
      const en = await fetch(`${base}/certificates/${minted()}.pdf`);
      const bn = await fetch(`${base}/certificates/${minted()}.pdf?lang=bn`);
      expect(bn.status).to.equal(200);
      expect(bn.headers.get("content-type")).to.equal("application/pdf");
      expect(bn.headers.get("etag")).not.to.equal(en.headers.get("etag"));
      expect(bn.headers.get("vary")).to.include("Accept-Language");
      const dir = mkdtempSync(path.join(os.tmpdir(), "i18n-pdf-"));
      try {
        const file = path.join(dir, "bn.pdf");
        writeFileSync(file, Buffer.from(await bn.arrayBuffer()));
        expect(execFileSync("pdffonts", [file], { encoding: "utf8" })).to.match(/NotoSansBengali-Regular\s+CID TrueType\s+Identity-H\s+yes/);
        expect(execFileSync("pdftotext", [file, "-"], { encoding: "utf8" })).to.include("ব্লকচেইনের").and.include("টোকেন");
        execFileSync("pdftoppm", ["-png", "-r", "40", file, path.join(dir, "page")]);
        const png = readdirSync(dir).find((name) => name.endsWith(".png"))!;
        expect(statSync(path.join(dir, png)).size).to.be.greaterThan(5_000);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      await (await fetch(`${base}/certificates/${minted()}.pdf`)).arrayBuffer();
      expect((await en.arrayBuffer()).byteLength).to.be.greaterThan(0);
    });
  });
});
