// Orders paid through the gateways (issue 13), each against its local protocol server: the whole purchase for bKash,
// Nagad and SSLCommerz through our HTTP API (order, approval at the gateway, the gateway's redirect or IPN back to us,
// verified), cancelled and failed payments, a tampered amount, forged, replayed and simultaneous callbacks, gateways
// that answer 503 or time out at the start, at completion and at verification (the reconciliation job settles them),
// expiry, and refunds (bKash at once, SSLCommerz once it settles, Nagad not at all).
import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import { reconcileOrders } from "../../api/src/orders/reconciliation";
import type { InProcessApi } from "../../scripts/lib/api-process";
import { startPaymentSims, type PaymentSims, type SimApproval } from "../../scripts/lib/payment-sims";
import { OpenApiContract } from "../support/contract";
import { json } from "../support/http";
import { dueNow, gatewayIdsOf, insertProduct, jobDepsOf, orderEvents, orderRow, placed, placeOrder, readOrder, sellingBrand, setUpMethod, startOrdersApi, watchOrderEvents, type EventWatch, type SellingBrand } from "../support/orders";

type GatewayName = "bkash" | "nagad" | "sslcommerz";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PlacedOrder = any;

describe("Orders: bKash, Nagad and SSLCommerz against their local servers (Postgres)", () => {
  let sims: PaymentSims;
  let api: InProcessApi;
  let contract: OpenApiContract;
  let brand: SellingBrand;
  let events: EventWatch;
  /** A BDT product (every gateway) and a USD one (SSLCommerz only). */
  let bdt: string;
  let usd: string;

  const jobDeps = () => jobDepsOf(api);
  const stored = (orderId: string) => gatewayIdsOf(api.db, orderId);

  /** The shopper decides at the gateway (its test control, as the Approve/Cancel buttons would). */
  async function decide(method: GatewayName, order: PlacedOrder, outcome: "success" | "failure" | "cancel" = "success"): Promise<SimApproval> {
    const row = await stored(order.order_id);
    return sims[method].approve(method === "sslcommerz" ? { reference: row!.reference } : { paymentId: row!.gateway_payment_id! }, outcome);
  }
  /** The browser follows the gateway's redirect back to us (SSLCommerz POSTs its fields there). */
  function backToUs(approval: SimApproval): Promise<Response> {
    if (approval.form) {
      return fetch(approval.redirect, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(approval.form).toString(), redirect: "manual" });
    }
    return fetch(approval.redirect, { redirect: "manual" });
  }
  async function expectStatusPage(res: Response, order: PlacedOrder) {
    expect(res.status, await res.clone().text()).to.equal(303);
    expect(res.headers.get("location")).to.equal(order.status_url);
  }
  const product = (method: GatewayName) => (method === "sslcommerz" ? usd : bdt);

  before(async function () {
    this.timeout(60_000);
    sims = await startPaymentSims();
    api = await startOrdersApi("orders_gateways", sims);
    contract = await OpenApiContract.load(api.url);
    brand = await sellingBrand(api, "gateways-a", "growth");
    for (const method of ["bkash", "nagad", "sslcommerz"] as const) await setUpMethod(brand, method, { ...sims[method].credentials });
    bdt = await insertProduct(api.db, brand.id, "1500.00", "BDT", "Jamdani Saree");
    usd = await insertProduct(api.db, brand.id, "25.50", "USD", "Export Tee");
    events = await watchOrderEvents(api, brand.id);
  });
  afterEach(() => {
    for (const sim of [sims.bkash, sims.nagad, sims.sslcommerz]) sim.control.reset();
  });
  after(async () => {
    await events?.stop();
    await api?.close();
    await sims?.stop();
  });

  for (const method of ["bkash", "nagad", "sslcommerz"] as const) {
    it(`${method}: the whole purchase — order, the gateway's page, approval, back to us, paid and verified; order.paid and order.verified once each, signed`, async () => {
      const res = await placeOrder(api, { uid: product(method), method, contact: { email: "shopper@example.com" } });
      expect(res.status, await res.clone().text()).to.equal(201);
      const problems = await contract.check("POST", "/api/orders", res.clone());
      expect(problems, problems.join("\n")).to.deep.equal([]);
      const order = (await json(res)).data;
      expect(order).to.include({ status: "pending", method });
      expect(order.next.type).to.equal("redirect");
      // The gateway's own page for the shopper, with Approve and Cancel.
      const page = await (await fetch(order.next.url)).text();
      expect(page).to.include('id="approve"').and.include('id="cancel"');
      expect((await readOrder(api, order.order_id, order.order_secret)).message).to.match(/^Waiting for your payment with /);

      await expectStatusPage(await backToUs(await decide(method, order)), order);
      const settled = await readOrder(api, order.order_id, order.order_secret);
      expect(settled).to.include({ status: "verified", message: "Payment received. Thank you." });
      const row = await orderRow(api.db, order.order_id);
      expect(row.transitions).to.deep.equal(["∅→created", "created→pending", "pending→paid", "paid→verified"]);
      expect(row.gateway_trx_id).to.be.a("string").and.not.equal("");

      const [paid] = await events.deliveries(order.order_id, "order.paid");
      const [verified] = await events.deliveries(order.order_id, "order.verified");
      expect(new Webhook(events.dashboardSecret).verify(paid!.body, paid!.headers)).to.deep.equal(paid!.payload);
      expect(new Webhook(events.v1Secret).verify(verified!.body, verified!.headers)).to.deep.equal(verified!.payload);
      const amount = method === "sslcommerz" ? { amount: "25.50", amount_minor: 2550, currency: "USD" } : { amount: "1500.00", amount_minor: 150000, currency: "BDT" };
      for (const delivery of [paid!, verified!]) expect(delivery.payload).to.include({ order_id: order.order_id, uid: product(method), payment_method: method, gateway_trx_id: row.gateway_trx_id, ...amount });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(events.receiver.received.filter((d) => d.payload.order_id === order.order_id)).to.have.length(2);
    });
  }

  it("takes BDT only through bKash and Nagad: a USD product offers them as METHOD_UNAVAILABLE", async () => {
    for (const method of ["bkash", "nagad"]) {
      const res = await placeOrder(api, { uid: usd, method });
      expect(res.status).to.equal(409);
      expect((await json(res)).error.details).to.deep.equal([{ field: "method", problem: "it does not take USD" }]);
    }
  });

  it("a payment the shopper cancels, or that fails at the gateway, ends cancelled or failed, with no event and a plain message", async () => {
    const cancelled = await placed(api, { uid: bdt, method: "bkash" });
    await expectStatusPage(await backToUs(await decide("bkash", cancelled, "cancel")), cancelled);
    expect(await readOrder(api, cancelled.order_id, cancelled.order_secret)).to.include({ status: "cancelled", message: "The payment was cancelled." });
    const failed = await placed(api, { uid: usd, method: "sslcommerz" });
    await expectStatusPage(await backToUs(await decide("sslcommerz", failed, "failure")), failed);
    expect(await readOrder(api, failed.order_id, failed.order_secret)).to.include({ status: "failed", message: "The payment did not go through. You can try again." });
    expect([...(await orderEvents(api.db, cancelled.order_id)), ...(await orderEvents(api.db, failed.order_id))]).to.deep.equal([]);
  });

  it("never counts a tampered amount as paid: the gateway's report is checked against our record", async () => {
    for (const method of ["bkash", "sslcommerz"] as const) {
      const order = await placed(api, { uid: product(method), method });
      // The gateway's next report (bKash's execute, SSLCommerz's IPN, signed as sent) names another amount.
      sims[method].control.tamperNext(method === "sslcommerz" ? { currency_amount: "1.00" } : { amount: "1.00" });
      await expectStatusPage(await backToUs(await decide(method, order)), order);
      const row = await orderRow(api.db, order.order_id);
      expect(row.state, method).to.equal("failed");
      expect(row.failure_reason).to.match(/amount "1.00", not /);
      expect(await orderEvents(api.db, order.order_id)).to.deep.equal([]);
    }
  });

  it("forged and replayed callbacks change nothing: an unknown payment is a plain page, a bad signature is ignored, a replay after payment is a no-op", async () => {
    const forged = await fetch(`${api.url}/api/payments/bkash/callback?paymentID=TR0011FORGED0001&status=success`, { redirect: "manual" });
    expect(forged.status).to.equal(404);
    expect(forged.headers.get("content-type")).to.match(/^text\/html/);
    expect(await forged.text()).to.include("does not match an order of ours");

    // A forged IPN for a real order, signed with the wrong password: ignored, the order still waits for the shopper.
    const pending = await placed(api, { uid: usd, method: "sslcommerz" });
    const { reference } = (await stored(pending.order_id))!;
    const fake = new URLSearchParams({ tran_id: reference, val_id: "FAKE1", amount: "25.50", currency: "USD", currency_type: "USD", currency_amount: "25.50", status: "VALID", verify_key: "amount,currency,currency_amount,currency_type,status,tran_id,val_id", verify_sign: "0".repeat(32) });
    const ipn = await fetch(`${api.url}/api/payments/sslcommerz/ipn`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: fake.toString() });
    expect(ipn.status).to.equal(200);
    expect((await orderRow(api.db, pending.order_id)).state).to.equal("pending");
    const unknownIpn = await fetch(`${api.url}/api/payments/sslcommerz/ipn`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ tran_id: "PRNOSUCHORDER0" }).toString() });
    expect(unknownIpn.status).to.equal(404);

    // Paid, then the same callback again: the status page, nothing executed or emitted twice.
    const order = await placed(api, { uid: bdt, method: "bkash" });
    const approval = await decide("bkash", order);
    await expectStatusPage(await backToUs(approval), order);
    await expectStatusPage(await backToUs(approval), order);
    expect((await orderRow(api.db, order.order_id)).transitions).to.deep.equal(["∅→created", "created→pending", "pending→paid", "paid→verified"]);
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid", "order.verified"]);
  });

  it("two callbacks at once execute the payment once", async () => {
    const order = await placed(api, { uid: bdt, method: "bkash" });
    const approval = await decide("bkash", order);
    const answers = await Promise.all([1, 2, 3].map(() => backToUs(approval)));
    for (const res of answers) await expectStatusPage(res, order);
    const row = await orderRow(api.db, order.order_id);
    expect(row.transitions).to.deep.equal(["∅→created", "created→pending", "pending→paid", "paid→verified"]);
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid", "order.verified"]);
  });

  it("a gateway that answers 503 or times out at the start: 502 GATEWAY_UNAVAILABLE, the order failed, nothing charged; the shopper may try again", async () => {
    for (const kind of ["503", "timeout"] as const) {
      sims.bkash.control.failNext(kind, 3);
      const res = await placeOrder(api, { uid: bdt, method: "bkash" });
      expect(res.status, kind).to.equal(502);
      const problems = await contract.check("POST", "/api/orders", res.clone());
      expect(problems, problems.join("\n")).to.deep.equal([]);
      expect((await json(res)).error.code).to.equal("GATEWAY_UNAVAILABLE");
      sims.bkash.control.reset();
    }
    const failed = await api.db("app.orders").where({ brand_id: brand.id, state: "failed" }).whereNotNull("failure_reason").whereRaw("failure_reason ~ '(503|answer)'").count<Array<{ count: number }>>({ count: "*" });
    expect(Number(failed[0]!.count)).to.be.at.least(2);
    expect((await placed(api, { uid: bdt, method: "bkash" })).status).to.equal("pending");
  });

  it("a 503 at verification leaves the order paid (order.paid only); the reconciliation job verifies it once the gateway answers", async () => {
    const order = await placed(api, { uid: usd, method: "sslcommerz" });
    // The IPN's signature is checked here; the validation API behind it answers 503 for a while.
    sims.sslcommerz.control.failNext("503", 4);
    await expectStatusPage(await backToUs(await decide("sslcommerz", order)), order);
    expect(await readOrder(api, order.order_id, order.order_secret)).to.include({ status: "paid", message: "Payment received. We are confirming it with Card (SSLCommerz)." });
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid"]);

    sims.sslcommerz.control.reset();
    await dueNow(api.db, order.order_id);
    await reconcileOrders(jobDeps());
    expect((await orderRow(api.db, order.order_id)).state).to.equal("verified");
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid", "order.verified"]);
  });

  it("a timeout at completion leaves the order pending; the reconciliation job settles it from the gateway's record", async () => {
    const order = await placed(api, { uid: bdt, method: "nagad" });
    const approval = await decide("nagad", order);
    sims.nagad.control.failNext("timeout");
    await expectStatusPage(await backToUs(approval), order);
    expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
    await dueNow(api.db, order.order_id);
    await reconcileOrders(jobDeps());
    const row = await orderRow(api.db, order.order_id);
    expect(row.state).to.equal("verified");
    expect(row.transitions).to.deep.equal(["∅→created", "created→pending", "pending→paid", "paid→verified"]);
  });

  it("expiry: an unpaid order expires; bKash never executes an expired order, while a late Nagad payment (already taken) is recorded", async () => {
    const unpaid = await placed(api, { uid: bdt, method: "bkash" });
    const late = await placed(api, { uid: bdt, method: "bkash" });
    const lateNagad = await placed(api, { uid: bdt, method: "nagad" });
    const ids = [unpaid.order_id, late.order_id, lateNagad.order_id];
    await api.db("app.orders").whereIn("id", ids).update({ expires_at: api.db.raw("now() - interval '1 second'"), next_check_at: api.db.raw("now() - interval '1 second'") });
    await reconcileOrders(jobDeps());
    for (const id of ids) expect((await orderRow(api.db, id)).state).to.equal("expired");

    await expectStatusPage(await backToUs(await decide("bkash", late)), late);
    expect(await readOrder(api, late.order_id, late.order_secret)).to.include({ status: "expired" });
    // bKash itself still has the payment unexecuted: nothing was taken.
    const { gateway_payment_id: paymentId } = (await stored(late.order_id))!;
    const status = await (await fetch(`${sims.bkash.baseUrl}/payment/status`, { method: "POST", headers: await bkashHeaders(), body: JSON.stringify({ paymentID: paymentId }) })).json();
    expect((status as { transactionStatus: string }).transactionStatus).to.not.equal("Completed");

    await expectStatusPage(await backToUs(await decide("nagad", lateNagad)), lateNagad);
    const row = await orderRow(api.db, lateNagad.order_id);
    expect(row.transitions.slice(-3)).to.deep.equal(["pending→expired", "expired→paid", "paid→verified"]);
    expect(await orderEvents(api.db, unpaid.order_id)).to.deep.equal([]);
  });

  it("refunds: bKash in part and then in full at once; SSLCommerz refund_pending until the gateway settles it; Nagad is not refundable", async () => {
    const refund = (id: string, body: unknown) => brand.owner.call(`/api/dashboard/orders/${id}/refund`, { method: "POST", json: body });
    const pay = async (method: GatewayName) => {
      const order = await placed(api, { uid: product(method), method });
      await backToUs(await decide(method, order));
      expect((await orderRow(api.db, order.order_id)).state).to.equal("verified");
      return order;
    };

    const bkash = await pay("bkash");
    const part = await refund(bkash.order_id, { amount_minor: 50000, reason: "one of two returned" });
    expect(part.status, await part.clone().text()).to.equal(200);
    expect((await json(part)).data).to.include({ status: "verified", refunded_minor: 50000, refundable_minor: 100000 });
    const whole = (await json(await refund(bkash.order_id, { reason: "the other returned" }))).data;
    expect(whole).to.include({ status: "refunded", refunded_minor: 150000, refundable: false });
    expect(whole.refunds.map((r: { state: string; gateway_refund_id: string }) => r.state)).to.deep.equal(["refunded", "refunded"]);

    const card = await pay("sslcommerz");
    const started = (await json(await refund(card.order_id, { reason: "returned" }))).data;
    expect(started).to.include({ status: "refund_pending", refunded_minor: 2550 });
    await api.db("app.order_refunds").where({ order_id: card.order_id }).update({ next_check_at: api.db.raw("now() - interval '1 second'") });
    await reconcileOrders(jobDeps());
    expect((await orderRow(api.db, card.order_id)).state).to.equal("refunded");

    const nagad = await pay("nagad");
    const refused = await refund(nagad.order_id, { reason: "returned" });
    expect(refused.status).to.equal(409);
    expect((await json(refused)).error).to.include({ code: "NOT_REFUNDABLE" });
    const detail = (await json(await brand.owner.call(`/api/dashboard/orders/${nagad.order_id}`))).data;
    expect(detail).to.include({ refundable: false, refundable_minor: 0 });
    expect(detail.not_refundable_reason).to.match(/merchant portal/);
  });

  /** Headers of a direct call to the bKash simulator's API (a token granted with the brand's keys). */
  async function bkashHeaders(): Promise<Record<string, string>> {
    const creds = sims.bkash.credentials;
    const grant = await fetch(`${sims.bkash.baseUrl}/token/grant`, {
      method: "POST",
      headers: { "Content-Type": "application/json", username: creds.username!, password: creds.password! },
      body: JSON.stringify({ app_key: creds.app_key, app_secret: creds.app_secret }),
    });
    const token = ((await grant.json()) as { id_token: string }).id_token;
    return { "Content-Type": "application/json", Authorization: token, "X-APP-Key": creds.app_key! };
  }
});
