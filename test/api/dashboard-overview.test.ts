// The dashboard's overview by role (Postgres, no chain): the brand-wide overview (meters, products, the brand's
// recent activity) is refused to a cashier by the server; a cashier's overview is the till, the Cash QR orders of
// their own brand waiting for cash, and nothing else: every other brand-wide read (products, scans, NFC taps and tags,
// orders, branding, domain, plan and usage, imports, the archive) is refused to them too, while the till, Cash QR
// confirmation and their own account (session, password, sign out) stay theirs.
import { expect } from "chai";
import type { InProcessApi } from "../../scripts/lib/api-process";
import { OpenApiContract } from "../support/contract";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { insertProduct, placed, sellingBrand, setUpMethod, startOrdersApi, type SellingBrand } from "../support/orders";

describe("dashboard: the overview a role is sent (Postgres)", () => {
  let api: InProcessApi;
  let contract: OpenApiContract;
  let brand: SellingBrand;
  let other: SellingBrand;
  let cashier: DashboardClient;
  let viewer: DashboardClient;
  let editor: DashboardClient;

  const conforms = async (method: string, path: string, res: Response) => {
    const problems = await contract.check(method, path, res.clone());
    expect(problems, problems.join("\n")).to.deep.equal([]);
  };
  const tokenOf = (confirmUrl: string) => new URL(confirmUrl).hash.replace(/^#t=/, "");

  before(async function () {
    this.timeout(60_000);
    api = await startOrdersApi("dash_overview");
    contract = await OpenApiContract.load(api.url);
    brand = await sellingBrand(api, "till-a", "starter");
    other = await sellingBrand(api, "till-b", "starter");
    await setUpMethod(brand, "cash_qr");
    await setUpMethod(other, "cash_qr");
    cashier = await dashboardClient(api.url, api.db, brand.id, "cashier");
    viewer = await dashboardClient(api.url, api.db, brand.id, "viewer");
    editor = await dashboardClient(api.url, api.db, brand.id, "editor");
  });
  after(async () => {
    await api?.close();
  });

  it("sends the brand-wide overview to the brand's other roles, and refuses it to a cashier (403) without any of it", async () => {
    for (const client of [brand.owner, editor, viewer]) {
      const res = await client.call("/api/dashboard/overview");
      expect(res.status, `${client.role}: ${await res.clone().text()}`).to.equal(200);
      await conforms("GET", "/api/dashboard/overview", res);
      // The owner's Gateway keys setting is among the brand's recent activity, which a cashier must not read.
      expect((await json(res)).data.recent_activity.length, client.role).to.be.greaterThan(0);
    }
    const refused = await cashier.call("/api/dashboard/overview");
    expect(refused.status).to.equal(403);
    await conforms("GET", "/api/dashboard/overview", refused);
    const body = await json(refused);
    expect(body.error.code).to.equal("FORBIDDEN");
    expect(body).not.to.have.property("data");
    expect(JSON.stringify(body)).not.to.match(/recent_activity|meters|gateway/i);
    // The session tells the app so: the cashier's role lacks dashboard.read, the others hold it.
    const permissions = async (client: DashboardClient) => (await json(await client.call("/api/dashboard/session"))).data.permissions as string[];
    expect(await permissions(cashier)).to.include("orders.confirm").and.include("account.own").and.not.include("dashboard.read");
    expect(await permissions(viewer)).to.include("dashboard.read");
  });

  it("refuses a cashier every brand-wide read (403 FORBIDDEN, nothing of it), each of which a viewer of the brand is answered", async () => {
    const uid = await insertProduct(api.db, brand.id, "350.00", "BDT", "Nakshi Kantha Cushion");
    const order = await placed(api, { uid, method: "cash_qr" });
    // Every read behind the screens a cashier must not see: Overview's figures, Products, Imports, Scans, NFC taps and
    // tags, Orders, Branding, Domain, Plan and usage, the archive. A viewer is answered each (404: no such import).
    const brandWide: Array<{ path: string; method?: "POST"; json?: unknown; viewer: number }> = [
      { path: "/api/dashboard/overview", viewer: 200 },
      { path: "/api/dashboard/products", viewer: 200 },
      { path: `/api/dashboard/products/${uid}`, viewer: 200 },
      { path: "/api/dashboard/imports/template.csv", viewer: 200 },
      { path: "/api/dashboard/imports/1", viewer: 404 },
      { path: "/api/dashboard/imports/1/errors.csv", viewer: 404 },
      { path: "/api/dashboard/scans", viewer: 200 },
      { path: "/api/dashboard/taps/analytics", viewer: 200 },
      { path: "/api/dashboard/tags", viewer: 200 },
      { path: "/api/dashboard/orders", viewer: 200 },
      { path: `/api/dashboard/orders/${order.order_id}`, viewer: 200 },
      { path: "/api/dashboard/branding", viewer: 200 },
      { path: "/api/dashboard/branding/preview", method: "POST", json: { tagline: "Preview" }, viewer: 200 },
      { path: "/api/dashboard/domain", viewer: 200 },
      { path: "/api/dashboard/usage", viewer: 200 },
      { path: "/api/dashboard/archive", viewer: 200 },
    ];
    const answered: string[] = [];
    for (const { path, method, json: body, viewer: status } of brandWide) {
      const asked = (client: DashboardClient) => client.call(path, method ? { method, json: body } : {});
      const seen = await asked(viewer);
      expect(seen.status, `viewer ${path}: ${seen.headers.get("content-type")?.includes("json") ? await seen.clone().text() : ""}`).to.equal(status);
      await seen.body?.cancel();
      const refused = await asked(cashier);
      answered.push(`${method ?? "GET"} ${path} ${refused.status}`);
      if (refused.status !== 403) {
        await refused.body?.cancel();
        continue;
      }
      await conforms(method ?? "GET", path, refused);
      const error = await json(refused);
      expect(error.error.code, path).to.equal("FORBIDDEN");
      expect(error, path).not.to.have.property("data");
    }
    expect(answered).to.deep.equal(brandWide.map(({ path, method }) => `${method ?? "GET"} ${path} 403`));
  });

  it("answers a cashier no read of the dashboard's API but their session and the till: every other GET in the OpenAPI document is 403", async () => {
    const uid = await insertProduct(api.db, brand.id, "120.00", "BDT", "Till Sweep Tote");
    const order = await placed(api, { uid, method: "cash_qr" });
    const document = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
    const samples: Record<string, string> = { uid, order_id: order.order_id, id: "1", method: "cash_qr" };
    const cashiers = new Set(["GET /api/dashboard/session", "GET /api/dashboard/cashier/till"]);
    const reads = Object.entries(document.paths).flatMap(([template, item]) =>
      item.get?.security?.some((scheme) => "session" in scheme) ? [`GET ${template}`] : [],
    );
    expect(reads).to.include.members([...cashiers, "GET /api/dashboard/overview", "GET /api/dashboard/usage"]);
    const opened: string[] = [];
    for (const read of reads) {
      const path = read.slice(4).replace(/\{([a-z_]+)\}/g, (_, name: string) => {
        expect(samples, `a sample value for {${name}} in ${read}`).to.have.property(name);
        return samples[name]!;
      });
      const res = await cashier.call(path);
      await res.body?.cancel();
      if (res.status !== 403) opened.push(`${read} ${res.status}`);
    }
    expect(opened.sort()).to.deep.equal([...cashiers].map((read) => `${read} 200`).sort());
  });

  it("keeps a cashier's own account theirs: changing their password and signing out everywhere", async () => {
    const own = await dashboardClient(api.url, api.db, brand.id, "cashier");
    const changed = await own.call("/api/dashboard/password", { method: "POST", json: { current_password: own.password, password: "a new till password" } });
    expect(changed.status, await changed.clone().text()).to.equal(204);
    const out = await own.call("/api/dashboard/session", { method: "DELETE", json: { everywhere: true } });
    expect(out.status, await out.clone().text()).to.equal(204);
    expect((await own.call("/api/dashboard/session")).status).to.equal(401);
  });

  it("shows a cashier the brand's Cash QR orders waiting for cash (product, amount, expiry), never another brand's, and drops one once confirmed", async () => {
    const uid = await insertProduct(api.db, brand.id, "790.00", "BDT", "Jamdani Scarf");
    const otherUid = await insertProduct(api.db, other.id, "450.00", "BDT", "Other Brand Cap");
    const waiting = await placed(api, { uid, method: "cash_qr" });
    const elsewhere = await placed(api, { uid: otherUid, method: "cash_qr" });

    const till = async () => {
      const res = await cashier.call("/api/dashboard/cashier/till");
      expect(res.status, await res.clone().text()).to.equal(200);
      await conforms("GET", "/api/dashboard/cashier/till", res);
      return (await json(res)).data.waiting as Array<Record<string, string>>;
    };
    const shown = await till();
    const ids = shown.map((order) => order.order_id);
    expect(ids).to.include(waiting.order_id).and.not.include(elsewhere.order_id);
    const entry = shown.find((order) => order.order_id === waiting.order_id)!;
    expect(entry).to.include({ uid, product_name: "Jamdani Scarf", amount: "790.00", currency: "BDT" });
    expect(Date.parse(entry.expires_at)).to.be.greaterThan(Date.now());
    // Nothing of the shopper: no contact, no secret, no confirmation token.
    expect(Object.keys(entry).sort()).to.deep.equal(["amount", "created_at", "currency", "expires_at", "order_id", "product_name", "uid"]);

    const confirmed = await cashier.call("/api/dashboard/cashier/confirm", { method: "POST", json: { order_id: waiting.order_id, token: tokenOf(waiting.next.confirm_url) } });
    expect(confirmed.status).to.equal(200);
    expect((await till()).map((order) => order.order_id)).not.to.include(waiting.order_id);

    // An order past its expiry, not yet swept by the reconciliation job, is not shown as due.
    const late = await placed(api, { uid, method: "cash_qr" });
    await api.db("app.orders").where({ id: late.order_id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await till()).map((order) => order.order_id)).not.to.include(late.order_id);
  });

  it("refuses the till to a role that does not take cash (viewer, editor)", async () => {
    for (const client of [viewer, editor]) {
      const res = await client.call("/api/dashboard/cashier/till");
      expect(res.status, client.role).to.equal(403);
    }
  });
});
