// A factory writes only to its own passports: tags and supply-chain steps on another factory's product are refused,
// an operator mints only products its brand attributed to it (and that mint counts against the brand's quota), and
// a maker the brand merely declared is never shown as a verified factory. On the real seeded stack.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { keccak256, toUtf8Bytes } from "ethers";
import { createBrand } from "../../api/src/brands/service";
import { monthlyUsage } from "../../api/src/metering/service";
import { tokenIdOf } from "../../api/src/passports/content";
import { json } from "../support/http";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";

describe("factory writes: a factory acts only on its own passports", () => {
  let stack: SeededStack;
  let base: string;
  let operator: string;
  let brand: { id: number; slug: string; key: string };
  // Demo data: the operator acts for factory 1001; factory 1002 (verified in the registry) made this minted product.
  const OWN_FACTORY = 1001;
  const OTHER_FACTORY = 1002;
  const otherFactorysPassport = () => stack.demo.products.find((p) => p.uid.endsWith("4VH8N1TR"))!.uid;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    const login = await post("/api/login", { email: stack.demo.operator.email, password: stack.demo.operator.password });
    expect(login.status).to.equal(200);
    operator = (await json(login)).token;
    // Three certificates a month: enough for the cases below, so the fourth shows the operator's mint is counted.
    const created = await createBrand(stack.api.db, { slug: "ownership", name: "Ownership Apparel", uidPrefix: "OWN", limitOverrides: { certs_per_month: 3 } });
    brand = { id: created.brand.id, slug: created.brand.slug, key: created.key.key };
  });

  function post(path: string, body: unknown, token?: string) {
    return fetch(`${base}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  }
  function v1(path: string, body: unknown) {
    return fetch(`${base}/api/v1${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  }
  /** A product of the test brand; `factory_id` is the maker the brand declares, if any. */
  async function brandProduct(factoryId?: number): Promise<string> {
    const res = await v1("/products", { sku: `OWN-${randomBytes(3).toString("hex")}`, name: "Ownership Tee", category: "t-shirt", price: 990, ...(factoryId ? { factory_id: factoryId } : {}) });
    expect(res.status).to.equal(201);
    return (await json(res)).data.uid;
  }
  async function expectForbidden(res: Response) {
    expect(res.status).to.equal(403);
    expect((await json(res)).error.code).to.equal("FORBIDDEN");
  }
  const certsIssued = async () => (await monthlyUsage(stack.api.db, brand.id)).certsIssued;
  const record = async (uid: string) => json(await fetch(`${base}/api/dpp/${uid}`));
  const page = async (path: string) => (await fetch(`${base}${path}`, { headers: { Accept: "text/html" } })).text();

  describe("on a passport another factory made", () => {
    it("refuses to assign a tag (403 FORBIDDEN) and leaves the chain untouched", async () => {
      const tagUid = randomBytes(7).toString("hex").toUpperCase();
      await expectForbidden(await post(`/api/factories/${OWN_FACTORY}/tags`, { uid: otherFactorysPassport(), tag_uid: tagUid }, operator));
      expect(await stack.contracts.passport.passportOfTag(keccak256(toUtf8Bytes(tagUid)))).to.equal(0n);
    });

    it("refuses to record a supply-chain step (403 FORBIDDEN)", async () => {
      const res = await post(`/api/factories/${OWN_FACTORY}/events`, { uid: otherFactorysPassport(), stage: 8, details: { note: "counterfeit" } }, operator);
      await expectForbidden(res);
    });
  });

  describe("minting", () => {
    it("refuses a product whose brand named no maker, and does not claim it for the operator's factory", async () => {
      const uid = await brandProduct();
      await expectForbidden(await post(`/api/factories/${OWN_FACTORY}/passports`, { uid }, operator));
      const row = await stack.api.db("app.products").where({ uid }).first();
      expect(row.factory_id).to.equal(null);
      expect(await stack.api.db("app.passports").where({ product_id: row.id })).to.have.length(0);
      expect(await stack.contracts.passport.exists(tokenIdOf(uid))).to.equal(false);
    });

    it("refuses a product its brand attributed to another factory", async () => {
      const uid = await brandProduct(OTHER_FACTORY);
      await expectForbidden(await post(`/api/factories/${OWN_FACTORY}/passports`, { uid }, operator));
    });
  });

  describe("the maker's attribution", () => {
    let declaredByBrand: string;
    let declaredThenStepped: string;
    let mintedByFactory: string;

    before(async function () {
      this.timeout(240_000);
      // Certificates 1 and 2: the brand issues products it says factories 1002 and 1001 made.
      declaredByBrand = await brandProduct(OTHER_FACTORY);
      declaredThenStepped = await brandProduct(OWN_FACTORY);
      for (const uid of [declaredByBrand, declaredThenStepped]) expect((await v1("/certs/issue", { uid })).status).to.equal(201);
    });

    it("counts a factory's mint against the brand's certificate quota, and refuses it once the quota is used", async function () {
      this.timeout(120_000);
      const before = await certsIssued();
      mintedByFactory = await brandProduct(OWN_FACTORY);
      expect((await post(`/api/factories/${OWN_FACTORY}/passports`, { uid: mintedByFactory }, operator)).status).to.equal(201);
      expect(await certsIssued()).to.equal(before + 1);
      // A repeat returns the same mint and costs nothing.
      expect((await post(`/api/factories/${OWN_FACTORY}/passports`, { uid: mintedByFactory }, operator)).status).to.equal(200);
      expect(await certsIssued()).to.equal(before + 1);

      const overQuota = await brandProduct(OWN_FACTORY);
      const refused = await post(`/api/factories/${OWN_FACTORY}/passports`, { uid: overQuota }, operator);
      expect(refused.status).to.equal(429);
      expect((await json(refused)).error.code).to.equal("MONTHLY_LIMIT_REACHED");
      expect(await stack.contracts.passport.exists(tokenIdOf(overQuota))).to.equal(false);
      expect(await certsIssued()).to.equal(before + 1);
    });

    it("shows a maker only the brand declared as declared, never as a verified factory, with the content unchanged", async () => {
      await waitForIndexer(stack);
      const declared = await record(declaredByBrand);
      expect(declared.content.manufacturer.factory_id).to.equal(OTHER_FACTORY);
      expect(declared.blockchain.data_hash_matches).to.equal(true);
      expect(declared.manufacturer).to.include({ factory_id: OTHER_FACTORY, attribution: "declared_by_brand", verified: false });
      const scan = await page(`/scan/${declaredByBrand}`);
      expect(scan).to.include("Declared by the brand").and.not.include("✓ Verified factory");
      expect(await page(`/dpp-certificate/${declaredByBrand}`)).to.include("Declared by the brand");
    });

    it("shows the maker as confirmed, and verified, once the factory itself minted or recorded a step", async function () {
      this.timeout(120_000);
      expect((await record(declaredThenStepped)).manufacturer.attribution).to.equal("declared_by_brand");
      expect((await post(`/api/factories/${OWN_FACTORY}/events`, { uid: declaredThenStepped, stage: 8 }, operator)).status).to.equal(201);
      await waitForIndexer(stack);
      for (const uid of [declaredThenStepped, mintedByFactory, stack.demo.products.find((p) => p.minted && p.uid.endsWith("7K3M9Q2X"))!.uid]) {
        const confirmed = await record(uid);
        expect(confirmed.manufacturer, uid).to.include({ factory_id: OWN_FACTORY, attribution: "confirmed_by_factory", verified: true });
        expect(confirmed.blockchain.data_hash_matches).to.equal(true);
        const scan = await page(`/scan/${uid}`);
        expect(scan).to.include("Confirmed by the factory").and.include("✓ Verified factory");
        expect(await page(`/dpp-certificate/${uid}`)).to.include("Confirmed by the factory");
      }
    });
  });
});
