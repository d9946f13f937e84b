// The EN 18222 lifecycle API on the real stack: a model, a batch and three items created, an item patched, read by
// product id and as of an instant before and after the patch, every version's hash recomputed and found on chain;
// both representations, merge-patch semantics, element reads and writes, the Result error shape, deletion rules.
/* eslint-disable @typescript-eslint/no-explicit-any -- the passports read here are JSON whose shape the test checks */
import { expect } from "chai";
import { keccak256, toUtf8Bytes, ZeroAddress } from "ethers";
import canonicalize from "canonicalize";
import { createBrand, setBrandStatus } from "../../api/src/brands/service";
import { mintedHashOf } from "../../api/src/chain/mint-call";
import { tokenIdOf } from "../../api/src/passports/content";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

type Client = { slug: string; key: string };
const SPEC = "passport-registry/dpp-content/3";
const V1 = "/api/dpp-lifecycle/v1";
// GTIN-13 9520188255111 (check digit right), as GTIN-14; unique to this file (a GTIN belongs to the first brand using it).
const GTIN = "09520188255111";

describe("EN 18222 lifecycle API", () => {
  let stack: SeededStack;
  let base: string;
  let brand: Client;
  let other: Client;
  let model: any;
  let batch: any;
  const items: any[] = [];

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    const a = await createBrand(stack.api.db, { slug: "en18222-brand", name: "Lifecycle Apparel", uidPrefix: "LCA" });
    const b = await createBrand(stack.api.db, { slug: "en18222-other", name: "Other Apparel", uidPrefix: "LCO" });
    brand = { slug: a.brand.slug, key: a.key.key };
    other = { slug: b.brand.slug, key: b.key.key };
  });

  const call = (client: Client | undefined, method: string, path: string, body?: unknown, contentType = "application/json") =>
    fetch(`${base}${V1}${path}`, {
      method,
      headers: { ...(client ? { Authorization: `Bearer ${client.key}`, "X-Service-Brand": client.slug } : {}), "Content-Type": contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const id = (dpp: { digitalProductPassportId: string }) => encodeURIComponent(dpp.digitalProductPassportId);

  async function expectResult(res: Response, status: number, code: string) {
    expect(res.status, await res.clone().text()).to.equal(status);
    const body = await json(res);
    expect(body).to.have.all.keys("messages");
    expect(body.messages[0]).to.include({ messageType: "Error", code });
    expect(body.messages[0]).to.have.all.keys("messageType", "text", "code", "correlationId", "timestamp");
    expect(body.messages[0].correlationId).to.equal(res.headers.get("x-request-id"));
    return body;
  }

  it("creates a model, a batch of it and three items of the batch, each anchored with its own id", async function () {
    this.timeout(180_000);
    const created = await call(brand, "POST", "/dpps", {
      granularity: "model",
      product: { sku: "POLO-24", name: "Piqué polo", category: "polo-shirt", fabric_type: "organic cotton", gtin: GTIN, description: "Short sleeves" },
      fiber_composition: [{ fiber: "cotton", percent: 100 }],
      care_instructions: "Wash at 30 °C",
      country_of_manufacture: "BD",
      price: 1250,
    });
    expect(created.status, await created.clone().text()).to.equal(201);
    model = await json(created);
    expect(model.digitalProductPassportId).to.match(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(model.digitalProductPassportId.length).to.be.at.most(70);
    expect(created.headers.get("location")).to.equal(`${V1}/dpps/${id(model)}`);
    expect(model).to.include({ granularity: "model", dppStatus: "active", dppSchemaVersion: "1.0.0" });
    expect(model.contentSpecificationIds).to.deep.equal([SPEC]);
    expect(model.uniqueProductIdentifier).to.equal(`${base}/01/${GTIN}`);
    expect(model.anchor.status).to.equal("anchored");
    expect(model[SPEC].passport).to.deep.equal({ id: model.digitalProductPassportId, granularity: "model" });

    const batchRes = await call(brand, "POST", "/dpps", { granularity: "batch", model: model.digitalProductPassportId, product: { lot: "L2611" } });
    expect(batchRes.status, await batchRes.clone().text()).to.equal(201);
    batch = await json(batchRes);
    expect(batch[SPEC].product).to.include({ sku: "POLO-24", name: "Piqué polo", gtin: GTIN, lot: "L2611" });
    expect(batch[SPEC].passport.model).to.deep.equal({ id: model.digitalProductPassportId, uid: model[SPEC].uid, data_hash: model.anchor.dataHash });
    expect(batch[SPEC].passport.inherited).to.include({ "product.name": "model", fiber_composition: "model", "product.gtin": "model" });

    for (const serial of ["S-1", "S-2", "S-3"]) {
      const res = await call(brand, "POST", "/dpps", { batch: batch.digitalProductPassportId, product: { serial } });
      expect(res.status, await res.clone().text()).to.equal(201);
      items.push(await json(res));
    }
    const item = items[0];
    expect(item.granularity).to.equal("item");
    expect(new Set(items.map((i) => i.digitalProductPassportId)).size).to.equal(3);
    expect(item[SPEC].product).to.include({ name: "Piqué polo", lot: "L2611", serial: "S-1", gtin: GTIN });
    // An item of a batch belongs to the batch's model too; the lot came from the batch, the name through it.
    expect(item[SPEC].passport.model.id).to.equal(model.digitalProductPassportId);
    expect(item[SPEC].passport.batch.id).to.equal(batch.digitalProductPassportId);
    expect(item[SPEC].passport.inherited).to.include({ "product.lot": "batch", "product.name": "batch" });
    expect(item.uniqueProductIdentifier).to.equal(`${base}/01/${GTIN}/10/L2611/21/S-1`);
    // Each level has its own anchor: a token of its own, holding the hash of its own content.
    const { passport } = stack.api.chain.contracts();
    for (const dpp of [model, batch, ...items]) {
      const section = dpp[SPEC];
      expect(keccak256(toUtf8Bytes(canonicalize(section)!))).to.equal(dpp.anchor.dataHash);
      expect((await passport.dataHashOf(tokenIdOf(section.uid))).toLowerCase()).to.equal(dpp.anchor.dataHash);
    }
  });

  it("reads a passport by id in both representations, without a key", async () => {
    const compressed = await json(await call(undefined, "GET", `/dpps/${id(items[0])}`));
    expect(compressed[SPEC].product.name).to.equal("Piqué polo");
    const full = await json(await call(undefined, "GET", `/dpps/${id(items[0])}?representation=full`));
    expect(full).to.not.have.property(SPEC);
    const section = full.elements[0];
    expect(section).to.include({ elementId: SPEC, objectType: "DataElementCollection" });
    const product = section.elements.find((e: any) => e.elementId === "product");
    const name = product.elements.find((e: any) => e.elementId === "name");
    expect(name).to.deep.include({ objectType: "MultiLanguage", dictionaryReference: "https://gs1.org/voc/productName", value: [{ language: "en", text: "Piqué polo" }] });
    const gtin = product.elements.find((e: any) => e.elementId === "gtin");
    expect(gtin).to.deep.include({ objectType: "SingleValued", valueDataType: "xsd:string", value: GTIN });
    const fibres = section.elements.find((e: any) => e.elementId === "fiber_composition");
    expect(fibres.objectType).to.equal("DataElementCollection");
    // An empty list of objects is still a collection.
    expect(section.elements.find((e: any) => e.elementId === "certifications")).to.deep.include({ objectType: "DataElementCollection", elements: [] });
    expect(fibres.elements[0].elements.find((e: any) => e.elementId === "percent")).to.include({ valueDataType: "xsd:decimal", value: 100 });
    const passportSection = section.elements.find((e: any) => e.elementId === "passport");
    const modelLink = passportSection.elements.find((e: any) => e.elementId === "model").elements.find((e: any) => e.elementId === "id");
    expect(modelLink).to.include({ objectType: "RelatedResource", value: model.digitalProductPassportId });
  });

  it("reads by product id: a UID, a Digital Link URI on any host, its path, or a GS1 element string", async () => {
    const uid = items[1][SPEC].uid;
    const forms = [uid.toLowerCase(), `https://id.gs1.org/01/${GTIN}/10/L2611/21/S-2`, `/01/${GTIN}/21/S-2`, `(01)${GTIN}(21)S-2`];
    for (const form of forms) {
      const res = await call(undefined, "GET", `/dppsByProductId/${encodeURIComponent(form)}`);
      expect(res.status, form).to.equal(200);
      expect((await json(res)).digitalProductPassportId, form).to.equal(items[1].digitalProductPassportId);
    }
    // A GTIN alone names the model and everything made of it: the model speaks for them.
    expect((await json(await call(undefined, "GET", `/dppsByProductId/${encodeURIComponent(`(01)${GTIN}`)}`))).granularity).to.equal("model");
    await expectResult(await call(undefined, "GET", `/dppsByProductId/${encodeURIComponent("(01)09520188255112")}`), 400, "BAD_REQUEST");
    await expectResult(await call(undefined, "GET", `/dppsByProductId/${encodeURIComponent(`(01)${GTIN}(21)NOPE`)}`), 404, "NOT_FOUND");
  });

  it("lists the passport ids of several product ids, paged by cursor", async () => {
    const res = await call(undefined, "POST", `/dppsByProductIds?limit=2`, { productIds: [`(01)${GTIN}`] });
    expect(res.status).to.equal(200);
    const first = await json(res);
    expect(first.result).to.have.length(2);
    expect(first.paging_metadata.cursor).to.equal(first.result[1]);
    const rest = await json(await call(undefined, "POST", `/dppsByProductIds?limit=100&cursor=${encodeURIComponent(first.paging_metadata.cursor)}`, { productIds: [`(01)${GTIN}`] }));
    expect(rest.paging_metadata).to.deep.equal({});
    const all = [...first.result, ...rest.result];
    expect(all.sort()).to.deep.equal([model, batch, ...items].map((d) => d.digitalProductPassportId).sort());
  });

  it("patches with RFC 7396 (null removes, arrays replace), re-anchors, and reads each version back as of its instant", async function () {
    this.timeout(120_000);
    const item = items[0];
    const before = new Date();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await call(brand, "PATCH", `/dpps/${id(item)}`, {
      [SPEC]: { product: { name: "Piqué polo, regular fit", description: null }, fiber_composition: [{ fiber: "cotton", percent: 95 }, { fiber: "elastane", percent: 5 }] },
    }, "application/merge-patch+json");
    expect(res.status, await res.clone().text()).to.equal(200);
    const patched = await json(res);
    expect(patched[SPEC].product.name).to.equal("Piqué polo, regular fit");
    expect(patched[SPEC].product.description).to.equal(null);
    expect(patched[SPEC].fiber_composition).to.have.length(2);
    expect(patched.anchor.version).to.equal(2);
    // What the item now says itself is no longer inherited; the rest still is.
    expect(patched[SPEC].passport.inherited).to.not.have.any.keys("product.name", "product.description", "fiber_composition");
    expect(patched[SPEC].passport.inherited).to.include({ "product.lot": "batch", care_instructions: "batch" });
    expect(patched.anchor.dataHash).to.not.equal(item.anchor.dataHash);
    expect(new Date(patched.lastUpdate).getTime()).to.be.greaterThan(before.getTime());

    const then = await json(await call(undefined, "GET", `/dppsByIdAndDate/${id(item)}?date=${before.toISOString()}`));
    expect(then[SPEC].product.name).to.equal("Piqué polo");
    expect(then.anchor).to.include({ version: 1, dataHash: item.anchor.dataHash });
    const now = await json(await call(undefined, "GET", `/dppsByIdAndDate/${id(item)}?date=${new Date(Date.now() + 1000).toISOString()}`));
    expect(now[SPEC].product.name).to.equal("Piqué polo, regular fit");
    await expectResult(await call(undefined, "GET", `/dppsByIdAndDate/${id(item)}?date=2020-01-01T00:00:00Z`), 404, "NOT_FOUND");
    await expectResult(await call(undefined, "GET", `/dppsByIdAndDate/${id(item)}?date=yesterday`), 400, "BAD_REQUEST");

    // Every version: its bytes hash to its dataHash, and the chain set exactly these hashes, in this order.
    const { versions } = await json(await call(undefined, "GET", `/dpps/${id(item)}/versions`));
    expect(versions.map((v: any) => v.version)).to.deep.equal([1, 2]);
    for (const version of versions) {
      const bytes = await (await call(undefined, "GET", `/dpps/${id(item)}/versions/${version.version}/content`)).text();
      expect(keccak256(toUtf8Bytes(bytes))).to.equal(version.dataHash);
      expect(canonicalize(JSON.parse(bytes))).to.equal(bytes);
    }
    const { passport } = stack.api.chain.contracts();
    const tokenId = tokenIdOf(item[SPEC].uid);
    // The mint is the token's Transfer from zero; the hash it anchored is an argument of its mint call.
    const minted = await passport.queryFilter(passport.filters.Transfer(ZeroAddress, undefined, tokenId));
    const mintHashes = await Promise.all(minted.map(async (e) => mintedHashOf(await e.getTransaction(), e.address, tokenId)));
    const updated = await passport.queryFilter(passport.filters.DataHashUpdated(tokenId));
    const onChain = [...mintHashes, ...updated.map((e) => e.args.newHash)].map((h) => h.toLowerCase());
    expect(onChain).to.deep.equal(versions.map((v: any) => v.dataHash));
  });

  it("reads and writes one element; refuses read-only and unknown elements by name", async function () {
    this.timeout(120_000);
    const item = items[1];
    expect(await json(await call(undefined, "GET", `/dpps/${id(item)}/elements/product.name`))).to.deep.equal({ name: "Piqué polo" });
    expect(await json(await call(undefined, "GET", `/dpps/${id(item)}/elements/dppStatus`))).to.deep.equal({ dppStatus: "active" });
    const full = await json(await call(undefined, "GET", `/dpps/${id(item)}/elements/fiber_composition.0.percent?representation=full`));
    expect(full).to.include({ elementId: "percent", objectType: "SingleValued", valueDataType: "xsd:decimal", value: 100 });
    await expectResult(await call(undefined, "GET", `/dpps/${id(item)}/elements/product.colour`), 404, "NOT_FOUND");

    const set = await call(brand, "PATCH", `/dpps/${id(item)}/elements/care_instructions`, { value: "Wash at 40 °C, inside out" });
    expect(set.status, await set.clone().text()).to.equal(200);
    expect(await json(set)).to.deep.equal({ care_instructions: "Wash at 40 °C, inside out" });

    const readOnly = await expectResult(await call(brand, "PATCH", `/dpps/${id(item)}`, { [SPEC]: { carbon: { rating: "A" }, colour: "blue" }, granularity: "model" }), 422, "VALIDATION_ERROR");
    const texts = readOnly.messages.map((m: any) => m.text);
    expect(texts).to.include.members([`${SPEC}.carbon: is read-only (set by the service, or fixed when the passport was issued)`, `${SPEC}.colour: is not an element of this content specification`, "granularity: is read-only"]);
    await expectResult(await call(brand, "PATCH", `/dpps/${id(item)}`, { [SPEC]: { product: { name: null } } }), 422, "VALIDATION_ERROR");
    await expectResult(await call(brand, "PATCH", `/dpps/${id(item)}`, { [SPEC]: { fiber_composition: [{ fiber: "unobtainium", percent: 100 }] } }), 422, "VALIDATION_ERROR");
  });

  it("takes back a passport as read with one element changed: its read-only blocks (anchor, access) and its nulls change nothing", async function () {
    this.timeout(120_000);
    const item = items[2];
    const read = await json(await call(brand, "GET", `/dpps/${id(item)}`));
    expect(read).to.include.keys("anchor", "access");
    read[SPEC].product.name = "Piqué polo, round trip";
    const res = await call(brand, "PATCH", `/dpps/${id(item)}`, read, "application/merge-patch+json");
    expect(res.status, await res.clone().text()).to.equal(200);
    expect((await json(res))[SPEC].product.name).to.equal("Piqué polo, round trip");
  });

  it("answers every failure as a Result: 400, 401, 403 (another brand's passport is 404), 404, 409, 422", async () => {
    await expectResult(await call(undefined, "PATCH", `/dpps/${id(items[2])}`, { dppStatus: "inactive" }), 401, "MISSING_KEY");
    await expectResult(await call({ ...brand, key: "pr_live_wrong" }, "PATCH", `/dpps/${id(items[2])}`, { dppStatus: "inactive" }), 401, "INVALID_KEY");
    await expectResult(await call(other, "PATCH", `/dpps/${id(items[2])}`, { dppStatus: "inactive" }), 404, "NOT_FOUND");
    await setBrandStatus(stack.api.db, other.slug, "suspended");
    await expectResult(await call(other, "POST", "/dpps", { product: { sku: "X-1", name: "X", category: "t-shirt" } }), 403, "BRAND_INACTIVE");
    await setBrandStatus(stack.api.db, other.slug, "active");
    await expectResult(await call(undefined, "GET", `/dpps/${encodeURIComponent("urn:uuid:00000000-0000-4000-8000-000000000000")}`), 404, "NOT_FOUND");
    await expectResult(await call(undefined, "GET", `/no-such-operation`), 404, "NOT_FOUND");
    await expectResult(await call(undefined, "GET", `/dpps/${id(items[2])}?representation=tiny`), 422, "VALIDATION_ERROR");
    const malformed = await fetch(`${base}${V1}/dpps/${id(items[2])}`, { method: "PATCH", headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" }, body: "{" });
    await expectResult(malformed, 422, "VALIDATION_ERROR");
    // 409: a model still named by its batch cannot go.
    await expectResult(await call(brand, "DELETE", `/dpps/${id(model)}`), 409, "CONFLICT");
  });

  it("deletes within the retention rules: active refused, inactive archived (still readable, read-only), unpublished erased", async function () {
    this.timeout(60_000);
    const item = items[2];
    await expectResult(await call(brand, "DELETE", `/dpps/${id(item)}`), 409, "CONFLICT");
    const inactive = await call(brand, "PATCH", `/dpps/${id(item)}`, { dppStatus: "inactive" });
    expect((await json(inactive)).dppStatus).to.equal("inactive");
    expect((await call(brand, "DELETE", `/dpps/${id(item)}`)).status).to.equal(204);
    const archived = await json(await call(undefined, "GET", `/dpps/${id(item)}`));
    expect(archived.dppStatus).to.equal("archived");
    await expectResult(await call(brand, "PATCH", `/dpps/${id(item)}`, { dppStatus: "active" }), 409, "CONFLICT");
    expect((await call(brand, "DELETE", `/dpps/${id(item)}`)).status).to.equal(204);

    // A product registered through v1 and never issued has a passport id but nothing on chain: DELETE erases it.
    const registered = await fetch(`${base}/api/v1/products`, {
      method: "POST",
      headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" },
      body: JSON.stringify({ sku: "DRAFT-1", name: "Draft", category: "t-shirt", price: 1 }),
    });
    const { uid } = (await json(registered)).data;
    const draft = await json(await call(undefined, "GET", `/dppsByProductId/${uid}`));
    expect(draft.anchor.status).to.equal("unissued");
    expect((await call(brand, "DELETE", `/dpps/${id(draft)}`)).status).to.equal(204);
    await expectResult(await call(undefined, "GET", `/dpps/${id(draft)}`), 404, "NOT_FOUND");
  });
});
