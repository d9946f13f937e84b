// A factory writes only to its own passports: tags and supply-chain steps on another factory's product are refused,
// an operator mints only products its brand attributed to it (and that mint counts against the brand's quota), and
// a maker the brand merely declared is never shown as a verified factory; a factory confirms only its own stage of a
// passport's textile section. On the real seeded stack.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { keccak256, toUtf8Bytes } from "ethers";
import canonicalize from "canonicalize";
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
  describe("textile stages, each confirmed by its own facility", () => {
    // The seed gives the operator's factory (1001) this GLN; 1012 is another registry factory. The dye house is named
    // by another company's GLN, which factory 1001 copies in the attack below.
    const OWN_GLN = "9520123000011";
    const DYE_HOUSE_GLN = "4006381333931";
    const STAGES = [
      { stage: "spinning", facility: { name: "Naroda Denim & Yarn Mills", country: "IN", id: { scheme: "registry", value: "1012" } } },
      { stage: "weaving_knitting", facility: { name: "Banani Loomcraft", country: "BD", id: { scheme: "registry", value: String(OWN_FACTORY) } }, started: "2026-09-01", completed: "2026-09-12" },
      { stage: "dyeing_printing_finishing", facility: { name: "Banani Loomcraft dye house", country: "BD", id: { scheme: "gln", value: DYE_HOUSE_GLN } } },
      { stage: "making_up", facility: { name: "An unnamed sewing unit", country: "BD" } },
    ];
    let client: { slug: string; key: string };
    let uid: string;
    let admin: string;

    const confirm = (factoryId: number, body: unknown, token = operator) => post(`/api/factories/${factoryId}/stage-confirmations`, body, token);

    before(async function () {
      this.timeout(120_000);
      const created = await createBrand(stack.api.db, { slug: "stage-confirm", name: "Stage Confirm Apparel", uidPrefix: "STC" });
      client = { slug: created.brand.slug, key: created.key.key };
      const res = await fetch(`${base}/api/v1/products`, {
        method: "POST",
        headers: { Authorization: `Bearer ${client.key}`, "X-Service-Brand": client.slug, "Content-Type": "application/json" },
        body: JSON.stringify({ sku: "STC-1", name: "Chain tee", category: "t-shirt", price: 990, factory_id: OWN_FACTORY, textile: { stages: STAGES } }),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      uid = (await json(res)).data.uid;
      const login = await post("/api/login", { email: stack.demo.admin.email, password: stack.demo.admin.password });
      admin = (await json(login)).token;
    });

    async function issue() {
      const res = await fetch(`${base}/api/v1/certs/issue`, {
        method: "POST",
        headers: { Authorization: `Bearer ${client.key}`, "X-Service-Brand": client.slug, "Content-Type": "application/json" },
        body: JSON.stringify({ uid }),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
    }

    it("refuses a passport not yet on chain (409 CONFLICT)", async () => {
      const res = await confirm(OWN_FACTORY, { uid, stage: "weaving_knitting" });
      expect(res.status).to.equal(409);
      expect((await json(res)).error.code).to.equal("CONFLICT");
    });

    it("confirms the factory's own stage: an event on the token, and the record shows it beside the unchanged content", async function () {
      this.timeout(120_000);
      await issue();
      const before = await record(uid);
      expect(before.textile_stages.map((s: { attribution: string }) => s.attribution)).to.deep.equal(Array(4).fill("declared_by_brand"));

      const res = await confirm(OWN_FACTORY, { uid, stage: "weaving_knitting" });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(201);
      expect(body).to.include({ uid, stage: "weaving_knitting", index: 1, factory_id: OWN_FACTORY, confirmed_by: "factory_operator", stage_code: 3, created: true });

      await waitForIndexer(stack);
      const after = await record(uid);
      // An attestation beside the brand's anchor: the content and its hash are as before, and still match the chain.
      expect(after.blockchain.computed_data_hash).to.equal(before.blockchain.computed_data_hash);
      expect(after.blockchain.data_hash_matches).to.equal(true);
      const stage = after.textile_stages[1];
      expect(stage).to.include({ stage: "weaving_knitting", index: 1, attribution: "confirmed_by_facility", started: "2026-09-01" });
      expect(stage.confirmation).to.include({ factory_id: OWN_FACTORY, confirmed_by: "factory_operator", token_of: uid, tx_hash: body.tx_hash, details_hash: body.details_hash });
      // Verifiable: the details kept off chain hash to the event's detailsHash, and name the stage exactly as declared.
      // (The public record leaves them out when it withholds the facility they repeat: docs/access.md.)
      const { details } = await stack.api.db("app.supply_chain_details").where({ details_hash: body.details_hash }).first("details");
      if (stage.confirmation.details !== null) expect(stage.confirmation.details).to.deep.equal(details);
      expect(keccak256(toUtf8Bytes(canonicalize(details)!))).to.equal(body.details_hash);
      expect(details).to.deep.include({ factory_id: OWN_FACTORY, textile_stage: "weaving_knitting", declared: STAGES[1], content_hash: before.blockchain.computed_data_hash });
      const event = after.supply_chain_events.find((e: { tx_hash: string }) => e.tx_hash === body.tx_hash);
      expect(event).to.include({ factory_id: OWN_FACTORY, stage_code: 3, details_hash: body.details_hash });
      expect(after.textile_stages[0]).to.include({ attribution: "declared_by_brand", confirmation: null });
    });

    it("answers a second confirmation with the first one (200, no new transaction)", async () => {
      const first = (await record(uid)).textile_stages[1].confirmation;
      const res = await confirm(OWN_FACTORY, { uid, stage: "weaving_knitting" });
      expect(res.status).to.equal(200);
      expect(await json(res)).to.include({ created: false, tx_hash: first.tx_hash, details_hash: first.details_hash });
      expect(await stack.api.db("app.stage_confirmations").join("app.products as p", "p.id", "product_id").where("p.uid", uid)).to.have.length(1);
    });

    it("refuses another facility's stage, and a stage whose facility has no identifier (403, naming the facility)", async () => {
      for (const stage of ["spinning", "making_up"]) {
        const res = await confirm(OWN_FACTORY, { uid, stage });
        const body = await json(res);
        expect(res.status, stage).to.equal(403);
        expect(body.error.code).to.equal("FORBIDDEN");
        expect(body.error.message).to.contain(STAGES.find((s) => s.stage === stage)!.facility.name).and.contain(`not factory ${OWN_FACTORY}`);
      }
      // And a factory the operator does not act for, even for its own stage.
      await expectForbidden(await confirm(1012, { uid, stage: "spinning" }));
      // A stage the passport does not declare is not found; a stage name outside the list is a validation error.
      expect((await confirm(OWN_FACTORY, { uid, stage: "recycling" })).status).to.equal(404);
      expect((await confirm(OWN_FACTORY, { uid, stage: "sewing" })).status).to.equal(422);
      expect((await record(uid)).textile_stages[0].attribution).to.equal("declared_by_brand");
    });

    it("confirms nothing for a stage named by a GLN, even one the factory set as its own: copying a GLN is refused (403)", async () => {
      const setGln = (gln: string) =>
        fetch(`${base}/api/factories/${OWN_FACTORY}/identifiers`, {
          method: "PUT",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${operator}` },
          body: JSON.stringify({ gln }),
        });
      // The attack: factory 1001 takes the dye house's GLN (nothing stops it), then confirms the dye house's stage.
      expect((await setGln(DYE_HOUSE_GLN)).status).to.equal(200);
      try {
        const res = await confirm(OWN_FACTORY, { uid, stage: "dyeing_printing_finishing" });
        const body = await json(res);
        expect(res.status, JSON.stringify(body)).to.equal(403);
        expect(body.error.code).to.equal("FORBIDDEN");
        expect(body.error.message).to.contain("Banani Loomcraft dye house").and.contain(`registry id (registry:${OWN_FACTORY})`);
      } finally {
        expect((await setGln(OWN_GLN)).status).to.equal(200);
      }
      expect((await record(uid)).textile_stages[2]).to.include({ attribution: "declared_by_brand", confirmation: null });
      expect(await stack.api.db("app.stage_confirmations").join("app.products as p", "p.id", "product_id").where({ "p.uid": uid, stage: "dyeing_printing_finishing" })).to.have.length(0);
    });

    it("never sends a confirmation twice: a claim whose transaction went out is awaited by the next request, even when stale", async () => {
      const [claim] = await stack.api.db("app.stage_confirmations").join("app.products as p", "p.id", "product_id").where({ "p.uid": uid, stage: "weaving_knitting" }).select("app.stage_confirmations.*");
      // As a request leaves it when its receipt wait timed out (503), or its process died after the broadcast, long ago.
      await stack.api.db("app.stage_confirmations").where({ id: claim.id }).update({ confirmed_at: null, block_number: null, claimed_at: stack.api.db.raw("now() - interval '1 hour'") });
      const sends = async () => Number((await stack.api.db("app.chain_transactions").where({ purpose: "record_supply_chain_event" }).count<{ count: string }[]>("* as count"))[0]!.count);
      const before = await sends();
      const res = await confirm(OWN_FACTORY, { uid, stage: "weaving_knitting" });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(body).to.include({ created: false, tx_hash: claim.tx_hash, details_hash: claim.details_hash, block_number: Number(claim.block_number) });
      expect(await sends()).to.equal(before);
      expect((await stack.api.db("app.stage_confirmations").where({ id: claim.id }).first()).confirmed_at).to.not.equal(null);
      // Confirming its weaving is not the maker confirming it made the product: only its making-up would be.
      expect((await stack.api.db("app.products").where({ uid }).first("confirmed_factory_id")).confirmed_factory_id).to.equal(null);
    });

    it("lets an admin act for any factory, only for that factory's own stage", async function () {
      this.timeout(60_000);
      await expectForbidden(await confirm(OWN_FACTORY, { uid, stage: "spinning" }, admin));
      const res = await confirm(1012, { uid, stage: "spinning" }, admin);
      expect(res.status, await res.clone().text()).to.equal(201);
      await waitForIndexer(stack);
      expect((await record(uid)).textile_stages[0]).to.deep.include({ attribution: "confirmed_by_facility" });
      expect((await record(uid)).textile_stages[0].confirmation).to.include({ factory_id: 1012, confirmed_by: "admin" });
    });

    it("shows the demo garment's Bangladeshi stages confirmed by their factories on its item, spinning declared, and a complete header", async () => {
      const item = await stack.api.db("app.products").where({ dpp_id: stack.demo.en18222.dpp_id }).first("uid");
      const garment = await record(item.uid);
      const byStage = (name: string) => garment.textile_stages.filter((s: { stage: string }) => s.stage === name);
      for (const [name, factoryId] of [["weaving_knitting", 1006], ["dyeing_printing_finishing", 1003], ["making_up", OWN_FACTORY]] as const) {
        expect(byStage(name)[0].confirmation, name).to.include({ factory_id: factoryId, confirmed_by: "factory_operator" });
        // Recorded on the model, whose stages the item took.
        expect(byStage(name)[0].confirmation.token_of).to.not.equal(item.uid);
      }
      expect(byStage("spinning")[0]).to.include({ attribution: "declared_by_brand", confirmation: null });
      // Its EN 18223 header names the brand's EORI and the maker's GLN.
      const header = await json(await fetch(stack.demo.en18222.read_url));
      expect(header).to.include({ economicOperatorId: "DE123456789012345", facilityId: `https://id.gs1.org/414/${OWN_GLN}` });
    });
  });
});
