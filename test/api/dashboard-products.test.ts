// The dashboard's products on the real seeded stack (Hardhat chain, indexer, API): list, create, detail with the
// public passport, certificate issuance, edits re-anchored on chain with their versions (concurrent, refused and
// late ones included), NFC tags with the tag.assigned webhook, lost / stolen / recovered, scans and the overview;
// roles, CSRF and brand isolation enforced by the server.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { startWebhookReceiver, type Delivery, type WebhookReceiver } from "../support/webhook-receiver";
import { keccak256, toUtf8Bytes, Wallet, type JsonRpcProvider } from "ethers";
import { Webhook } from "standardwebhooks";
import { createBrand } from "../../api/src/brands/service";
import { createLogger } from "../../api/src/logger";
import { dataHashOf, tokenIdOf } from "../../api/src/passports/content";
import { COUNT_TTL_MS } from "../../api/src/products/product-list.repo";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { setDashboardWebhook } from "../../api/src/webhooks/endpoints";
import { waitFor } from "../../scripts/lib/processes";
import { OpenApiContract } from "../support/contract";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";

/** Hardhat's second default account: the contracts' admin in the local stack (scripts/lib/stack.ts HARDHAT_ADMIN). */
const ADMIN_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";


/**
 * Every answer the dashboard gives in this file is checked against the served OpenAPI document (status, content type,
 * JSON body against its schema); the last test reports what departed from it.
 */
