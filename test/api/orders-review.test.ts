// Review of the orders layer for money safety (issue 13), against the local gateway servers and real Postgres: a
// callback that arrives while the reconciliation job holds the order, an outcome the gateway leaves uncertain (an
// execute whose answer was lost, a status query refused), a cashier who loses the race to expiry, concurrent partial
// refunds, and odd bodies on the public routes.
import { expect } from "chai";
import { reconcileOrders } from "../../api/src/orders/reconciliation";
import type { InProcessApi } from "../../scripts/lib/api-process";
import { startPaymentSims, type PaymentSims } from "../../scripts/lib/payment-sims";
import { json } from "../support/http";
import { dueNow, gatewayIdsOf, insertProduct, jobDepsOf, orderEvents, orderRow, placed, placeOrder, sellingBrand, setUpMethod, startOrdersApi, type SellingBrand } from "../support/orders";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PlacedOrder = any;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Orders review: races, uncertain outcomes and odd input (Postgres, local gateways)", () => {
  let sims: PaymentSims;
  let api: InProcessApi;
  let brand: SellingBrand;
  let bdt: string;

  const jobDeps = () => jobDepsOf(api);
  const stored = (orderId: string) => gatewayIdsOf(api.db, orderId);
  /** The shopper approves at the gateway; the URL the gateway sends their browser back to. */
  async function approve(method: "bkash" | "nagad", order: PlacedOrder): Promise<string> {
    const row = await stored(order.order_id);
    return (await sims[method].approve({ paymentId: row!.gateway_payment_id! }, "success")).redirect;
  }
  const back = (url: string) => fetch(url, { redirect: "manual" });

  before(async function () {
    this.timeout(60_000);
    sims = await startPaymentSims();
    api = await startOrdersApi("orders_review", sims);
    brand = await sellingBrand(api, "review-a", "growth");
    for (const method of ["bkash", "nagad"] as const) await setUpMethod(brand, method, { ...sims[method].credentials });
    await setUpMethod(brand, "cash_qr");
    bdt = await insertProduct(api.db, brand.id, "1500.00", "BDT", "Nakshi Kantha");
  });
  afterEach(() => {
    for (const sim of [sims.bkash, sims.nagad, sims.sslcommerz]) sim.control.reset();
  });
  after(async () => {
    await api?.close();
    await sims?.stop();
  });

  it("a bKash callback that arrives while the reconciliation job is asking bKash about the order is still executed", async () => {
    const order = await placed(api, { uid: bdt, method: "bkash" });
    const callback = await approve("bkash", order);
    // The job's payment/status call is slow; the shopper's browser comes back while the job holds the order.
    sims.bkash.control.delayMs(300);
    await dueNow(api.db, order.order_id);
    const job = reconcileOrders(jobDeps());
    await sleep(100);
    const res = await back(callback);
    expect(res.status).to.equal(303);
    await job;
    sims.bkash.control.reset();
    const row = await orderRow(api.db, order.order_id);
    expect(row.state, row.transitions.join(" ")).to.equal("verified");
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid", "order.verified"]);
  });

  it("bKash: an execute whose answer was lost, then a refused status query, keeps the order pending; the job then records the payment", async () => {
    const order = await placed(api, { uid: bdt, method: "bkash" });
    const callback = await approve("bkash", order);
    // An earlier execute went through at bKash (the money is taken) but its answer never reached us.
    const { gateway_payment_id: paymentID } = (await stored(order.order_id))!;
    const executed = await fetch(`${sims.bkash.baseUrl}/execute`, { method: "POST", headers: await bkashHeaders(), body: JSON.stringify({ paymentID }) });
    expect(((await executed.json()) as { transactionStatus: string }).transactionStatus).to.equal("Completed");
    // The shopper's browser comes back: execute answers "already executed", and the status query is refused
    // (bKash answers HTTP 200 with an error code). That is no proof that nothing was paid.
    sims.bkash.control.tamperNext({ statusCode: "2002", statusMessage: "Invalid Payment ID" });
    expect((await back(callback)).status).to.equal(303);
    expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
    sims.bkash.control.tamperNext({ statusCode: "2002", statusMessage: "Invalid Payment ID" });
    await dueNow(api.db, order.order_id);
    await reconcileOrders(jobDeps());
    expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
    await dueNow(api.db, order.order_id);
    await reconcileOrders(jobDeps());
    const row = await orderRow(api.db, order.order_id);
    expect(row.state).to.equal("verified");
    expect(row.transitions).to.deep.equal(["∅→created", "created→pending", "pending→paid", "paid→verified"]);
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid", "order.verified"]);
  });

  it("Nagad: a verify that answers 4xx after the shopper paid keeps the order pending, never failed; the job records the payment", async () => {
    const order = await placed(api, { uid: bdt, method: "nagad" });
    const callback = await approve("nagad", order);
    sims.nagad.control.tamperNext({ reason: "InvalidRequest", message: "Payment reference not found" });
    expect((await back(callback)).status).to.equal(303);
    expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
    await dueNow(api.db, order.order_id);
    await reconcileOrders(jobDeps());
    expect((await orderRow(api.db, order.order_id)).state).to.equal("verified");
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid", "order.verified"]);
  });

  it("a forged Nagad callback naming another order_id cannot fail the order: only Nagad's verify answer counts", async () => {
    const order = await placed(api, { uid: bdt, method: "nagad" });
    const { gateway_payment_id: ref } = (await stored(order.order_id))!;
    const forged = await back(`${api.url}/api/payments/nagad/callback?payment_ref_id=${encodeURIComponent(ref!)}&order_id=PRFORGED0000000&status=Success`);
    expect(forged.status).to.equal(303);
    expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
    expect((await back(await approve("nagad", order))).status).to.equal(303);
    expect((await orderRow(api.db, order.order_id)).state).to.equal("verified");
  });

  it("an uncertain answer past the order's expiry keeps it pending (not expired) while the gateway's payment may still settle", async () => {
    const order = await placed(api, { uid: bdt, method: "nagad" });
    await approve("nagad", order);
    await api.db("app.orders").where({ id: order.order_id }).update({ expires_at: api.db.raw("now() - interval '1 second'") });
    sims.nagad.control.tamperNext({ reason: "InvalidRequest", message: "Payment reference not found" });
    await dueNow(api.db, order.order_id);
    await reconcileOrders(jobDeps());
    expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
    await dueNow(api.db, order.order_id);
    await reconcileOrders(jobDeps());
    expect((await orderRow(api.db, order.order_id)).state).to.equal("verified");
  });

  it("a cashier who loses the race to expiry is told so (409), not that the order was confirmed", async () => {
    const order = await placed(api, { uid: bdt, method: "cash_qr" });
    const token = new URL(order.next.confirm_url).hash.replace(/^#t=/, "");
    // The job expires the order at the very moment the cashier confirms: it holds the row first.
    const trx = await api.db.transaction();
    try {
      await trx("app.orders").where({ id: order.order_id }).forUpdate().first();
      const confirm = brand.owner.call("/api/dashboard/cashier/confirm", { method: "POST", json: { order_id: order.order_id, token } });
      await sleep(300);
      await trx("app.orders").where({ id: order.order_id }).update({ state: "expired" });
      await trx.commit();
      const res = await confirm;
      expect(res.status, await res.clone().text()).to.equal(409);
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    expect(await orderEvents(api.db, order.order_id)).to.deep.equal([]);
  });

  it("concurrent partial refunds never together exceed what was paid", async () => {
    const order = await placed(api, { uid: bdt, method: "cash_qr" });
    const token = new URL(order.next.confirm_url).hash.replace(/^#t=/, "");
    expect((await brand.owner.call("/api/dashboard/cashier/confirm", { method: "POST", json: { order_id: order.order_id, token } })).status).to.equal(200);
    const answers = await Promise.all([1, 2, 3, 4].map(() => brand.owner.call(`/api/dashboard/orders/${order.order_id}/refund`, { method: "POST", json: { amount_minor: 60000, reason: "part" } })));
    // The losers are refused by the reservation (409) or, reading the order after it, by the amount left (422).
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((status) => status === 200)).to.have.length(2);
    for (const status of statuses.filter((status) => status !== 200)) expect([409, 422]).to.include(status);
    const row = await orderRow(api.db, order.order_id);
    expect(Number(row.refunded_minor)).to.equal(120000);
    expect((await json(await brand.owner.call(`/api/dashboard/orders/${order.order_id}`))).data).to.include({ refundable_minor: 30000 });
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

  it("answers odd bodies on the public routes with 4xx, never 500", async () => {
    const bodies: unknown[] = [
      null,
      [],
      "text",
      42,
      {},
      { uid: bdt },
      { uid: 5, method: "bkash" },
      { uid: [bdt], method: "bkash" },
      { uid: bdt, method: "paypal" },
      { uid: bdt, method: ["bkash"] },
      { uid: bdt, method: "cash_qr", contact: "me" },
      { uid: bdt, method: "cash_qr", contact: { email: "x".repeat(10_000) } },
      { uid: bdt, method: "cash_qr", contact: { name: "😀".repeat(101) } },
      { uid: bdt, method: "cash_qr", contact: { phone: "+880 1700-000000\u0000" } },
      { uid: "Ü".repeat(40), method: "bkash" },
      { uid: "x".repeat(100_000), method: "bkash" },
      { uid: bdt, method: "bkash", amount: "1.00" },
    ];
    for (const body of bodies) {
      const res = await placeOrder(api, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)?.slice(0, 80)).to.be.within(400, 499);
    }
    for (const body of ['{"uid": ', `{"uid":"${bdt}","method":"bkash","__proto__":{"admin":true}}`, `{"uid":"${bdt}","method":"bkash","constructor":{}}`, "\u0000"]) {
      const raw = await fetch(`${api.url}/api/orders`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      expect(raw.status, body).to.be.within(400, 499);
    }
    for (const path of ["/api/orders/ord_x", `/api/orders/ord_${"A".repeat(22)}?s=a&s=b`, `/api/orders/ord_${"A".repeat(22)}?s=${"x".repeat(5000)}`, `/api/orders/${encodeURIComponent("ord_ÄÄÄÄ")}`]) {
      const res = await fetch(`${api.url}${path}`, { headers: { "X-Order-Secret": "\u00ff".repeat(100) } });
      expect(res.status, path).to.be.within(400, 499);
    }
    for (const query of ["paymentID=%00", "paymentID=a&paymentID=b&status=success", `paymentID=${"A".repeat(5000)}`, "payment_ref_id=../../x"]) {
      for (const method of ["bkash", "nagad"]) {
        const res = await fetch(`${api.url}/api/payments/${method}/callback?${query}`, { redirect: "manual" });
        expect(res.status, `${method} ${query}`).to.be.within(300, 499);
      }
    }
    for (const body of ["tran_id=%ZZ", "tran_id=a&tran_id=b", "a=".repeat(500), `tran_id=${"Ä".repeat(3000)}`]) {
      const res = await fetch(`${api.url}/api/payments/sslcommerz/ipn`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
      expect(res.status, body.slice(0, 40)).to.be.within(200, 499);
    }
    const jsonIpn = await fetch(`${api.url}/api/payments/sslcommerz/ipn`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(jsonIpn.status).to.be.within(400, 499);
  });
});
