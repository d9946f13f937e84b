// Orders paid in cash at the till (issue 13), and what every order shares: who may sell (sales switch, price, plan,
// methods set up), the order's secret, the shopper's view, the per-client budget, the Cash QR a cashier confirms
// (idempotent, audited, brand-bound), order.paid and order.verified signed at a receiver once each, the expiry by
// the reconciliation job, refunds recorded at the till, and the dashboard's list and history.
import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import { reconcileOrders } from "../../api/src/orders/reconciliation";
import type { InProcessApi } from "../../scripts/lib/api-process";
import { OpenApiContract } from "../support/contract";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { insertProduct, jobDepsOf, orderEvents, orderRow, placed, placeOrder, readOrder, sellingBrand, setUpMethod, startOrdersApi, watchOrderEvents, type EventWatch, type SellingBrand } from "../support/orders";

describe("Orders: Cash QR at the till, and what every order shares (Postgres)", () => {
  let api: InProcessApi;
  let contract: OpenApiContract;
  let brand: SellingBrand;
  let other: SellingBrand;
  let cashier: DashboardClient;
  let otherCashier: DashboardClient;
  let uid: string;
  let events: EventWatch;

  /** What the API process hands the reconciliation job. */
  const jobDeps = () => jobDepsOf(api);
  const conforms = async (method: string, path: string, res: Response) => {
    const problems = await contract.check(method, path, res.clone());
    expect(problems, problems.join("\n")).to.deep.equal([]);
  };
  const cashierCall = (client: DashboardClient, step: "lookup" | "confirm", body: unknown) => client.call(`/api/dashboard/cashier/${step}`, { method: "POST", json: body });
  const tokenOf = (confirmUrl: string) => new URL(confirmUrl).hash.replace(/^#t=/, "");

  before(async function () {
    this.timeout(60_000);
    api = await startOrdersApi("orders_cash", undefined, { ORDERS_PER_CLIENT_HOUR: "40" });
    contract = await OpenApiContract.load(api.url);
    brand = await sellingBrand(api, "cash-a", "starter");
    other = await sellingBrand(api, "cash-b", "starter");
    await setUpMethod(brand, "cash_qr");
    await setUpMethod(other, "cash_qr");
    cashier = await dashboardClient(api.url, api.db, brand.id, "cashier");
    otherCashier = await dashboardClient(api.url, api.db, other.id, "cashier");
    uid = await insertProduct(api.db, brand.id, "1490.50", "EUR", "Piqué Polo");
    events = await watchOrderEvents(api, brand.id);
  });
  after(async () => {
    await events?.stop();
    await api?.close();
  });

  it("sells only what a brand offers: unknown UID 404, sales off or no price SALES_DISABLED, a method not set up METHOD_UNAVAILABLE, bad input 422", async () => {
    const unknown = await placeOrder(api, { uid: "CASHA-NOSUCHTHING", method: "cash_qr" });
    expect(unknown.status).to.equal(404);
    await conforms("POST", "/api/orders", unknown);

    const free = await insertProduct(api.db, brand.id, "0.00");
    const noPrice = await placeOrder(api, { uid: free, method: "cash_qr" });
    expect(noPrice.status).to.equal(409);
    expect((await json(noPrice)).error.code).to.equal("SALES_DISABLED");

    const bkash = await placeOrder(api, { uid, method: "bkash" });
    expect(bkash.status).to.equal(409);
    const refused = await json(bkash);
    expect(refused.error.code).to.equal("METHOD_UNAVAILABLE");
    expect(refused.error.details).to.deep.equal([{ field: "method", problem: "the brand has not set it up" }]);
    // Card payments are not in the Starter plan, whatever is set up.
    expect((await json(await placeOrder(api, { uid, method: "sslcommerz" }))).error.details[0].problem).to.equal("the brand's starter plan does not include it");

    const off = await brand.owner.call("/api/dashboard/sales", { method: "PUT", json: { enabled: false } });
    expect(off.status).to.equal(200);
    expect((await json(off)).data.sales_enabled).to.equal(false);
    const salesOff = await placeOrder(api, { uid, method: "cash_qr" });
    expect(salesOff.status).to.equal(409);
    expect((await json(salesOff)).error.code).to.equal("SALES_DISABLED");
    expect((await brand.owner.call("/api/dashboard/sales", { method: "PUT", json: { enabled: true } })).status).to.equal(200);

    for (const [body, field] of [
      [{ uid, method: "paypal" }, "method"],
      [{ uid, method: "cash_qr", amount: 1 }, "amount"],
      [{ uid, method: "cash_qr", contact: { email: "not an address" } }, "contact.email"],
      [{ method: "cash_qr" }, "uid"],
    ] as const) {
      const res = await placeOrder(api, body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect((await json(res)).error.details.map((d: { field: string }) => d.field)).to.include(field);
    }
    expect(await api.db("app.orders").count<Array<{ count: number }>>({ count: "*" }).then((r) => Number(r[0]!.count))).to.equal(0);
  });

  it("a Cash QR order: pending with the QR of a cashier URL; the shopper reads it with its secret only; the cashier confirms it verified; order.paid and order.verified arrive signed, once each", async () => {
    const res = await placeOrder(api, { uid, method: "cash_qr", contact: { name: "Rina", phone: "+880 1711 000000" } });
    expect(res.status).to.equal(201);
    await conforms("POST", "/api/orders", res);
    const order = (await json(res)).data;
    expect(order).to.include({ status: "pending", method: "cash_qr", uid, product_name: "Piqué Polo", amount: "1490.50", amount_minor: 149050, currency: "EUR" });
    expect(order.status_url).to.equal(`${api.url}/orders/${order.order_id}#s=${order.order_secret}`);
    expect(order.next.type).to.equal("cash_qr");
    expect(order.next.confirm_url).to.match(new RegExp(`^${api.url}/dashboard/cashier/${order.order_id}#t=[A-Za-z0-9_-]{43}$`));
    expect(order.next.qr_svg).to.match(/^<svg[^>]*>[\s\S]*<\/svg>\s*$/);
    const token = tokenOf(order.next.confirm_url);

    // Without the secret, or with another order's, the order does not exist.
    for (const secret of ["", "x".repeat(43), order.order_secret.slice(1) + "A"]) {
      const hidden = await fetch(`${api.url}/api/orders/${order.order_id}`, { headers: secret ? { "X-Order-Secret": secret } : {} });
      expect(hidden.status).to.equal(404);
    }
    const read = await fetch(`${api.url}/api/orders/${order.order_id}?s=${order.order_secret}`);
    await conforms("GET", `/api/orders/${order.order_id}`, read);
    expect((await json(read)).data).to.include({ status: "pending", message: "Show the QR code to the cashier to pay.", paid_at: null });

    const lookup = await cashierCall(cashier, "lookup", { order_id: order.order_id, token });
    await conforms("POST", "/api/dashboard/cashier/lookup", lookup);
    expect((await json(lookup)).data).to.include({ status: "pending", product_name: "Piqué Polo", amount: "1490.50", currency: "EUR", brand_matches: true });

    // Two confirmations at once (a double tap), then a third: one confirms, the others find it done.
    const both = await Promise.all([1, 2].map(() => cashierCall(cashier, "confirm", { order_id: order.order_id, token })));
    await conforms("POST", "/api/dashboard/cashier/confirm", both[0]!);
    const answers = await Promise.all(both.map(async (r) => (await json(r)).data));
    expect(answers.map((a) => a.status)).to.deep.equal(["verified", "verified"]);
    expect(answers.map((a) => a.already_confirmed).sort()).to.deep.equal([false, true]);
    expect((await json(await cashierCall(cashier, "confirm", { order_id: order.order_id, token }))).data).to.include({ status: "verified", already_confirmed: true });

    const shopper = await readOrder(api, order.order_id, order.order_secret);
    expect(shopper).to.include({ status: "verified", message: "Payment received. Thank you." });
    expect(shopper.paid_at).to.be.a("string");
    expect((await orderRow(api.db, order.order_id)).transitions).to.deep.equal(["∅→created", "created→pending", "pending→paid", "paid→verified"]);
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid", "order.verified"]);
    const audit = await api.db("app.audit_log").where({ brand_id: brand.id, action: "order.cash_confirmed" }).select<Array<{ actor: string; target: string }>>("actor", "target");
    expect(audit).to.deep.equal([{ actor: cashier.email, target: order.order_id }]);

    const [paid] = await events.deliveries(order.order_id, "order.paid");
    const [verified] = await events.deliveries(order.order_id, "order.verified");
    expect(paid!.path).to.equal("/dashboard");
    expect(verified!.path).to.equal("/v1");
    expect(new Webhook(events.dashboardSecret).verify(paid!.body, paid!.headers)).to.deep.equal(paid!.payload);
    expect(new Webhook(events.v1Secret).verify(verified!.body, verified!.headers)).to.deep.equal(verified!.payload);
    const expected = { order_id: order.order_id, uid, amount: "1490.50", amount_minor: 149050, currency: "EUR", payment_method: "cash_qr", gateway_trx_id: null };
    expect(paid!.payload).to.include({ event: "order.paid", ...expected });
    expect(verified!.payload).to.include({ event: "order.verified", ...expected });
    expect(paid!.payload.uids).to.deep.equal([uid]);
    // Once each, even after the repeats.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(events.receiver.received.filter((d) => d.payload.order_id === order.order_id)).to.have.length(2);
  });

  it("binds a Cash QR to its brand and its token: another brand's cashier sees it is not theirs and cannot confirm; a wrong token is not found; an editor may not confirm", async () => {
    const order = await placed(api, { uid, method: "cash_qr" });
    const token = tokenOf(order.next.confirm_url);
    const theirs = await cashierCall(otherCashier, "lookup", { order_id: order.order_id, token });
    expect(theirs.status).to.equal(200);
    expect((await json(theirs)).data.brand_matches).to.equal(false);
    expect((await cashierCall(otherCashier, "confirm", { order_id: order.order_id, token })).status).to.equal(404);
    const wrong = await cashierCall(cashier, "confirm", { order_id: order.order_id, token: `${token.slice(0, -2)}AA` });
    expect(wrong.status).to.equal(404);
    await conforms("POST", "/api/dashboard/cashier/confirm", wrong);
    const editor = await dashboardClient(api.url, api.db, brand.id, "editor");
    expect((await cashierCall(editor, "confirm", { order_id: order.order_id, token })).status).to.equal(403);
    expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal([]);
  });

  it("expires unpaid orders: the cashier is refused once the time is up, and the reconciliation job expires the rest on time", async () => {
    const late = await placed(api, { uid, method: "cash_qr" });
    const waiting = await placed(api, { uid, method: "cash_qr" });
    const current = await placed(api, { uid, method: "cash_qr" });
    await api.db("app.orders").whereIn("id", [late.order_id, waiting.order_id]).update({ expires_at: api.db.raw("now() - interval '1 second'"), next_check_at: api.db.raw("now() - interval '1 second'") });

    const refused = await cashierCall(cashier, "confirm", { order_id: late.order_id, token: tokenOf(late.next.confirm_url) });
    expect(refused.status).to.equal(409);
    expect((await json(refused)).error.message).to.match(/expired/);
    expect(await reconcileOrders(jobDeps())).to.be.at.least(1);
    for (const order of [late, waiting]) {
      expect((await orderRow(api.db, order.order_id)).state).to.equal("expired");
      expect((await readOrder(api, order.order_id, order.order_secret)).message).to.match(/^This order expired before it was paid/);
    }
    expect((await orderRow(api.db, current.order_id)).state).to.equal("pending");
    expect(await orderEvents(api.db, late.order_id)).to.deep.equal([]);
  });

  it("refunds cash handed back at the till, in part and then in full; never more than was paid, never an unpaid order, not by a cashier", async () => {
    const order = await placed(api, { uid, method: "cash_qr" });
    const refund = (client: DashboardClient, body: unknown) => client.call(`/api/dashboard/orders/${order.order_id}/refund`, { method: "POST", json: body });
    const early = await refund(brand.owner, { reason: "changed mind" });
    expect(early.status).to.equal(409);
    expect((await json(early)).error.code).to.equal("NOT_REFUNDABLE");
    expect((await cashierCall(cashier, "confirm", { order_id: order.order_id, token: tokenOf(order.next.confirm_url) })).status).to.equal(200);

    expect((await refund(cashier, { reason: "no" })).status).to.equal(403);
    const tooMuch = await refund(brand.owner, { amount_minor: 149051, reason: "too much" });
    expect(tooMuch.status).to.equal(422);
    expect((await json(tooMuch)).error.details[0].field).to.equal("amount_minor");

    const part = await refund(brand.owner, { amount_minor: 49050, reason: "a button was missing" });
    await conforms("POST", `/api/dashboard/orders/${order.order_id}/refund`, part);
    expect((await json(part)).data).to.include({ status: "verified", refunded_minor: 49050, refundable: true, refundable_minor: 100000 });
    const rest = await refund(brand.owner, { reason: "returned" });
    const after = (await json(rest)).data;
    expect(after).to.include({ status: "refunded", refunded_minor: 149050, refundable: false, refundable_minor: 0 });
    expect(after.refunds.map((r: { amount: string; state: string }) => `${r.amount} ${r.state}`)).to.deep.equal(["490.50 refunded", "1000.00 refunded"]);
    expect((await refund(brand.owner, { reason: "again" })).status).to.equal(409);
    expect((await readOrder(api, order.order_id, order.order_secret)).message).to.equal("Your payment was refunded.");
    expect(await api.db("app.audit_log").where({ brand_id: brand.id, action: "order.refunded", target: order.order_id }).count<Array<{ count: number }>>({ count: "*" }).then((r) => Number(r[0]!.count))).to.equal(2);
  });

  it("lists the brand's orders for the dashboard, filtered, with each order's history; another brand's order is not found", async () => {
    const list = await brand.owner.call("/api/dashboard/orders?status=verified&method=cash_qr&per_page=5");
    await conforms("GET", "/api/dashboard/orders", list);
    const page = (await json(list)).data;
    expect(page.total).to.be.at.least(1);
    expect(page.orders.every((o: { status: string }) => o.status === "verified")).to.equal(true);
    const [first] = page.orders;
    // The brand's orders are brand-wide: not a cashier's to read (their view is the till), the owner's.
    expect((await cashier.call(`/api/dashboard/orders/${first.order_id}`)).status).to.equal(403);
    const detail = await brand.owner.call(`/api/dashboard/orders/${first.order_id}`);
    await conforms("GET", `/api/dashboard/orders/${first.order_id}`, detail);
    const body = (await json(detail)).data;
    expect(body.transitions.map((t: { to: string }) => t.to)).to.deep.equal(["created", "pending", "paid", "verified"]);
    expect(body.transitions[2].actor).to.equal(cashier.email);
    const searched = (await json(await brand.owner.call(`/api/dashboard/orders?q=${first.order_id}`))).data;
    expect(searched.orders.map((o: { order_id: string }) => o.order_id)).to.deep.equal([first.order_id]);
    expect((await other.owner.call(`/api/dashboard/orders/${first.order_id}`)).status).to.equal(404);
    expect((await json(await other.owner.call("/api/dashboard/orders"))).data.total).to.equal(0);
  });

  it("bounds the orders one address may place in an hour (429 with Retry-After)", async () => {
    let last: Response | undefined;
    // One more than the budget: a 429 comes even if the clock hour turned just before.
    for (let i = 0; i <= 40; i += 1) {
      last = await placeOrder(api, { uid, method: "cash_qr" });
      if (last.status === 429) break;
    }
    expect(last!.status).to.equal(429);
    expect(Number(last!.headers.get("retry-after"))).to.be.within(1, 3600);
    await conforms("POST", "/api/orders", last!);
  });
});