function contractChecked(contract: () => OpenApiContract, departures: Promise<string[]>[]) {
  return (client: DashboardClient): DashboardClient => ({
    ...client,
    call: async (path, init) => {
      const res = await client.call(path, init);
      departures.push(contract().check(init?.method ?? "GET", path, res.clone()));
      return res;
    },
  });
}
describe("dashboard: products, certificates, edits, tags, status, scans, overview", () => {
  let stack: SeededStack;
  let owner: DashboardClient;
  let editor: DashboardClient;
  let viewer: DashboardClient;
  let stranger: DashboardClient;
  let brandId: number;
  let contract: OpenApiContract;
  const departures: Promise<string[]>[] = [];
  const checked = contractChecked(() => contract, departures);
  const tee = { sku: "DP-TEE-1", name: "Dashboard Organic Tee", category: "t-shirt", fabric_type: "organic cotton", price: 890, description: "Crew neck" };

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    const a = await createBrand(stack.api.db, { slug: "dash-products-a", name: "Dashboard Brand A", uidPrefix: "DPA", plan: "growth" });
    const b = await createBrand(stack.api.db, { slug: "dash-products-b", name: "Dashboard Brand B", uidPrefix: "DPB" });
    brandId = a.brand.id;
    contract = await OpenApiContract.load(stack.api.url);
    owner = checked(await dashboardClient(stack.api.url, stack.api.db, brandId, "owner"));
    editor = checked(await dashboardClient(stack.api.url, stack.api.db, brandId, "editor"));
    viewer = checked(await dashboardClient(stack.api.url, stack.api.db, brandId, "viewer"));
    stranger = checked(await dashboardClient(stack.api.url, stack.api.db, b.brand.id, "owner"));
  });

  const post = (client: DashboardClient, path: string, body?: unknown) => client.call(path, { method: "POST", ...(body === undefined ? {} : { json: body }) });
  const patch = (client: DashboardClient, path: string, body: unknown) => client.call(path, { method: "PATCH", json: body });
  const detailOf = async (uid: string) => (await json(await editor.call(`/api/dashboard/products/${uid}`))).data;

  async function create(body: Record<string, unknown> = {}): Promise<string> {
    const res = await post(editor, "/api/dashboard/products", { ...tee, sku: `DP-${randomBytes(3).toString("hex")}`, ...body });
    expect(res.status, await res.clone().text()).to.equal(201);
    return (await json(res)).data.uid as string;
  }
  async function issued(body: Record<string, unknown> = {}): Promise<string> {
    const uid = await create(body);
    const res = await post(editor, `/api/dashboard/products/${uid}/certificate`);
    expect(res.status, await res.clone().text()).to.equal(202);
    return uid;
  }
  const chainHash = async (uid: string) => (await stack.contracts.passport.dataHashOf(tokenIdOf(uid))).toLowerCase();
  const audit = (action: string, target: string) => stack.api.db("app.audit_log").where({ brand_id: brandId, action, target }).orderBy("id");

  describe("list and create", () => {
    it("registers a product with the v1 body and rules, and answers with its detail", async () => {
      const res = await post(editor, "/api/dashboard/products", tee);
      expect(res.status).to.equal(201);
      const data = (await json(res)).data;
      expect(data.uid).to.match(/^DPA-[0-9A-HJKMNP-TV-Z]{10}$/);
      expect(data).to.include({ sku: "DP-TEE-1", name: tee.name, category: "t-shirt", passport_status: "unissued", chain_status: null, tag_assigned: false, tx_hash: null, price: 890, currency: "BDT" });
      expect(data.versions).to.deep.equal([]);
      expect(data.tag).to.equal(null);
      expect(data.links).to.deep.equal({
        scan_url: `${stack.api.url}/scan/${data.uid}`,
        certificate_url: `${stack.api.url}/dpp-certificate/${data.uid}`,
        pdf_url: `${stack.api.url}/certificates/${data.uid}.pdf`,
        dpp_url: `${stack.api.url}/api/dpp/${data.uid}`,
      });
      // The preview is the public record itself, whole: the brand sees every element (here the public does too).
      const { access, ...record } = await json(await fetch(`${stack.api.url}/api/dpp/${data.uid}`));
      expect(access).to.deep.equal({ class: "public", withheld: [] });
      expect(data.passport).to.deep.equal(record);
      expect(await audit("product.created", data.uid)).to.have.length(1);

      const invalid = await post(editor, "/api/dashboard/products", { ...tee, price: 9.999, colour: "red" });
      expect(invalid.status).to.equal(422);
      expect((await json(invalid)).error.details.map((d: { field: string }) => d.field)).to.deep.equal(["colour"]);
      const cents = await post(editor, "/api/dashboard/products", { ...tee, price: 9.999 });
      expect((await json(cents)).error.details).to.deep.equal([{ field: "price", problem: "must have at most 2 decimals" }]);
      expect((await post(viewer, "/api/dashboard/products", tee)).status).to.equal(403);
    });

    it("refuses a SKU another of the brand's products has, on create and on edit (409 naming that product)", async () => {
      const sku = `DP-DUP-${randomBytes(3).toString("hex")}`;
      const holder = await create({ sku });
      const again = await post(editor, "/api/dashboard/products", { ...tee, sku });
      expect(again.status).to.equal(409);
      const body = await json(again);
      expect(body.error.code).to.equal("CONFLICT");
      expect(body.error.message).to.include(sku).and.include(holder);

      const other = await create();
      const renamed = await patch(editor, `/api/dashboard/products/${other}`, { sku });
      expect(renamed.status).to.equal(409);
      expect((await json(renamed)).error.message).to.include(holder);
      expect((await detailOf(other)).sku).to.not.equal(sku);
      // Saving a product with its own SKU is no conflict.
      expect((await patch(editor, `/api/dashboard/products/${holder}`, { sku, name: "Same SKU, new name" })).status).to.equal(200);
    });

    it("searches UID, SKU and name case-insensitively, filters by category and state, and pages", async () => {
      const tag = randomBytes(3).toString("hex");
      const uids = [];
      for (const [i, category] of ["jeans", "jeans", "saree"].entries()) uids.push(await create({ sku: `SRCH-${tag}-${i}`, name: `Search ${tag} ${i}`, category }));
      const list = async (query: string) => json(await viewer.call(`/api/dashboard/products?${query}`));
      const all = await list(`q=srch-${tag.toUpperCase()}`);
      expect(all.meta).to.deep.equal({ page: 1, per_page: 25, total: 3, total_is_lower_bound: false, next_cursor: null, prev_cursor: null });
      expect(all.data.map((p: { uid: string }) => p.uid)).to.deep.equal([...uids].reverse());
      expect((await list(`q=${uids[1]!.toLowerCase()}`)).data.map((p: { uid: string }) => p.uid)).to.deep.equal([uids[1]]);
      expect((await list(`q=search%20${tag}&category=jeans`)).meta.total).to.equal(2);
      expect((await list(`q=${tag}&status=unissued`)).meta.total).to.equal(3);
      expect((await list(`q=${tag}&status=verified`)).meta.total).to.equal(0);
      const second = await list(`q=${tag}&per_page=2&page=2`);
      expect(second.meta).to.include({ page: 2, per_page: 2, total: 3, total_is_lower_bound: false, next_cursor: null });
      expect(second.meta.prev_cursor).to.match(/^[0-9]+\.[0-9]+$/);
      expect(second.data.map((p: { uid: string }) => p.uid)).to.deep.equal([uids[0]]);
      // A wildcard in the search is a literal character, not a pattern.
      expect((await list(`q=%25`)).meta.total).to.equal(0);
      const badCursors = ["after=1.2&before=1.2", "after=abc", "before=1", `after=${"9".repeat(17)}.1`, "after=1.99999999999"];
      for (const bad of ["status=minted", "per_page=101", "page=0", `q=${"x".repeat(101)}`, "colour=red", ...badCursors]) {
        expect((await viewer.call(`/api/dashboard/products?${bad}`)).status, bad).to.equal(422);
      }
    });

    it("pages products registered in the same instant in one order, the newest id first: none twice, none left out, each with its passport state", async () => {
      const tag = randomBytes(3).toString("hex");
      const uids = [];
      for (let i = 0; i < 5; i += 1) uids.push(await create({ sku: `TIE-${tag}-${i}`, name: `Tie ${tag} ${i}`, category: i % 2 ? "jeans" : "saree" }));
      // An import stores its rows in one transaction: they share created_at, and only the id orders them.
      await stack.api.db("app.products").whereIn("uid", uids).update({ created_at: new Date("2026-01-01T00:00:00Z") });
      const list = async (query: string) => json(await viewer.call(`/api/dashboard/products?q=${tag}&${query}`));
      const pages = [];
      for (let page = 1; page <= 3; page += 1) pages.push(await list(`per_page=2&page=${page}`));
      expect(pages.map((p) => p.meta.total)).to.deep.equal([5, 5, 5]);
      const paged = pages.flatMap((p) => p.data.map((item: { uid: string }) => item.uid));
      expect(paged).to.deep.equal([...uids].reverse());
      expect((await list("per_page=25")).data.map((item: { uid: string }) => item.uid)).to.deep.equal(paged);
      expect(pages.flatMap((p) => p.data.map((item: { passport_status: string }) => item.passport_status))).to.deep.equal(Array(5).fill("unissued"));
      // A filter pages the same way, and a page past the end is empty with the total.
      const jeans = [await list("category=jeans&per_page=1&page=1"), await list("category=jeans&per_page=1&page=2")];
      expect(jeans.flatMap((p) => p.data.map((item: { uid: string }) => item.uid))).to.deep.equal([uids[3], uids[1]]);
      const beyond = await list("per_page=2&page=4");
      expect(beyond.data).to.deep.equal([]);
      expect(beyond.meta.total).to.equal(5);
    });

    it("pages by cursor, forwards and back, in the order of the pages by number, to the microsecond", async () => {
      const tag = randomBytes(3).toString("hex");
      const uids = [];
      for (let i = 0; i < 7; i += 1) uids.push(await create({ sku: `CUR-${tag}-${i}`, name: `Cursor ${tag} ${i}`, category: "jeans" }));
      // Two pairs share an instant (only the id orders them) and the rest are a microsecond apart, which a
      // millisecond cursor would lose.
      const instants = ["00.000001", "00.000001", "00.000002", "00.000003", "00.000003", "00.000004", "01.000000"];
      for (const [i, uid] of uids.entries()) await stack.api.db("app.products").where({ uid }).update({ created_at: stack.api.db.raw(`'2026-01-01T00:00:${instants[i]}Z'::timestamptz`) });
      const list = async (query: string) => json(await viewer.call(`/api/dashboard/products?q=${tag}&per_page=2&${query}`));
      const uidsOf = (page: { data: Array<{ uid: string }> }) => page.data.map((item) => item.uid);
      const newestFirst = [...uids].reverse();

      const forwards = [await list("page=1")];
      expect(forwards[0]!.meta.prev_cursor).to.equal(null);
      while (forwards.at(-1)!.meta.next_cursor) forwards.push(await list(`page=${forwards.length + 1}&after=${forwards.at(-1)!.meta.next_cursor}`));
      expect(forwards.map(uidsOf)).to.deep.equal([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4, 6), newestFirst.slice(6)]);
      // Each page by cursor is the page of that number by offset, with the same cursors.
      for (const [i, page] of forwards.entries()) {
        const byNumber = await list(`page=${i + 1}`);
        expect(uidsOf(byNumber)).to.deep.equal(uidsOf(page));
        expect(byNumber.meta).to.deep.equal(page.meta);
      }
      expect(forwards.at(-1)!.meta).to.include({ total: 7, next_cursor: null });

      // Back from the last page to the first, by prev_cursor.
      const backwards = [forwards.at(-1)!];
      while (backwards.at(-1)!.meta.prev_cursor) backwards.push(await list(`before=${backwards.at(-1)!.meta.prev_cursor}`));
      expect(backwards.map(uidsOf)).to.deep.equal(forwards.map(uidsOf).reverse());
      expect(backwards.at(-1)!.meta.next_cursor).to.equal(forwards[0]!.meta.next_cursor);

      // A filter pages by cursor the same way; a cursor past the end gives an empty page with the total.
      const unissued = await list(`page=2&after=${forwards[0]!.meta.next_cursor}&status=unissued`);
      expect(uidsOf(unissued)).to.deep.equal(newestFirst.slice(2, 4));
      const end = await list(`after=1.1`);
      expect(end.data).to.deep.equal([]);
      expect(end.meta).to.include({ total: 7, next_cursor: null, prev_cursor: null });
    });

    it("counts exactly up to 10,000 and beyond says 10,000 as a lower bound, while every page is still served", async () => {
      const { brand } = await createBrand(stack.api.db, { slug: "dash-products-cap", name: "Dashboard Cap Brand", uidPrefix: "DPC" });
      // 10,001 products, oldest first, written as an import would (no passports).
      await stack.api.db.raw(
        `INSERT INTO app.products (brand_id, uid, sku, name, category, fabric_type, price, description, country_of_manufacture,
                                   carbon_kg, carbon_rating, created_at, updated_at)
         SELECT ?, 'DPC-' || lpad(upper(to_hex(k)), 10, '0'), 'CAP-' || k, CASE WHEN k % 2 = 0 THEN 'Cap Hoodie ' ELSE 'Cap Tee ' END || k,
                CASE WHEN k % 2 = 0 THEN 'hoodie' ELSE 't-shirt' END, 'cotton', 100, 'A bulk product.', 'BD', 2.5, 'B',
                now() - interval '1 minute' * (10002 - k), now()
           FROM generate_series(1, 10001) k`,
        [brand.id],
      );
      const capClient = await dashboardClient(stack.api.url, stack.api.db, brand.id, "viewer");
      const list = async (query: string) => json(await capClient.call(`/api/dashboard/products?${query}`));
      const all = await list("per_page=25");
      expect(all.meta).to.include({ page: 1, per_page: 25, total: 10_000, total_is_lower_bound: true, prev_cursor: null });
      expect(all.data[0].sku).to.equal("CAP-10001");
      // The last page, past the 10,000 counted, is served: the oldest product.
      const last = await list("per_page=25&page=401");
      expect(last.data.map((p: { sku: string }) => p.sku)).to.deep.equal(["CAP-1"]);
      // Under the cap the count is exact again: half are hoodies, and a search narrows further.
      expect((await list("category=hoodie")).meta).to.include({ total: 5_000, total_is_lower_bound: false });
      expect((await list("q=cap%20hoodie%201000")).meta).to.include({ total: 2, total_is_lower_bound: false });
      // A count of 1,000 or more is kept for the next pages a few seconds; a smaller one is taken on every request.
      const another = (sku: string, name: string) =>
        stack.api.db("app.products").insert({ brand_id: brand.id, uid: `DPC-${sku}`, sku, name, category: "hoodie", fabric_type: "cotton", price: 100, description: "One more.", country_of_manufacture: "BD", carbon_kg: 2.5, carbon_rating: "B" });
      const countedAt = Date.now();
      expect((await list("category=hoodie")).meta.total).to.equal(5_000);
      await another("CAP-X1", "Cap Hoodie 1000 again");
      expect((await list("q=cap%20hoodie%201000")).meta.total).to.equal(3);
      const kept = (await list("category=hoodie&page=2")).meta.total;
      // (Unless this machine took the whole time to live over the three requests.)
      if (Date.now() - countedAt < COUNT_TTL_MS) expect(kept).to.equal(5_000);
      await new Promise((resolve) => setTimeout(resolve, COUNT_TTL_MS + 100));
      expect((await list("category=hoodie&page=3")).meta.total).to.equal(5_001);
      // Filters by passport state count the brand's own passports: other brands' verified ones are not this brand's.
      expect((await list("status=verified")).meta).to.include({ total: 0, total_is_lower_bound: false });
      expect((await list("status=unissued")).meta).to.include({ total: 10_000, total_is_lower_bound: true });
    });
  });

  describe("roles, CSRF and brands", () => {
    it("refuses a viewer's issuance even sent by hand with the CSRF token, and a write without the token", async () => {
      const uid = await create();
      const used = async () => Number((await stack.api.db("app.usage_monthly").where({ brand_id: brandId, meter: "certs" }).sum({ n: "count" }).first())?.n ?? 0);
      const before = await used();
      const byViewer = await fetch(`${stack.api.url}/api/dashboard/products/${uid}/certificate`, { method: "POST", headers: { Cookie: viewer.cookie, "X-CSRF-Token": viewer.csrf } });
      expect(byViewer.status).to.equal(403);
      expect((await json(byViewer)).error.code).to.equal("FORBIDDEN");
      const noToken = await fetch(`${stack.api.url}/api/dashboard/products/${uid}/certificate`, { method: "POST", headers: { Cookie: editor.cookie } });
      expect(noToken.status).to.equal(403);
      expect((await json(noToken)).error.code).to.equal("CSRF_FAILED");
      const crossSite = await fetch(`${stack.api.url}/api/dashboard/products/${uid}`, {
        method: "PATCH",
        headers: { Cookie: editor.cookie, "X-CSRF-Token": editor.csrf, Origin: "https://evil.example", "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Hijacked" }),
      });
      expect((await json(crossSite)).error.code).to.equal("CSRF_FAILED");
      for (const [path, body] of [[`/api/dashboard/products/${uid}/tag`, { tag_uid: "04AABBCCDDEEFF" }], [`/api/dashboard/products/${uid}/status`, { status: "lost" }]] as const) {
        expect((await post(viewer, path, body)).status, path).to.equal(403);
      }
      expect((await patch(viewer, `/api/dashboard/products/${uid}`, { name: "Viewer edit" })).status).to.equal(403);
      expect(await stack.api.db("app.passports").join("app.products", "app.products.id", "app.passports.product_id").where("app.products.uid", uid)).to.have.length(0);
      expect(await used()).to.equal(before);
      expect((await detailOf(uid)).name).to.equal(tee.name);
    });

    it("answers 404 for another brand's product on every route", async () => {
      const uid = await create();
      expect((await stranger.call(`/api/dashboard/products/${uid}`)).status).to.equal(404);
      expect((await patch(stranger, `/api/dashboard/products/${uid}`, { name: "Not yours" })).status).to.equal(404);
      expect((await post(stranger, `/api/dashboard/products/${uid}/certificate`)).status).to.equal(404);
      expect((await post(stranger, `/api/dashboard/products/${uid}/tag`, { tag_uid: "04AABBCCDDEE01" })).status).to.equal(404);
      expect((await post(stranger, `/api/dashboard/products/${uid}/status`, { status: "lost" })).status).to.equal(404);
      expect((await stranger.call(`/api/dashboard/scans?uid=${uid}`)).status).to.equal(404);
      expect((await json(await stranger.call(`/api/dashboard/products?q=${uid}`))).meta.total).to.equal(0);
      expect((await detailOf(uid)).name).to.equal(tee.name);
    });
  });

  describe("certificate", () => {
    it("mints once, counts one certificate, and shows verified once indexed", async function () {
      this.timeout(120_000);
      const uid = await create();
      const usage = async () => (await json(await owner.call("/api/dashboard/overview"))).data.meters.certs.used as number;
      const before = await usage();
      const first = await post(editor, `/api/dashboard/products/${uid}/certificate`);
      expect(first.status).to.equal(202);
      const cert = (await json(first)).data;
      expect(cert).to.include({ uid, status: "minted", token_id: tokenIdOf(uid), certificate_url: `${stack.api.url}/dpp-certificate/${uid}`, pdf_url: `${stack.api.url}/certificates/${uid}.pdf` });
      expect(cert.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
      expect(cert.explorer_url).to.include(cert.tx_hash);
      const again = await post(owner, `/api/dashboard/products/${uid}/certificate`);
      expect(again.status).to.equal(200);
      expect((await json(again)).data.tx_hash).to.equal(cert.tx_hash);
      expect(await usage()).to.equal(before + 1);
      expect(await audit("certificate.issued", uid)).to.have.length(1);

      await waitForIndexer(stack);
      const detail = await waitFor("the passport to be verified", async () => {
        const d = await detailOf(uid);
        return d.passport_status === "verified" ? d : undefined;
      }, 60_000, 200);
      expect(detail).to.include({ chain_status: "active", tx_hash: cert.tx_hash });
      expect(detail.versions).to.deep.equal([
        { version: 1, data_hash: detail.passport.blockchain.data_hash, tx_hash: cert.tx_hash, explorer_url: cert.explorer_url, at: detail.versions[0].at, kind: "mint", status: "anchored" },
      ]);
      const verified = await json(await editor.call(`/api/dashboard/products?q=${uid}&status=verified`));
      expect(verified.data.map((p: { uid: string }) => p.uid)).to.deep.equal([uid]);
      expect(verified.data[0]).to.include({ passport_status: "verified", chain_status: "active", tx_hash: cert.tx_hash });
      expect((await json(await editor.call(`/api/dashboard/products?q=${uid}&status=unissued`))).meta.total).to.equal(0);
      expect((await json(await editor.call(`/api/dashboard/products?q=${uid}&status=pending`))).meta.total).to.equal(0);
      // Without a word to search, the state filters count and page the brand's passports alone (issuance ledger).
      const allVerified = await json(await editor.call("/api/dashboard/products?status=verified"));
      expect(allVerified.data.map((p: { uid: string }) => p.uid)).to.include(uid);
      expect(allVerified.data.every((p: { passport_status: string }) => p.passport_status === "verified")).to.equal(true);
      expect(allVerified.meta.total).to.be.at.least(1);
      const pending = await json(await editor.call("/api/dashboard/products?status=pending"));
      expect(pending.data.map((p: { uid: string }) => p.uid)).to.not.include(uid);
    });
  });

  describe("edits", () => {
    it("saves an unissued product's edit without the chain", async () => {
      const uid = await create();
      const res = await patch(editor, `/api/dashboard/products/${uid}`, { name: "Renamed Tee", category: "polo", fiber_composition: [{ fiber: "cotton", percent: 95 }, { fiber: "elastane", percent: 5 }] });
      expect(res.status).to.equal(200);
      const data = (await json(res)).data;
      expect(data).to.include({ name: "Renamed Tee", category: "polo" });
      expect(data.versions).to.deep.equal([]);
      expect(data.passport.content.provenance.fiber_composition).to.equal("declared");
      // The care text followed the category: it was the t-shirt default, now the polo one.
      expect(data.care_instructions).to.match(/^Machine wash at 30 °C with similar colours\. Do not bleach\. Tumble dry low\./);
      expect((await audit("product.updated", uid))[0].details.fields).to.include.members(["name", "category", "fiber_composition", "care_instructions"]);
      const invalid = await patch(editor, `/api/dashboard/products/${uid}`, { fiber_composition: [{ fiber: "cotton", percent: 90 }] });
      expect((await json(invalid)).error.details).to.deep.equal([{ field: "fiber_composition", problem: "percentages must sum to 100 (got 90)" }]);
      expect((await patch(editor, `/api/dashboard/products/${uid}`, {})).status).to.equal(422);
      expect((await patch(editor, `/api/dashboard/products/${uid}`, { factory_id: 1001 })).status).to.equal(422);
    });

    it("anchors an issued product's new content on chain and shows the new version", async function () {
      this.timeout(120_000);
      const uid = await issued();
      const minted = await chainHash(uid);
      const res = await patch(editor, `/api/dashboard/products/${uid}`, { name: "Organic Tee, relabelled", care_instructions: "Hand wash cold." });
      expect(res.status, await res.clone().text()).to.equal(200);
      const data = (await json(res)).data;
      expect(data).to.include({ name: "Organic Tee, relabelled", care_instructions: "Hand wash cold." });
      expect(data.versions.map((v: { version: number; kind: string; status: string }) => [v.version, v.kind, v.status])).to.deep.equal([[1, "mint", "anchored"], [2, "update", "anchored"]]);
      const update = data.versions[1];
      expect(update.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
      // What the chain holds is the hash of the content the API serves now.
      expect(update.data_hash).to.equal(dataHashOf(data.passport.content));
      expect(await chainHash(uid)).to.equal(update.data_hash);
      expect(update.data_hash).to.not.equal(minted);
      expect((await audit("product.updated", uid)).at(-1).details).to.include({ data_hash: update.data_hash, tx_hash: update.tx_hash });

      // The indexer records the DataHashUpdated event, and the public record then matches again.
      await waitForIndexer(stack);
      const record = await waitFor("the public record to show the new hash", async () => {
        const r = await json(await fetch(`${stack.api.url}/api/dpp/${uid}`));
        return r.blockchain.data_hash === update.data_hash ? r : undefined;
      }, 30_000, 200);
      expect(record.blockchain.data_hash_matches).to.equal(true);
      expect(record.content.product.name).to.equal("Organic Tee, relabelled");
      const indexed = await stack.api.db.withSchema(stack.api.config.onchainSchema).from("data_hash_update").where("token_id", tokenIdOf(uid)).select("tx_hash", "new_hash");
      expect(indexed).to.deep.equal([{ tx_hash: update.tx_hash, new_hash: update.data_hash }]);

      // Price is not anchored: changing it needs no transaction and makes no version.
      const priced = (await json(await patch(editor, `/api/dashboard/products/${uid}`, { price: 990 }))).data;
      expect(priced.price).to.equal(990);
      expect(priced.versions).to.have.length(2);
      expect(await chainHash(uid)).to.equal(update.data_hash);
    });

    it("serialises concurrent edits of one product: one is anchored, the other refused, content and chain agree", async function () {
      this.timeout(120_000);
      const uid = await issued();
      const answers = await Promise.all(["Concurrent A", "Concurrent B"].map((name) => patch(editor, `/api/dashboard/products/${uid}`, { name })));
      const statuses = answers.map((r) => r.status);
      expect([...statuses].sort()).to.deep.equal([200, 409]);
      const winner = statuses[0] === 200 ? "Concurrent A" : "Concurrent B";
      const refused = await json(answers[statuses.indexOf(409)]!);
      expect(refused.error.code).to.equal("CONFLICT");
      const data = await detailOf(uid);
      expect(data.name).to.equal(winner);
      expect(data.versions).to.have.length(2);
      expect(await chainHash(uid)).to.equal(dataHashOf(data.passport.content));
    });

    it("saves nothing when the chain refuses the update, and says so", async function () {
      this.timeout(120_000);
      const uid = await issued();
      const before = await detailOf(uid);
      const admin = new Wallet(ADMIN_KEY, stack.contracts.passport.runner!.provider);
      const passport = stack.contracts.passport.connect(admin);
      const role = await passport.MINTER_ROLE();
      await (await passport.revokeRole(role, stack.wallet.address)).wait();
      let res: Response;
      try {
        res = await patch(editor, `/api/dashboard/products/${uid}`, { name: "Never anchored" });
      } finally {
        await (await passport.grantRole(role, stack.wallet.address)).wait();
      }
      expect(res.status).to.equal(503);
      expect((await json(res)).error.message).to.include("nothing was changed");
      const after = await detailOf(uid);
      expect(after.name).to.equal(before.name);
      expect(after.versions).to.deep.equal(before.versions);
      expect(await chainHash(uid)).to.equal(dataHashOf(after.passport.content));
      // With the role back, the same edit goes through.
      const retried = await patch(editor, `/api/dashboard/products/${uid}`, { name: "Never anchored" });
      expect(retried.status).to.equal(200);
      expect((await json(retried)).data.versions).to.have.length(2);
    });

    it("keeps an edit whose receipt comes late pending, then applies it once the chain confirms it", async function () {
      this.timeout(240_000);
      const uid = await issued();
      const anchored = await chainHash(uid);
      const provider = stack.wallet.wallet.provider as JsonRpcProvider;
      // Stop mining: the transaction is sent, and no receipt comes within the request's wait.
      await provider.send("evm_setAutomine", [false]);
      await provider.send("evm_setIntervalMining", [0]);
      let res: Response;
      try {
        res = await patch(editor, `/api/dashboard/products/${uid}`, { description: "Sent while the chain stalled" });
        expect(res.status).to.equal(503);
        const message = (await json(res)).error.message as string;
        expect(message).to.match(/sent in transaction 0x[0-9a-f]{64} but the chain has not confirmed it yet/);
        // Meanwhile the product keeps the content the chain holds, the version shows as pending, and a second edit waits.
        const pending = await detailOf(uid);
        expect(pending.description).to.equal(tee.description);
        expect(dataHashOf(pending.passport.content)).to.equal(anchored);
        expect(pending.versions.map((v: { status: string }) => v.status)).to.deep.equal(["anchored", "pending"]);
        expect(message).to.include(pending.versions[1].tx_hash);
        const second = await patch(editor, `/api/dashboard/products/${uid}`, { name: "While pending" });
        expect(second.status).to.equal(409);
      } finally {
        await provider.send("evm_setAutomine", [true]);
        await provider.send("evm_setIntervalMining", [1000]);
      }
      const settled = await waitFor("the late version to be applied", async () => {
        const d = await detailOf(uid);
        return d.versions[1]?.status === "anchored" ? d : undefined;
      }, 60_000, 500);
      expect(settled.description).to.equal("Sent while the chain stalled");
      expect(await chainHash(uid)).to.equal(dataHashOf(settled.passport.content));
      expect(settled.versions[1].data_hash).to.equal(await chainHash(uid));
    });
  });

  describe("NFC tag", () => {
    let receiver: WebhookReceiver;
    let receiverUrl: string;
    let received: Delivery[] = [];

    before(async () => {
      receiver = await startWebhookReceiver();
      received = receiver.received;
      receiverUrl = `${receiver.url}/dashboard`;
    });
    after(async () => {
            await receiver?.close();
    });

    it("assigns a tag on chain, refuses it on another product, and tag.assigned reaches the dashboard webhook", async function () {
      this.timeout(180_000);
      const { signingSecret } = await setDashboardWebhook({ db: stack.api.db, config: stack.api.config }, brandId, receiverUrl);
      const unissued = await create();
      const tagUid = randomBytes(7).toString("hex");
      const early = await post(editor, `/api/dashboard/products/${unissued}/tag`, { tag_uid: tagUid });
      expect(early.status).to.equal(409);

      const uid = await issued();
      const res = await post(editor, `/api/dashboard/products/${uid}/tag`, { tag_uid: tagUid });
      expect(res.status, await res.clone().text()).to.equal(200);
      const tag = (await json(res)).data;
      const tagHash = keccak256(toUtf8Bytes(tagUid.toUpperCase()));
      expect(tag.tag_hash).to.equal(tagHash);
      expect(tag.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
      expect(String(await stack.contracts.passport.passportOfTag(tagHash))).to.equal(tokenIdOf(uid));
      expect(await audit("tag.assigned", uid)).to.have.length(1);

      const other = await issued();
      const taken = await post(editor, `/api/dashboard/products/${other}/tag`, { tag_uid: tagUid.toUpperCase() });
      expect(taken.status).to.equal(409);
      expect((await json(taken)).error.message).to.equal("This tag is assigned to another product.");
      const again = await post(editor, `/api/dashboard/products/${uid}/tag`, { tag_uid: tagUid });
      expect((await json(again)).error.message).to.equal("This tag is assigned to this product already.");
      expect((await post(editor, `/api/dashboard/products/${uid}/tag`, { tag_uid: "XYZ" })).status).to.equal(422);

      const detail = await detailOf(uid);
      expect(detail.tag).to.deep.equal({ tag_hash: tagHash, tx_hash: tag.tx_hash, explorer_url: tag.explorer_url });
      expect(detail.tag_assigned).to.equal(true);
      expect((await json(await editor.call(`/api/dashboard/products?q=${uid}`))).data[0].tag_assigned).to.equal(true);

      await waitForIndexer(stack);
      const dispatcher = new Dispatcher({ config: stack.api.config, db: stack.api.db, logger: createLogger("silent"), pollIntervalMs: 100, watchIntervalMs: 200 });
      dispatcher.start();
      try {
        await waitFor("tag.assigned at the dashboard receiver", async () => (received.some((r) => r.payload.event === "tag.assigned" && r.payload.uid === uid) ? true : undefined), 120_000, 100);
      } finally {
        await dispatcher.stop(2000);
      }
      const delivered = received.find((r) => r.payload.event === "tag.assigned" && r.payload.uid === uid)!;
      expect(delivered.payload).to.include({ uid, token_id: tokenIdOf(uid), tag_hash: tagHash, tx_hash: tag.tx_hash });
      expect(new Webhook(signingSecret!).verify(delivered.body, delivered.headers)).to.deep.equal(delivered.payload);
    });
  });

  describe("lost, stolen, recovered", () => {
    it("follows the contract's transitions and shows the status on chain", async function () {
      this.timeout(120_000);
      const uid = await issued();
      const set = (status: string) => post(owner, `/api/dashboard/products/${uid}/status`, { status });
      expect((await json(await set("active"))).error.message).to.equal("Only a passport marked lost or stolen can be recovered.");
      const lost = await set("lost");
      expect(lost.status).to.equal(200);
      expect((await json(lost)).data).to.include({ status: "lost" });
      const lostAgain = await set("lost");
      expect(lostAgain.status).to.equal(409);
      const stolen = (await json(await set("stolen"))).data;
      expect(stolen.status).to.equal("stolen");
      expect(stolen.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
      expect(Number(await stack.contracts.passport.statusOf(tokenIdOf(uid)))).to.equal(2);

      await waitForIndexer(stack);
      const listed = await waitFor("the stolen filter to list it", async () => {
        const page = await json(await viewer.call(`/api/dashboard/products?status=stolen&q=${uid}`));
        return page.meta.total === 1 ? page.data[0] : undefined;
      }, 30_000, 200);
      expect(listed).to.include({ uid, chain_status: "stolen" });

      expect((await json(await set("active"))).data.status).to.equal("recovered");
      expect((await set("active")).status).to.equal(409);
      expect(Number(await stack.contracts.passport.statusOf(tokenIdOf(uid)))).to.equal(3);
      expect((await audit("product.status_changed", uid)).map((a) => [a.details.from, a.details.to])).to.deep.equal([
        ["active", "lost"],
        ["lost", "stolen"],
        ["stolen", "recovered"],
      ]);
      expect((await post(owner, `/api/dashboard/products/${await create()}/status`, { status: "lost" })).status).to.equal(409);
      expect((await post(owner, `/api/dashboard/products/${uid}/status`, { status: "recovered" })).status).to.equal(422);
    });
  });

  describe("scans and overview", () => {
    it("lists scans per day and per product", async function () {
      this.timeout(60_000);
      const uid = await issued();
      await waitForIndexer(stack);
      expect((await fetch(`${stack.api.url}/scan/${uid}`)).status).to.equal(200);
      const scans = await waitFor("the scan to be recorded", async () => {
        const body = await json(await viewer.call(`/api/dashboard/scans?uid=${uid}`));
        return body.meta.total >= 1 ? body : undefined;
      }, 30_000, 100);
      expect(scans.data.daily).to.have.length(30);
      const today = new Date().toISOString().slice(0, 10);
      expect(scans.data.daily.at(-1)).to.deep.equal({ date: today, scans: scans.meta.total });
      expect(scans.data.items[0]).to.include({ uid, product_name: tee.name });
      expect(scans.data.items[0].verified).to.be.a("boolean");
      const brandWide = await json(await viewer.call("/api/dashboard/scans?days=7&per_page=1"));
      expect(brandWide.data.daily).to.have.length(7);
      expect(brandWide.meta.total).to.be.at.least(1);
      expect(brandWide.data.items).to.have.length(1);
      expect((await json(await stranger.call("/api/dashboard/scans"))).meta.total).to.equal(0);
      for (const bad of ["days=0", "days=366", "uid=nope"]) expect((await viewer.call(`/api/dashboard/scans?${bad}`)).status, bad).to.equal(422);
    });

    it("shows this month against the plan, 30 days of scans and certificates, products and recent activity", async () => {
      const overview = (await json(await viewer.call("/api/dashboard/overview"))).data;
      const today = new Date().toISOString().slice(0, 10);
      expect(overview.period).to.equal(today.slice(0, 7));
      expect(overview.plan).to.deep.equal({ name: "growth", tier: 2, title: "Growth" });
      expect(overview.meters.certs.limit).to.equal(5000);
      expect(overview.meters.api_calls.limit).to.equal(10_000);
      expect(overview.meters.carbon_ratings.limit).to.equal(null);
      const certified = await stack.api.db("app.passports as x").join("app.products as p", "p.id", "x.product_id").where({ "p.brand_id": brandId, "x.status": "minted" }).count({ n: "*" }).first();
      expect(overview.meters.certs.used).to.equal(Number(certified!.n));
      expect(overview.products.certified).to.equal(Number(certified!.n));
      expect(overview.daily).to.have.length(30);
      expect(overview.daily.at(-1)).to.include({ date: today, certificates: Number(certified!.n) });
      expect(overview.daily.at(-1).scans).to.be.at.least(1);
      expect(overview.recent_activity).to.have.length(10);
      const ids = overview.recent_activity.map((e: { id: string }) => Number(e.id));
      expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
      const stranger_ = (await json(await stranger.call("/api/dashboard/overview"))).data;
      expect(stranger_.products).to.deep.equal({ total: 0, certified: 0 });
      // Only its own team's entry (its owner was created for this test), nothing of brand A's.
      expect(stranger_.recent_activity.map((e: { action: string }) => e.action)).to.deep.equal(["team.created"]);
    });
  });

  // In a describe of its own, so mocha runs it after the others (an `it` at this level would run first).
  describe("the OpenAPI document", () => {
    it("describes every answer given above", async () => {
      expect(departures.length).to.be.greaterThan(50);
      expect((await Promise.all(departures)).flat()).to.deep.equal([]);
    });
  });
});
