// Orders where the gateway's word is missing or not the gateway's (issue 24, hardening), against the local protocol
// servers: a bKash cancel or failure callback is checked with bKash's status query before it is believed (a forged
// cancel for a payment bKash completed leaves it paid), and a refund whose answer is lost is refund_unknown, its amount
// kept reserved, until the reconciliation job asks the gateway what became of it.
import { expect } from "chai";
import { reconcileOrders } from "../../api/src/orders/reconciliation";
import { BkashGateway } from "../../api/src/payments/bkash";
import type { InProcessApi } from "../../scripts/lib/api-process";
import { startPaymentSims, type PaymentSims } from "../../scripts/lib/payment-sims";
import { json } from "../support/http";
import { gatewayIdsOf, insertProduct, jobDepsOf, orderEvents, orderRow, placed, readOrder, sellingBrand, setUpMethod, startOrdersApi, type SellingBrand } from "../support/orders";

describe("Orders hardening: forged bKash callbacks and refunds whose answer is lost (Postgres, local gateways)", () => {
  let sims: PaymentSims;
  let api: InProcessApi;
  let brand: SellingBrand;
  let bdt: string;
  let usd: string;

  before(async function () {
    this.timeout(60_000);
    sims = await startPaymentSims();
    api = await startOrdersApi("orders_hardening", sims);
    brand = await sellingBrand(api, "hardening-a", "growth");
    for (const method of ["bkash", "sslcommerz"] as const) await setUpMethod(brand, method, { ...sims[method].credentials });
    bdt = await insertProduct(api.db, brand.id, "1500.00", "BDT", "Nakshi Kantha");
    usd = await insertProduct(api.db, brand.id, "25.50", "USD", "Export Tee");
  });
  afterEach(() => {
    for (const sim of [sims.bkash, sims.nagad, sims.sslcommerz]) sim.control.reset();
  });
  after(async () => {
    await api?.close();
    await sims?.stop();
  });

  /** The bKash callback URL for the order's payment, with `status` as anyone can write it. */
  async function bkashCallback(orderId: string, status: string): Promise<Response> {
    const { gateway_payment_id: paymentID } = (await gatewayIdsOf(api.db, orderId))!;
    return fetch(`${api.url}/api/payments/bkash/callback?${new URLSearchParams({ paymentID: paymentID!, status, signature: "forged", apiVersion: "1.2.0-beta" })}`, { redirect: "manual" });
  }

  describe("a bKash cancel or failure callback", () => {
    it("is not believed for a payment bKash completed: the status query says paid, and the order is paid and verified", async () => {
      const order = await placed(api, { uid: bdt, method: "bkash" });
      const ids = (await gatewayIdsOf(api.db, order.order_id))!;
      // The shopper approves and the payment is executed at bKash (an execute whose answer never reached us), so bKash
      // holds the money while our order is still pending; then a cancel callback arrives, written by anyone.
      await sims.bkash.approve({ paymentId: ids.gateway_payment_id! }, "success");
      const client = new BkashGateway({ baseUrl: sims.bkash.baseUrl, timeoutMs: 3000 });
      const executed = await client.complete({ orderId: order.order_id, reference: ids.reference, amountMinor: 150000, currency: "BDT", productName: "Nakshi Kantha", uid: bdt, clientIp: "127.0.0.1", gatewayPaymentId: ids.gateway_payment_id }, { query: { paymentID: ids.gateway_payment_id!, status: "success" } }, sims.bkash.credentials);
      expect(executed.outcome).to.equal("paid");

      for (const status of ["cancel", "failure"]) {
        const res = await bkashCallback(order.order_id, status);
        expect(res.status, await res.clone().text()).to.equal(303);
        expect(res.headers.get("location")).to.equal(order.status_url);
      }
      const row = await orderRow(api.db, order.order_id);
      expect(row.state).to.equal("verified");
      expect(row.transitions).to.deep.equal(["∅→created", "created→pending", "pending→paid", "paid→verified"]);
      expect(await orderEvents(api.db, order.order_id)).to.deep.equal(["order.paid", "order.verified"]);
    });

    it("is not believed while the shopper has not decided: the order stays pending and is paid when they approve", async () => {
      const order = await placed(api, { uid: bdt, method: "bkash" });
      const ids = (await gatewayIdsOf(api.db, order.order_id))!;
      await bkashCallback(order.order_id, "cancel");
      expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
      const approval = await sims.bkash.approve({ paymentId: ids.gateway_payment_id! }, "success");
      await fetch(approval.redirect, { redirect: "manual" });
      expect(await readOrder(api, order.order_id, order.order_secret)).to.include({ status: "verified" });
    });

    it("is believed when bKash's status query agrees (the shopper cancelled, or the payment failed)", async () => {
      for (const [decision, state] of [["cancel", "cancelled"], ["failure", "failed"]] as const) {
        const order = await placed(api, { uid: bdt, method: "bkash" });
        const approval = await sims.bkash.approve({ paymentId: (await gatewayIdsOf(api.db, order.order_id))!.gateway_payment_id! }, decision);
        expect((await fetch(approval.redirect, { redirect: "manual" })).status).to.equal(303);
        expect((await orderRow(api.db, order.order_id)).state, decision).to.equal(state);
      }
    });

    it("leaves the order pending when the status query gets no answer; the reconciliation job settles it", async function () {
      this.timeout(20_000);
      const order = await placed(api, { uid: bdt, method: "bkash" });
      const approval = await sims.bkash.approve({ paymentId: (await gatewayIdsOf(api.db, order.order_id))!.gateway_payment_id! }, "cancel");
      sims.bkash.control.failNext("timeout");
      await fetch(approval.redirect, { redirect: "manual" });
      expect((await orderRow(api.db, order.order_id)).state).to.equal("pending");
      await api.db("app.orders").where({ id: order.order_id }).update({ next_check_at: api.db.raw("now() - interval '1 second'") });
      await reconcileOrders(jobDepsOf(api));
      expect((await orderRow(api.db, order.order_id)).state).to.equal("cancelled");
    });
  });
  describe("a refund whose answer is lost", () => {
    const refund = (orderId: string, body: unknown) => brand.owner.call(`/api/dashboard/orders/${orderId}/refund`, { method: "POST", json: body });
    const detail = async (orderId: string) => (await json(await brand.owner.call(`/api/dashboard/orders/${orderId}`))).data;
    /** A bKash or SSLCommerz order the shopper paid, verified. */
    async function paidOrder(method: "bkash" | "sslcommerz") {
      const order = await placed(api, { uid: method === "bkash" ? bdt : usd, method });
      const ids = (await gatewayIdsOf(api.db, order.order_id))!;
      const approval = await sims[method].approve(method === "bkash" ? { paymentId: ids.gateway_payment_id! } : { reference: ids.reference }, "success");
      if (approval.form) await fetch(approval.redirect, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(approval.form).toString(), redirect: "manual" });
      else await fetch(approval.redirect, { redirect: "manual" });
      expect((await orderRow(api.db, order.order_id)).state).to.equal("verified");
      return order;
    }
    /** The reconciliation job, with the order's refunds due now. */
    async function reconcile(orderId: string) {
      await api.db("app.order_refunds").where({ order_id: orderId }).whereNotNull("next_check_at").update({ next_check_at: api.db.raw("now() - interval '1 second'") });
      await reconcileOrders(jobDepsOf(api));
    }
    /** bKash's own record of the payment's refunds, from its refund status query. */
    async function bkashLatestRefund(order: { order_id: string }) {
      const ids = (await gatewayIdsOf(api.db, order.order_id))!;
      const { gateway_trx_id: trxID } = (await orderRow(api.db, order.order_id)) as { gateway_trx_id: string };
      const client = new BkashGateway({ baseUrl: sims.bkash.baseUrl, timeoutMs: 3000 });
      return client.findRefund({ orderId: order.order_id, reference: ids.reference, amountMinor: 150000, currency: "BDT", productName: "", uid: bdt, clientIp: "127.0.0.1", gatewayPaymentId: ids.gateway_payment_id, gatewayTrxId: trxID }, 50000, [], sims.bkash.credentials);
    }

    it("made at bKash: refund_unknown with the amount reserved, no second refund, then refunded once bKash reports it", async function () {
      this.timeout(30_000);
      const order = await paidOrder("bkash");
      sims.bkash.control.failNext("lost");
      const lost = await refund(order.order_id, { amount_minor: 50000, reason: "one of three returned" });
      expect(lost.status).to.equal(502);
      expect((await json(lost)).error.message).to.match(/not known yet: the 500.00 BDT stay reserved/);
      const held = await detail(order.order_id);
      expect(held).to.include({ status: "refund_unknown", refunded_minor: 50000, refundable: false, refundable_minor: 0 });
      expect(held.not_refundable_reason).to.match(/bKash did not answer a refund/);
      expect(held.refunds.map((r: { state: string }) => r.state)).to.deep.equal(["unknown"]);
      expect((await readOrder(api, order.order_id, order.order_secret)).status).to.equal("refund_unknown");

      // The brand, told nothing was refunded, tries again: refused, so bKash is not asked to pay the shopper twice.
      const again = await refund(order.order_id, { amount_minor: 50000, reason: "one of three returned" });
      expect(again.status).to.equal(409);
      expect((await json(again)).error.code).to.equal("NOT_REFUNDABLE");

      // While bKash does not answer the question either, the refund stays unknown and reserved.
      sims.bkash.control.failNext("timeout");
      await reconcile(order.order_id);
      expect(await detail(order.order_id)).to.include({ status: "refund_unknown", refunded_minor: 50000 });

      await reconcile(order.order_id);
      const settled = await detail(order.order_id);
      expect(settled).to.include({ status: "verified", refunded_minor: 50000, refundable: true, refundable_minor: 100000 });
      const made = await bkashLatestRefund(order);
      expect(made.outcome).to.equal("made");
      expect(settled.refunds.map((r: { state: string; gateway_refund_id: string }) => `${r.state} ${r.gateway_refund_id}`)).to.deep.equal([`refunded ${(made as { refundId: string }).refundId}`]);
      expect((await orderRow(api.db, order.order_id)).transitions.slice(-2)).to.deep.equal(["verified→refund_unknown", "refund_unknown→verified"]);

      // The rest refunds as usual, and the whole amount was refunded exactly once.
      const rest = (await json(await refund(order.order_id, { reason: "the others returned" }))).data;
      expect(rest).to.include({ status: "refunded", refunded_minor: 150000 });
      expect(await api.db("app.audit_log").where({ brand_id: brand.id, target: order.order_id }).orderBy("id").pluck("action")).to.deep.equal(["order.refund_unknown", "order.refunded", "order.refunded"]);
    });

    it("never made at bKash: refund_unknown until bKash's record shows no refund, then refundable again", async function () {
      this.timeout(30_000);
      const order = await paidOrder("bkash");
      sims.bkash.control.failNext("timeout");
      expect((await refund(order.order_id, { reason: "returned" })).status).to.equal(502);
      expect(await detail(order.order_id)).to.include({ status: "refund_unknown", refunded_minor: 150000, refundable: false });
      expect((await refund(order.order_id, { reason: "returned" })).status).to.equal(409);

      await reconcile(order.order_id);
      const settled = await detail(order.order_id);
      expect(settled).to.include({ status: "verified", refunded_minor: 0, refundable: true, refundable_minor: 150000 });
      expect(settled.refunds.map((r: { state: string }) => r.state)).to.deep.equal(["failed"]);
      expect((await json(await refund(order.order_id, { reason: "returned" }))).data).to.include({ status: "refunded", refunded_minor: 150000 });
    });

    it("at a gateway that cannot look the refund up (SSLCommerz): stays refund_unknown and reserved, never released as failed", async function () {
      this.timeout(30_000);
      const order = await paidOrder("sslcommerz");
      sims.sslcommerz.control.failNext("503", 5);
      expect((await refund(order.order_id, { reason: "returned" })).status).to.equal(502);
      await reconcile(order.order_id);
      await reconcile(order.order_id);
      const held = await detail(order.order_id);
      expect(held).to.include({ status: "refund_unknown", refunded_minor: 2550, refundable: false });
      expect(held.refunds.map((r: { state: string }) => r.state)).to.deep.equal(["unknown"]);
    });
  });
});
