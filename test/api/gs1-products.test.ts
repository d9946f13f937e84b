// GS1 identifiers of products on the seeded stack: a GTIN is checked (check digit) and stored as GTIN-14, a lot and
// serial hold GS1's character set only and need a GTIN, a GTIN and serial are one item service-wide (409 CONFLICT,
// on registration and on edits), the anchored content carries them only when set, and the dashboard shows the
// product's Digital Link.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { SDM_MIRROR_QUERY } from "../../api/src/tags/provisioning";
import { createBrand } from "../../api/src/brands/service";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

type Client = { slug: string; key: string };

describe("products: GS1 identifiers (GTIN, lot, serial)", () => {
  let stack: SeededStack;
  let base: string;
  let brandA: Client;
  let brandB: Client;
  let editor: DashboardClient;
  let editorB: DashboardClient;
  const tee = { sku: "GS1-TEE", name: "GS1 Tee", category: "t-shirt", price: 500 };

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    const a = await createBrand(stack.api.db, { slug: "gs1-prod-a", name: "GS1 Products A", uidPrefix: "GPA" });
    const b = await createBrand(stack.api.db, { slug: "gs1-prod-b", name: "GS1 Products B", uidPrefix: "GPB" });
    brandA = { slug: a.brand.slug, key: a.key.key };
    brandB = { slug: b.brand.slug, key: b.key.key };
    editor = await dashboardClient(base, stack.api.db, a.brand.id, "editor");
    editorB = await dashboardClient(base, stack.api.db, b.brand.id, "editor");
  });

  function register(client: Client, body: Record<string, unknown>) {
    return fetch(`${base}/api/v1/products`, {
      method: "POST",
      headers: { Authorization: `Bearer ${client.key}`, "X-Service-Brand": client.slug, "Content-Type": "application/json" },
      body: JSON.stringify({ ...tee, ...body }),
    });
  }
  const read = async (client: Client, uid: string) =>
    json(await fetch(`${base}/api/v1/products/${uid}`, { headers: { Authorization: `Bearer ${client.key}`, "X-Service-Brand": client.slug } }));
  const problems = async (res: Response) => {
    expect(res.status).to.equal(422);
    const body = await json(res);
    expect(body.error.code).to.equal("VALIDATION_ERROR");
    return body.error.details as Array<{ field: string; problem: string }>;
  };

  it("stores a GTIN-13 as its GTIN-14, with its lot and serial", async () => {
    const res = await register(brandA, { gtin: "4006381333931", lot: "L-2026/07", serial: "SER-0001" });
    expect(res.status).to.equal(201);
    const { data } = await json(res);
    const product = (await read(brandA, data.uid)).data.product;
    expect(product).to.include({ gtin: "04006381333931", lot: "L-2026/07", serial: "SER-0001" });
  });

  it("refuses a wrong check digit, a GTIN of the wrong length and letters, naming the right digit", async () => {
    expect(await problems(await register(brandA, { gtin: "4006381333932" }))).to.deep.equal([{ field: "gtin", problem: "has a wrong check digit (the last digit should be 1)" }]);
    expect((await problems(await register(brandA, { gtin: "40063813339" })))[0]!.problem).to.equal("must have 8, 12, 13 or 14 digits");
    expect((await problems(await register(brandA, { gtin: "400638133393A" })))[0]!.problem).to.equal("must be digits only");
  });

  it("refuses a lot or serial outside GS1's character set or over 20 characters, and one without a GTIN", async () => {
    const bad = await problems(await register(brandA, { gtin: "09520123456788", lot: "lot #1", serial: "é-1" }));
    expect(bad.map((d) => d.field)).to.deep.equal(["lot", "serial"]);
    expect(bad[1]!.problem).to.match(/GS1 character set 82/);
    expect((await problems(await register(brandA, { gtin: "09520123456788", serial: "X".repeat(21) })))[0]!.field).to.equal("serial");
    expect(await problems(await register(brandA, { serial: "S-1" }))).to.deep.equal([{ field: "serial", problem: "needs a GTIN" }]);
  });

  it("answers 409 CONFLICT for a GTIN and serial another product has, and for a GTIN another brand's products carry", async () => {
    expect((await register(brandA, { gtin: "09520123456788", serial: "DUP-1" })).status).to.equal(201);
    // The same item written as a GTIN-13 is the same GTIN.
    const again = await register(brandA, { gtin: "9520123456788", serial: "DUP-1" });
    expect(again.status).to.equal(409);
    const body = await json(again);
    expect(body.error.code).to.equal("CONFLICT");
    expect(body.error.message).to.contain("09520123456788").and.contain("DUP-1");
    // A GTIN belongs to the first brand that registered it: another brand may not use it, whatever the serial, and
    // is not told whose it is.
    for (const serial of ["DUP-1", "DUP-2"]) {
      const taken = await register(brandB, { gtin: "09520123456788", serial });
      expect(taken.status).to.equal(409);
      const message = (await json(taken)).error.message as string;
      expect(message).to.match(/^GTIN 09520123456788 is used by another brand's products/);
      expect(message).to.not.contain("GS1 Products A").and.not.contain("gs1-prod-a");
    }
    // Another serial of the brand's own GTIN, or the same serial of its own other GTIN, is another item.
    expect((await register(brandA, { gtin: "09520123456788", serial: "DUP-2" })).status).to.equal(201);
    expect((await register(brandB, { gtin: "04012345000016", serial: "DUP-1" })).status).to.equal(201);
    // A brand's edit cannot take another's GTIN either.
    const own = (await json(await register(brandB, { gtin: "04012345000016", serial: "DUP-3" }))).data.uid as string;
    const moved = await editorB.call(`/api/dashboard/products/${own}`, { method: "PATCH", json: { gtin: "09520123456788" } });
    expect(moved.status).to.equal(409);
    expect((await json(moved)).error.message).to.match(/^GTIN 09520123456788 is used by another brand's products/);
  });

  it("edits identifiers from the dashboard: a taken item is 409, a cleared GTIN takes lot and serial with it", async () => {
    const created = await editor.call("/api/dashboard/products", { method: "POST", json: { ...tee, sku: "GS1-EDIT", gtin: "09520123456788", serial: "EDIT-1" } });
    expect(created.status).to.equal(201);
    const product = (await json(created)).data;
    expect(product).to.include({ gtin: "09520123456788", serial: "EDIT-1", lot: null });
    expect(product.digital_link).to.equal(`${base}/01/09520123456788/21/EDIT-1`);

    const taken = await editor.call(`/api/dashboard/products/${product.uid}`, { method: "PATCH", json: { serial: "DUP-1" } });
    expect(taken.status).to.equal(409);
    expect((await json(taken)).error.code).to.equal("CONFLICT");
    const badDigit = await editor.call(`/api/dashboard/products/${product.uid}`, { method: "PATCH", json: { gtin: "09520123456789" } });
    expect(badDigit.status).to.equal(422);

    const moved = await editor.call(`/api/dashboard/products/${product.uid}`, { method: "PATCH", json: { lot: "B7", serial: "EDIT-2" } });
    expect(moved.status).to.equal(200);
    expect((await json(moved)).data).to.include({ lot: "B7", serial: "EDIT-2", digital_link: `${base}/01/09520123456788/10/B7/21/EDIT-2` });
    const cleared = await editor.call(`/api/dashboard/products/${product.uid}`, { method: "PATCH", json: { gtin: "" } });
    expect((await json(cleared)).data).to.include({ gtin: null, lot: null, serial: null, digital_link: null });
  });

  it("writes a tag's URL as the item's Digital Link when the product has a GTIN and serial, else the scan URL", async () => {
    const item = (await json(await editor.call("/api/dashboard/products", { method: "POST", json: { ...tee, sku: "GS1-TAG", gtin: "09520123456788", serial: "TAG-1" } }))).data;
    const plain = (await json(await editor.call("/api/dashboard/products", { method: "POST", json: { ...tee, sku: "GS1-TAG-PLAIN" } }))).data;
    const tagUids = [item.uid, plain.uid].map(() => `04${randomBytes(6).toString("hex").toUpperCase()}`);
    const res = await editor.call("/api/dashboard/tags/provision", { method: "POST", json: { chip: "NTAG424", tag_uids: tagUids, product_uids: [item.uid, plain.uid] } });
    expect(res.status).to.equal(200);
    const templates = (await res.text()).trim().split("\r\n").slice(1).map((line) => line.split(",")[4]);
    expect(templates).to.deep.equal([
      `${base}/01/09520123456788/21/TAG-1?${SDM_MIRROR_QUERY}`,
      `${base}/scan/${plain.uid}?${SDM_MIRROR_QUERY}`,
    ]);
  });

  it("anchors the identifiers in the content only when the product has them", async () => {
    const shirt = await json(await fetch(`${base}/api/dpp/DEMO-7K3M9Q2X`));
    expect(shirt.content.product).to.include({ gtin: "09520123000103", serial: "OXF-0001" });
    expect(shirt.content.product).not.to.have.property("lot");
    // The chain holds the hash of that content (identifiers included).
    expect(shirt.blockchain.data_hash_matches).to.equal(true);
    const jeans = await json(await fetch(`${base}/api/dpp/DEMO-2XB7C5KF`));
    expect(jeans.content.product).to.have.all.keys(["sku", "name", "category", "fabric_type", "description"]);
    expect(jeans.blockchain.data_hash_matches).to.equal(true);
  });
});
