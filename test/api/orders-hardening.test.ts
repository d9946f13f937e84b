// Orders where the gateway's word is missing or not the gateway's (issue 24, hardening), against the local protocol
// servers: a bKash cancel or failure callback is checked with bKash's status query before it is believed (a forged
// cancel for a payment bKash completed leaves it paid), and a refund whose answer is lost is refund_unknown, its amount
// kept reserved, until the reconciliation job asks the gateway what became of it.
import { expect } from "chai";
import { reconcileOrders } from "../../api/src/orders/reconciliation";
import { BkashGateway } from "../../api/src/payments/bkash";
import type { InProcessApi } from "../../scripts/lib/api-process";
import { startPaymentSims, type PaymentSims } from "../../scripts/lib/payment-sims";
import { gatewayIdsOf, insertProduct, jobDepsOf, orderEvents, orderRow, placed, readOrder, sellingBrand, setUpMethod, startOrdersApi, type SellingBrand } from "../support/orders";

describe("Orders hardening: forged bKash callbacks and refunds whose answer is lost (Postgres, local gateways)", () => {
  let sims: PaymentSims;
  let api: InProcessApi;
  let brand: SellingBrand;
  let bdt: string;

  before(async function () {
    this.timeout(60_000);
    sims = await startPaymentSims();
    api = await startOrdersApi("orders_hardening", sims);
    brand = await sellingBrand(api, "hardening-a", "growth");
    await setUpMethod(brand, "bkash", { ...sims.bkash.credentials });
    bdt = await insertProduct(api.db, brand.id, "1500.00", "BDT", "Nakshi Kantha");
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
});
