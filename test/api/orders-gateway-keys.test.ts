// Gateway Keys (issue 13): a brand's gateway credentials are checked with the gateway before they are kept, kept
// encrypted (bound to the brand and method), shown again only as masked hints, and audited without values; the plan
// decides which methods a brand may set up and, after a downgrade, which the scan page still offers.
import { expect } from "chai";
import { gatewaySetup } from "../../api/src/orders/gateway-keys";
import { availableMethods } from "../../api/src/orders/service";
import type { InProcessApi } from "../../scripts/lib/api-process";
import { startPaymentSims, type PaymentSims } from "../../scripts/lib/payment-sims";
import { OpenApiContract } from "../support/contract";
import { dashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { insertProduct, placeOrder, sellingBrand, setUpMethod, startOrdersApi, type SellingBrand } from "../support/orders";

type MethodView = { method: string; allowed_by_plan: boolean; configured: boolean; enabled: boolean; fields: Array<{ name: string; secret: boolean; hint: string | null }> };

describe("Orders: Gateway Keys and plan gating (Postgres)", () => {
  let sims: PaymentSims;
  let api: InProcessApi;
  let contract: OpenApiContract;
  let growth: SellingBrand;
  let starter: SellingBrand;

  const put = (brand: SellingBrand, method: string, body: unknown) => brand.owner.call(`/api/dashboard/gateway-keys/${method}`, { method: "PUT", json: body });
  const methodsOf = async (res: Response): Promise<Record<string, MethodView>> => Object.fromEntries(((await json(res)).data.methods as MethodView[]).map((m) => [m.method, m]));
  const conforms = async (method: string, path: string, res: Response) => {
    const problems = await contract.check(method, path, res.clone());
    expect(problems, problems.join("\n")).to.deep.equal([]);
  };
  const row = (brandId: number, method: string) => api.db("app.gateway_credentials").where({ brand_id: brandId, method }).first<{ ciphertext: string | null; hints: Record<string, string>; enabled: boolean; checked_at: Date | null } | undefined>();

  before(async function () {
    this.timeout(60_000);
    sims = await startPaymentSims();
    api = await startOrdersApi("orders_keys", sims);
    contract = await OpenApiContract.load(api.url);
    growth = await sellingBrand(api, "keys-growth", "growth");
    starter = await sellingBrand(api, "keys-starter", "starter");
  });
  after(async () => {
    await api?.close();
    await sims?.stop();
  });

  it("lists every method with the plan's verdict and the gateway's fields, nothing set up yet; only owners and admins see it", async () => {
    const res = await starter.owner.call("/api/dashboard/gateway-keys");
    await conforms("GET", "/api/dashboard/gateway-keys", res);
    const methods = await methodsOf(res);
    expect(Object.keys(methods)).to.deep.equal(["bkash", "nagad", "sslcommerz", "cash_qr"]);
    expect(Object.values(methods).map((m) => m.allowed_by_plan)).to.deep.equal([true, true, false, true]);
    expect(Object.values(methods).every((m) => !m.configured && !m.enabled)).to.equal(true);
    expect(methods.bkash!.fields.map((f) => `${f.name}${f.secret ? "*" : ""}`)).to.deep.equal(["username", "password*", "app_key", "app_secret*"]);
    expect(methods.cash_qr!.fields).to.deep.equal([]);
    for (const role of ["editor", "cashier", "viewer"] as const) {
      const member = await dashboardClient(api.url, api.db, starter.id, role);
      expect((await member.call("/api/dashboard/gateway-keys")).status, role).to.equal(403);
      expect((await member.call("/api/dashboard/gateway-keys/cash_qr", { method: "PUT", json: { enabled: true } })).status, role).to.equal(403);
    }
  });

  it("checks keys with the gateway before keeping them: refused keys are 422 GATEWAY_KEYS_REJECTED and nothing is saved; an unreachable gateway is 502", async () => {
    const wrong = await put(growth, "bkash", { credentials: { ...sims.bkash.credentials, password: "not-the-password" }, enabled: true });
    expect(wrong.status).to.equal(422);
    await conforms("PUT", "/api/dashboard/gateway-keys/bkash", wrong);
    const body = await json(wrong);
    expect(body.error.code).to.equal("GATEWAY_KEYS_REJECTED");
    expect(body.error.message).to.match(/^bKash refused these keys: /);
    const wrongStore = await put(growth, "sslcommerz", { credentials: { ...sims.sslcommerz.credentials, store_passwd: "nope" }, enabled: true });
    expect((await json(wrongStore)).error.code).to.equal("GATEWAY_KEYS_REJECTED");
    expect(await row(growth.id, "bkash")).to.equal(undefined);
    expect(await row(growth.id, "sslcommerz")).to.equal(undefined);

    sims.bkash.control.failNext("503", 2);
    const down = await put(growth, "bkash", { credentials: { ...sims.bkash.credentials }, enabled: true });
    sims.bkash.control.reset();
    expect(down.status).to.equal(502);
    expect((await json(down)).error.code).to.equal("GATEWAY_UNAVAILABLE");
    expect(await row(growth.id, "bkash")).to.equal(undefined);

    for (const [credentials, field] of [
      [{ username: "u", password: "p", app_key: "k" }, "credentials.app_secret"],
      [{ ...sims.bkash.credentials, store_id: "x" }, "credentials.store_id"],
      [{ ...sims.bkash.credentials, password: "   " }, "credentials.password"],
    ] as const) {
      const res = await put(growth, "bkash", { credentials, enabled: true });
      expect(res.status).to.equal(422);
      expect((await json(res)).error.details.map((d: { field: string }) => d.field)).to.include(field);
    }
    expect((await json(await put(growth, "cash_qr", { credentials: {}, enabled: true }))).error.details[0].field).to.equal("credentials");
  });

  it("keeps accepted keys encrypted, bound to the brand and method, shown again only as hints; audited without values", async () => {
    const creds = sims.bkash.credentials;
    const saved = await put(growth, "bkash", { credentials: { ...creds }, enabled: true });
    expect(saved.status, await saved.clone().text()).to.equal(200);
    await conforms("PUT", "/api/dashboard/gateway-keys/bkash", saved);
    const bkash = (await methodsOf(saved)).bkash!;
    expect(bkash).to.include({ configured: true, enabled: true });
    const hints = Object.fromEntries(bkash.fields.map((f) => [f.name, f.hint]));
    expect(hints).to.deep.equal({ username: creds.username, password: `••••${creds.password!.slice(-4)}`, app_key: creds.app_key, app_secret: `••••${creds.app_secret!.slice(-4)}` });

    const stored = (await row(growth.id, "bkash"))!;
    expect(stored.checked_at).to.be.instanceOf(Date);
    expect(stored.ciphertext).to.match(/^v1\.[A-Za-z0-9+/=]+$/);
    for (const value of Object.values(creds)) {
      expect(stored.ciphertext).to.not.include(value);
      expect(Buffer.from(stored.ciphertext!.slice(3), "base64").toString("latin1")).to.not.include(value);
    }
    expect(await gatewaySetup({ db: api.db, config: api.config }, growth.id, "bkash")).to.deep.equal({ enabled: true, credentials: { ...creds } });
    // The same ciphertext on another brand's row does not decrypt: it is bound to its brand and method.
    await api.db("app.gateway_credentials").insert({ brand_id: starter.id, method: "bkash", ciphertext: stored.ciphertext, hints: "{}", enabled: true });
    let stolen: unknown;
    await gatewaySetup({ db: api.db, config: api.config }, starter.id, "bkash").catch((error: unknown) => (stolen = error));
    expect(stolen).to.be.instanceOf(Error);
    await api.db("app.gateway_credentials").where({ brand_id: starter.id, method: "bkash" }).delete();

    const audit = await api.db("app.audit_log").where({ brand_id: growth.id, action: "payments.keys_saved" }).select<Array<{ details: Record<string, unknown> }>>("details");
    expect(audit).to.have.length(1);
    const text = JSON.stringify(audit);
    for (const value of Object.values(creds)) expect(text).to.not.include(value);
    expect(audit[0]!.details).to.deep.equal({ enabled: true, fields: ["username", "password", "app_key", "app_secret"] });
  });

  it("switches a configured method off and on without its keys, removes keys, and turns sales on and off", async () => {
    const uid = await insertProduct(api.db, growth.id, "990.00");
    await setUpMethod(growth, "cash_qr");
    expect((await availableMethods({ db: api.db, config: api.config }, growth.id, { price: "990.00", currency: "BDT" })).map((m) => m.method)).to.deep.equal(["bkash", "cash_qr"]);

    const off = await put(growth, "bkash", { enabled: false });
    expect(off.status, await off.clone().text()).to.equal(200);
    expect((await methodsOf(off)).bkash).to.include({ configured: true, enabled: false });
    expect((await json(await placeOrder(api, { uid, method: "bkash" }))).error.code).to.equal("METHOD_UNAVAILABLE");
    expect((await placeOrder(api, { uid, method: "cash_qr" })).status).to.equal(201);
    expect((await methodsOf(await put(growth, "bkash", { enabled: true }))).bkash!.enabled).to.equal(true);
    expect((await placeOrder(api, { uid, method: "bkash" })).status).to.equal(201);

    const removed = await growth.owner.call("/api/dashboard/gateway-keys/bkash", { method: "DELETE" });
    await conforms("DELETE", "/api/dashboard/gateway-keys/bkash", removed);
    expect((await methodsOf(removed)).bkash).to.include({ configured: false, enabled: false });
    expect((await growth.owner.call("/api/dashboard/gateway-keys/bkash", { method: "DELETE" })).status).to.equal(404);
    expect((await put(growth, "bkash", { enabled: true })).status).to.equal(422);

    const salesOff = await growth.owner.call("/api/dashboard/sales", { method: "PUT", json: { enabled: false } });
    await conforms("PUT", "/api/dashboard/sales", salesOff);
    expect(await availableMethods({ db: api.db, config: api.config }, growth.id, { price: "990.00", currency: "BDT" })).to.deep.equal([]);
    await growth.owner.call("/api/dashboard/sales", { method: "PUT", json: { enabled: true } });
    expect(await availableMethods({ db: api.db, config: api.config }, growth.id, { price: "0.00", currency: "BDT" })).to.deep.equal([]);
  });

  it("gates methods by plan on the server: a Starter brand cannot set up SSLCommerz (403 PLAN_FEATURE); after a downgrade its keys stay but the method is no longer offered", async () => {
    const refused = await put(starter, "sslcommerz", { credentials: { ...sims.sslcommerz.credentials }, enabled: true });
    expect(refused.status).to.equal(403);
    await conforms("PUT", "/api/dashboard/gateway-keys/sslcommerz", refused);
    expect((await json(refused)).error.code).to.equal("PLAN_FEATURE");
    expect(await row(starter.id, "sslcommerz")).to.equal(undefined);

    await setUpMethod(growth, "sslcommerz", { ...sims.sslcommerz.credentials });
    const uid = await insertProduct(api.db, growth.id, "1200.00");
    expect((await placeOrder(api, { uid, method: "sslcommerz" })).status).to.equal(201);
    await api.db("app.brands").where({ id: growth.id }).update({ plan: "starter" });
    try {
      const downgraded = await placeOrder(api, { uid, method: "sslcommerz" });
      expect(downgraded.status).to.equal(409);
      expect((await json(downgraded)).error).to.deep.include({ code: "METHOD_UNAVAILABLE", details: [{ field: "method", problem: "the brand's starter plan does not include it" }] });
      const view = (await methodsOf(await growth.owner.call("/api/dashboard/gateway-keys"))).sslcommerz!;
      expect(view).to.include({ allowed_by_plan: false, configured: true });
      expect((await availableMethods({ db: api.db, config: api.config }, growth.id, { price: "1200.00", currency: "BDT" })).map((m) => m.method)).to.not.include("sslcommerz");
    } finally {
      await api.db("app.brands").where({ id: growth.id }).update({ plan: "growth" });
    }
  });
});
