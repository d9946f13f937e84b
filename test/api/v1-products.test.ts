// The brand API's products and certificates on the real seeded stack: registration, idempotency, the certificate
// record, enrichment, issuance on chain with its PDF, and isolation between brands.
import { expect } from "chai";
import { PDFDocument } from "pdf-lib";
import { createBrand } from "../../api/src/brands/service";
import { createDb } from "../../api/src/db/knex";
import * as skuUnique from "../../api/src/db/migrations/031-product-sku-unique";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";

type Client = { slug: string; key: string };

describe("brand API v1: products and certificates", () => {
  let stack: SeededStack;
  let base: string;
  let brandA: Client;
  let brandB: Client;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    const a = await createBrand(stack.api.db, { slug: "v1-brand-a", name: "Brand A Textiles", uidPrefix: "BRA" });
    const b = await createBrand(stack.api.db, { slug: "v1-brand-b", name: "Brand B Fashion", uidPrefix: "BRB" });
    brandA = { slug: a.brand.slug, key: a.key.key };
    brandB = { slug: b.brand.slug, key: b.key.key };
  });

  function call(client: Client, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    return fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${client.key}`,
        "X-Service-Brand": client.slug,
        "Content-Type": "application/json",
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  const product = { sku: "TS-001", name: "Organic Cotton Tee", category: "t-shirt", fabric_type: "organic cotton", price: 890 };

  describe("POST /products", () => {
    it("registers a product and returns spec 2.4 in the envelope with meta", async () => {
      const res = await call(brandA, "POST", "/products", { ...product, description: "Crew neck" });
      expect(res.status).to.equal(201);
      const body = await json(res);
      expect(body.success).to.equal(true);
      expect(body.meta).to.include({ api_version: "1.0", brand_slug: brandA.slug });
      expect(new Date(body.meta.timestamp).toISOString()).to.equal(body.meta.timestamp);
      const data = body.data;
      expect(data).to.have.all.keys(["uid", "product_id", "sku", "name", "dpp_url", "certificate_url", "scan_url", "embed_snippet", "carbon_rating", "carbon_kg"]);
      expect(data.uid).to.match(/^BRA-[0-9A-HJKMNP-TV-Z]{10}$/);
      expect(data.dpp_url).to.equal(`${base}/api/dpp/${data.uid}`);
      expect(data.scan_url).to.equal(`${base}/scan/${data.uid}`);
      expect(data.certificate_url).to.equal(`${base}/dpp-certificate/${data.uid}`);
      expect(data.embed_snippet).to.equal(`<div class="service-badge" data-uid="${data.uid}"></div>`);
      // Organic cotton tee: 0.18 kg × 1.15 × 3.8 + 0.5 = 1.29 kg CO2e → A.
      expect(data.carbon_kg).to.equal(1.29);
      expect(data.carbon_rating).to.equal("A");
      expect(res.headers.get("x-plan-api-used")).to.match(/^\d+$/);
    });

    it("names every missing or invalid field with 422 VALIDATION_ERROR", async () => {
      const res = await call(brandA, "POST", "/products", { sku: "", price: -1, category: 7, colour: "red" });
      expect(res.status).to.equal(422);
      const body = await json(res);
      expect(body.error.code).to.equal("VALIDATION_ERROR");
      const fields = body.error.details.map((d: { field: string }) => d.field);
      expect(fields).to.include.members(["sku", "name", "price", "category", "colour"]);
    });

    it("keeps the price's currency (ISO 4217, BDT by default) and refuses one that is not three letters", async () => {
      const created = await json(await call(brandA, "POST", "/products", { ...product, sku: "TS-EUR", price: 24.5, currency: "eur" }));
      const read = await json(await call(brandA, "GET", `/products/${created.data.uid}`));
      expect(read.data.product).to.include({ price: 24.5, currency: "EUR" });
      for (const currency of ["EURO", "E1R", "", 978, "XYZ"]) {
        const res = await call(brandA, "POST", "/products", { ...product, sku: "TS-BAD", currency });
        expect(res.status).to.equal(422);
        expect((await json(res)).error.details.map((d: { field: string }) => d.field)).to.deep.equal(["currency"]);
      }
    });

    it("checks fibre percentages and the factory against the registry", async () => {
      const res = await call(brandA, "POST", "/products", { ...product, factory_id: 999999, fiber_composition: [{ fiber: "cotton", percent: 60 }, { fiber: "polyester", percent: 30 }] });
      expect(res.status).to.equal(422);
      const fields = (await json(res)).error.details.map((d: { field: string }) => d.field);
      expect(fields).to.include.members(["fiber_composition", "factory_id"]);
    });

    it("replays the first response for a repeated Idempotency-Key and refuses the key with another body", async () => {
      const key = `retry-${Date.now()}`;
      const retried = { ...product, sku: "TS-RETRY" };
      const first = await call(brandA, "POST", "/products", retried, { "Idempotency-Key": key });
      const second = await call(brandA, "POST", "/products", retried, { "Idempotency-Key": key });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.headers.get("idempotent-replayed")).to.equal("true");
      expect((await json(second)).data.uid).to.equal((await json(first)).data.uid);
      const other = await call(brandA, "POST", "/products", { ...retried, price: 1 }, { "Idempotency-Key": key });
      expect(other.status).to.equal(409);
    });

    it("creates one product for concurrent requests with the same Idempotency-Key", async () => {
      const key = `burst-${Date.now()}`;
      const replies = await Promise.all(Array.from({ length: 8 }, () => call(brandA, "POST", "/products", { ...product, sku: "TS-BURST" }, { "Idempotency-Key": key })));
      const uids = new Set(await Promise.all(replies.map(async (r) => (await json(r)).data.uid)));
      expect(uids.size).to.equal(1);
      const [uid] = [...uids];
      const rows = await stack.api.db("app.products").where({ uid });
      expect(rows).to.have.length(1);
    });

    it("refuses a SKU the brand already uses with 409 CONFLICT naming its product, under concurrency too; another brand may use it", async () => {
      const first = await call(brandA, "POST", "/products", { ...product, sku: "TS-DUP" });
      expect(first.status).to.equal(201);
      const uid = (await json(first)).data.uid as string;
      const again = await call(brandA, "POST", "/products", { ...product, sku: "TS-DUP", name: "Another tee" });
      expect(again.status).to.equal(409);
      const body = await json(again);
      expect(body.error.code).to.equal("CONFLICT");
      expect(body.error.message).to.include("TS-DUP").and.include(uid);
      expect(body.error.details).to.deep.equal([{ field: "sku", problem: `is in use by your product ${uid}` }]);
      expect((await call(brandB, "POST", "/products", { ...product, sku: "TS-DUP" })).status).to.equal(201);

      // Concurrent registrations of one new SKU: exactly one product, the others 409.
      const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => call(brandA, "POST", "/products", { ...product, sku: "TS-RACE", name: `Race tee ${i}` })));
      expect(burst.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409, 409, 409, 409, 409]);
      for (const r of burst.filter((r) => r.status === 409)) expect((await json(r)).error.code).to.equal("CONFLICT");
      const rows = await stack.api.db("app.products").where({ sku: "TS-RACE" });
      expect(rows).to.have.length(1);

      // Serialised items (a GS1 serial each) are items of one trade item: they share its SKU.
      for (const serial of ["ITEM-1", "ITEM-2"]) {
        const item = await call(brandA, "POST", "/products", { ...product, sku: "TS-ITEM", gtin: "9520999110012", serial });
        expect(item.status, await item.clone().text()).to.equal(201);
      }
    });
  });

  describe("certificate lifecycle", () => {
    let uid: string;

    before(async () => {
      uid = (await json(await call(brandA, "POST", "/products", { ...product, sku: "TS-LIFE", factory_id: 1003, fiber_composition: [{ fiber: "cotton", percent: 100 }] }))).data.uid;
    });

    it("shows spec 2.5 with verified false and no transaction before issuance", async () => {
      const res = await call(brandA, "GET", `/products/${uid.toLowerCase()}`);
      expect(res.status).to.equal(200);
      const data = (await json(res)).data;
      expect(data).to.include.keys(["uid", "product", "dpp_url", "blockchain", "carbon_footprint_kg", "certifications", "fiber_composition", "care_instructions", "country_of_manufacture"]);
      expect(data.product).to.include({ title: product.name, sku: "TS-LIFE", price: 890, currency: "BDT" });
      expect(data.product.id).to.be.a("number");
      expect(data.blockchain).to.include({ verified: false, tx_hash: null, network: "hardhat-local" });
      expect(data.certifications).to.deep.equal([]);
      expect(data.fiber_composition).to.equal("100% cotton");
      expect(data.country_of_manufacture).to.equal("BD");
    });

    it("issues the certificate on chain once, with an explorer link and a real PDF", async function () {
      this.timeout(120_000);
      const first = await call(brandA, "POST", "/certs/issue", { uid });
      expect(first.status).to.equal(201);
      const issued = (await json(first)).data;
      expect(issued).to.include({ uid, status: "minted" });
      expect(issued.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
      expect(issued.network_url).to.equal(`${base}/explorer/tx/${issued.tx_hash}`);
      const receipt = await stack.wallet.wallet.provider!.getTransactionReceipt(issued.tx_hash);
      expect(receipt?.status).to.equal(1);

      const again = await call(brandA, "POST", "/certs/issue", { uid });
      expect(again.status).to.equal(200);
      expect((await json(again)).data.tx_hash).to.equal(issued.tx_hash);

      const explorer = await fetch(issued.network_url);
      expect(explorer.status).to.equal(200);
      expect(await explorer.text()).to.include("PassportsMinted");

      const pdf = await fetch(issued.certificate_pdf_url);
      expect(pdf.status).to.equal(200);
      expect(pdf.headers.get("content-type")).to.equal("application/pdf");
      const doc = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
      expect(doc.getPageCount()).to.equal(1);
      expect(doc.getTitle()).to.include(uid);
      expect(doc.getKeywords()).to.include(issued.tx_hash);

      await waitForIndexer(stack);
      const record = (await json(await call(brandA, "GET", `/products/${uid}`))).data;
      expect(record.blockchain).to.include({ verified: true, tx_hash: issued.tx_hash });
    });

    it("mints once for concurrent issuance of one UID and counts one certificate", async function () {
      this.timeout(120_000);
      const fresh = (await json(await call(brandA, "POST", "/products", { ...product, sku: "TS-MINT-RACE" }))).data.uid;
      const before = (await json(await call(brandA, "GET", "/usage"))).data.certs_issued;
      const replies = await Promise.all(Array.from({ length: 5 }, () => call(brandA, "POST", "/certs/issue", { uid: fresh })));
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses).to.deep.equal([200, 200, 200, 200, 201]);
      const hashes = new Set(await Promise.all(replies.map(async (r) => (await json(r)).data.tx_hash)));
      expect(hashes.size).to.equal(1);
      const after = (await json(await call(brandA, "GET", "/usage"))).data.certs_issued;
      expect(after).to.equal(before + 1);
    });

    it("combines concurrent issuances into shared transactions, each passport with its own data hash", async function () {
      this.timeout(120_000);
      const uids: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        uids.push((await json(await call(brandA, "POST", "/products", { ...product, sku: `BATCH-${i}`, name: `Batch tee ${i}` }))).data.uid);
      }
      const replies = await Promise.all(uids.map((uid) => call(brandA, "POST", "/certs/issue", { uid })));
      expect(replies.map((r) => r.status)).to.deep.equal(uids.map(() => 201));
      const issued = await Promise.all(replies.map(async (r) => (await json(r)).data));
      const transactions = new Set(issued.map((d: { tx_hash: string }) => d.tx_hash));
      // The first goes out alone; the others queue behind it and share batch transactions.
      expect(transactions.size).to.be.lessThan(uids.length);
      for (const data of issued) {
        expect(await stack.contracts.passport.dataHashOf(data.token_id)).to.equal(data.data_hash);
      }
      await waitForIndexer(stack);
      for (const uid of uids) {
        const record = await json(await fetch(`${base}/api/dpp/${uid}`));
        expect(record.blockchain.verified, uid).to.equal(true);
        expect(record.blockchain.data_hash_matches, uid).to.equal(true);
      }
    });

    it("returns carbon and warranty data (spec 2.7)", async () => {
      const res = await call(brandA, "GET", `/products/${uid}/enrichment`);
      expect(res.status).to.equal(200);
      const { warranty_terms_en: terms, ...data } = (await json(res)).data;
      expect(data).to.deep.equal({
        uid,
        carbon_kg: 1.29,
        carbon_rating: "A",
        warranty_months: 6,
        warranty_type: "manufacturing_defects",
        dpp_url: `${base}/api/dpp/${uid}`,
      });
      expect(terms).to.match(/^Covers defects in materials and workmanship .* for 6 months from purchase/);
    });

    it("answers 404 NOT_FOUND for an unknown UID and 422 for a malformed one", async () => {
      expect((await call(brandA, "GET", "/products/BRA-0000000000")).status).to.equal(404);
      expect((await call(brandA, "GET", "/products/not_a_uid")).status).to.equal(422);
      expect((await call(brandA, "POST", "/certs/issue", { uid: "BRA-0000000000" })).status).to.equal(404);
      expect((await call(brandA, "POST", "/certs/issue", {})).status).to.equal(422);
    });

    it("lets brand B read, change and learn nothing of brand A's products", async () => {
      // Reads, enrichment, issuance and idempotency keys: brand A's UID is as unknown to B as a random one.
      for (const [method, path, body] of [
        ["GET", `/products/${uid}`, undefined],
        ["GET", `/products/${uid}/enrichment`, undefined],
        ["POST", "/certs/issue", { uid }],
      ] as const) {
        const res = await call(brandB, method, path, body);
        expect(res.status, `${method} ${path}`).to.equal(404);
        const text = await res.text();
        expect(text).to.not.include(brandA.slug);
        expect(text).to.not.include("Organic Cotton Tee");
      }
      // B's usage counts only B's calls; B's key cannot act as A.
      const usageB = (await json(await call(brandB, "GET", "/usage"))).data;
      expect(usageB.certs_issued).to.equal(0);
      const asA = await call({ slug: brandA.slug, key: brandB.key }, "GET", `/products/${uid}`);
      expect(asA.status).to.equal(401);
      expect((await json(asA)).error.code).to.equal("INVALID_KEY");
      // The same Idempotency-Key used by both brands creates one product each.
      const key = `shared-${Date.now()}`;
      const a = (await json(await call(brandA, "POST", "/products", { ...product, sku: "TS-SHARED-KEY" }, { "Idempotency-Key": key }))).data.uid;
      const b = (await json(await call(brandB, "POST", "/products", { ...product, sku: "TS-SHARED-KEY" }, { "Idempotency-Key": key }))).data.uid;
      expect(a).to.match(/^BRA-/);
      expect(b).to.match(/^BRB-/);
    });
  });
});

describe("migration 031: one product per SKU in a brand, on a database that has repeats already", () => {
  it("keeps every product, gives each SKU to its oldest product and refuses new repeats", async () => {
    const db = createDb(await createTestDatabase("sku_migration"), 2);
    try {
      // The database as it was before the rule: the index and its column gone, repeated SKUs in two brands.
      await skuUnique.down(db);
      const a = (await createBrand(db, { slug: "sku-mig-a", name: "SKU A", uidPrefix: "SMA" })).brand;
      const b = (await createBrand(db, { slug: "sku-mig-b", name: "SKU B", uidPrefix: "SMB" })).brand;
      const row = (brandId: number, uid: string, sku: string) => ({ brand_id: brandId, uid, sku, name: uid, category: "t-shirt", price: 10, carbon_kg: 1, carbon_rating: "A" });
      const item = (uid: string, serial: string) => ({ ...row(a.id, uid, "DUP"), gtin: "09520999000016", serial });
      await db("app.products").insert([row(a.id, "SMA-1", "DUP"), row(a.id, "SMA-2", "DUP"), row(a.id, "SMA-3", "DUP"), row(a.id, "SMA-4", "ONE"), row(b.id, "SMB-1", "DUP"), item("SMA-7", "S-1")]);

      await skuUnique.up(db);
      const rows = await db("app.products").whereIn("brand_id", [a.id, b.id]).orderBy("uid").select("uid", "sku_repeated");
      expect(rows).to.deep.equal([
        { uid: "SMA-1", sku_repeated: false },
        { uid: "SMA-2", sku_repeated: true },
        { uid: "SMA-3", sku_repeated: true },
        { uid: "SMA-4", sku_repeated: false },
        { uid: "SMA-7", sku_repeated: false },
        { uid: "SMB-1", sku_repeated: false },
      ]);
      const refused = await db("app.products").insert(row(a.id, "SMA-5", "DUP")).then(() => undefined, (error: { constraint?: string }) => error.constraint);
      expect(refused).to.equal(skuUnique.SKU_UNIQUE_INDEX);
      // Serialised items of the trade item still share its SKU.
      await db("app.products").insert(item("SMA-8", "S-2"));
    } finally {
      await db.destroy();
    }
  });
});
