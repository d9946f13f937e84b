// The dashboard's overview by role (Postgres, no chain): the brand-wide overview (meters, products, the brand's
// recent activity) is refused to a cashier by the server; a cashier's overview is the till, the Cash QR orders of
// their own brand waiting for cash, and nothing else.
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
    // The session tells the app so: the cashier's role lacks overview.read, the others hold it.
    const permissions = async (client: DashboardClient) => (await json(await client.call("/api/dashboard/session"))).data.permissions as string[];
    expect(await permissions(cashier)).to.include("orders.confirm").and.not.include("overview.read");
    expect(await permissions(viewer)).to.include("overview.read");
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
