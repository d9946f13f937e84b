// The SSLCommerz client against the local SSLCommerz over real HTTP: a card payment from session to refund with the
// IPN posted to a real merchant server, a foreign-currency payment, refused store credentials, a tampered amount,
// forged and replayed IPNs, a cancelled and an expired session, and a gateway that fails.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { GatewayOrder } from "../../api/src/payments/gateway";
import { SslcommerzGateway, sslcommerzVerifySign } from "../../api/src/payments/sslcommerz";
import { startSslcommerzSim, type RunningSim } from "../../scripts/lib/payment-sims";
import { caught, gatewayOrder, startedAt, useSim } from "../support/gateways";

const TIMEOUT_MS = 1500;

const newOrder = (currency = "BDT", amountMinor = 15000) => gatewayOrder({ currency, amountMinor });

/** The merchant's side: a real server that keeps every form POST (the IPNs) and answers 200. */
async function startMerchant(): Promise<{ base: string; ipns: Array<{ path: string; form: Record<string, string> }>; close: () => Promise<void> }> {
  const ipns: Array<{ path: string; form: Record<string, string> }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      ipns.push({ path: req.url ?? "", form: Object.fromEntries(new URLSearchParams(body)) });
      res.writeHead(200, { "Content-Type": "text/plain" }).end("IPN received");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/sslcommerz`,
    ipns,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("SSLCommerz client against the local SSLCommerz", () => {
  let sim: RunningSim;
  let ssl: SslcommerzGateway;
  let merchant: Awaited<ReturnType<typeof startMerchant>>;

  useSim(startSslcommerzSim, async (running) => {
    sim = running;
    merchant = await startMerchant();
    ssl = new SslcommerzGateway({ baseUrl: sim.baseUrl, timeoutMs: TIMEOUT_MS });
  });
  after(() => merchant?.close());

  const started = (order: GatewayOrder = newOrder()) => startedAt(ssl, order, merchant.base, sim.credentials);

  /** The shopper decides; returns the IPN our server received (SSLCommerz posts it before the browser returns). */
  async function decided(order: GatewayOrder, outcome: "success" | "failure" | "cancel" = "success"): Promise<Record<string, string>> {
    const approval = await sim.approve({ reference: order.reference }, outcome);
    expect(approval.ipn).to.deep.equal({ status: 200 });
    const ipn = merchant.ipns.at(-1)!;
    expect(ipn.path).to.equal("/api/payments/sslcommerz/ipn");
    expect(ipn.form).to.deep.equal(approval.form);
    return ipn.form;
  }

  it("takes a card payment from session through the shopper's page, IPN and validation to a refund", async () => {
    const { order, redirectUrl } = await started();
    const html = await (await fetch(redirectUrl)).text();
    expect(html).to.contain('id="approve"').and.to.contain('id="cancel"').and.to.contain("150.00");
    const before = merchant.ipns.length;
    const back = await fetch(`${redirectUrl}/decide`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "success" }),
    });
    // The IPN came first, server to server; the browser is then sent back by a POST form to success_url.
    expect(merchant.ipns.length).to.equal(before + 1);
    const ipn = merchant.ipns.at(-1)!.form;
    expect(ipn).to.include({ status: "VALID", tran_id: order.reference, amount: "150.00", currency: "BDT", value_a: order.orderId });
    expect(await back.text()).to.contain(`action="${merchant.base}/return/success"`).and.to.contain(ipn.verify_sign);
    expect(ssl.callbackKey({ query: {}, form: ipn })).to.deep.equal({ reference: order.reference });

    const paid = await ssl.complete(order, { query: {}, form: ipn }, sim.credentials);
    expect(paid).to.deep.include({ outcome: "paid", gatewayPaymentId: ipn.val_id, gatewayTrxId: ipn.bank_tran_id });
    // The validation API answers VALID the first time and VALIDATED after: both are accepted.
    expect(await ssl.verify(order, sim.credentials)).to.deep.include({ outcome: "paid", gatewayTrxId: ipn.bank_tran_id });
    expect(await ssl.verify(order, sim.credentials)).to.deep.include({ outcome: "paid", detail: `SSLCommerz validation VALIDATED, val_id ${ipn.val_id}` });

    const settled = { ...order, gatewayTrxId: ipn.bank_tran_id };
    const refund = await ssl.refund(settled, 5000, "wrong size", sim.credentials);
    expect(refund.state).to.equal("pending");
    expect(await ssl.refundStatus(settled, refund.refundId, sim.credentials)).to.equal("refunded");
    const over = await caught(ssl.refund(settled, 15000, "again", sim.credentials));
    expect(over).to.include({ code: "REFUND_REFUSED", retryable: false });
    expect(over.message).to.contain("greater than the transaction amount");
  });

  it("checks a foreign-currency payment by currency_type and currency_amount, and refuses currencies it does not take", async () => {
    const { order } = await started(newOrder("USD", 1999));
    const ipn = await decided(order);
    expect(ipn).to.include({ currency: "BDT", currency_type: "USD", currency_amount: "19.99", amount: "2398.80" });
    expect((await ssl.complete(order, { query: {}, form: ipn }, sim.credentials)).outcome).to.equal("paid");
    expect((await ssl.verify(order, sim.credentials)).outcome).to.equal("paid");
    // Refunds go out in the taka SSLCommerz recorded: half, then the rest, and then nothing is left.
    const settled = { ...order, gatewayTrxId: ipn.bank_tran_id };
    expect((await ssl.refund(settled, 1000, "half", sim.credentials)).state).to.equal("pending");
    expect((await ssl.refund(settled, 999, "the rest", sim.credentials)).state).to.equal("pending");
    expect(await caught(ssl.refund(settled, 1, "more", sim.credentials))).to.include({ code: "REFUND_REFUSED" });
    expect(await caught(ssl.start(newOrder("JPY"), merchant.base, sim.credentials))).to.include({ code: "CURRENCY", retryable: false });
  });

  it("checks store credentials with a transaction query and says why it refuses them", async () => {
    expect(await ssl.checkCredentials(sim.credentials)).to.deep.equal({ ok: true });
    const wrong = await ssl.checkCredentials({ ...sim.credentials, store_passwd: "guess@ssl" });
    expect(wrong).to.deep.equal({ ok: false, reason: "SSLCommerz transaction query: SSLCommerz refused the store credentials (FAILED)." });
    expect(await ssl.checkCredentials({ store_id: sim.credentials.store_id })).to.deep.equal({ ok: false, reason: "Store password is required." });
    const session = await caught(ssl.start(newOrder(), merchant.base, { ...sim.credentials, store_passwd: "guess@ssl" }));
    expect(session).to.include({ code: "SESSION_REFUSED", retryable: false });
    expect(session.message).to.contain("Store Credential Error");
  });

  it("calls a signed report of another amount a mismatch, never paid", async () => {
    const { order } = await started();
    sim.control.tamperNext({ amount: "1.50" });
    const ipn = await decided(order);
    expect(ipn.verify_sign).to.equal(sslcommerzVerifySign(ipn, sim.credentials.store_passwd));
    expect(await ssl.complete(order, { query: {}, form: ipn }, sim.credentials)).to.deep.include({ outcome: "mismatch" });
    // The charge in the order's currency is read too, for a BDT order as well.
    const charged = await started();
    sim.control.tamperNext({ currency_amount: "1.50" });
    expect((await ssl.complete(charged.order, { query: {}, form: await decided(charged.order) }, sim.credentials)).outcome).to.equal("mismatch");
    const other = await started();
    const good = await decided(other.order);
    expect((await ssl.complete(other.order, { query: {}, form: good }, sim.credentials)).outcome).to.equal("paid");
    sim.control.tamperNext({ currency: "USD" });
    expect((await ssl.verify(other.order, sim.credentials)).outcome).to.equal("mismatch");
  });

  it("ignores a forged IPN: a changed field, a wrong verify_sign, another store's password, or unsigned fields", async () => {
    const { order } = await started(newOrder("BDT", 1_000_000));
    const real = await decided(order);
    const ignored = async (form: Record<string, string>) => {
      const settlement = await ssl.complete(order, { query: {}, form }, sim.credentials);
      expect(settlement.outcome, JSON.stringify(settlement)).to.equal("pending");
    };
    // The paid order's own IPN, but for another order of ours at a lower price: the signature no longer checks.
    const cheaper = newOrder("BDT", 1000);
    const claim = { ...real, tran_id: cheaper.reference, amount: "10.00" };
    expect((await ssl.complete({ ...cheaper, gatewayPaymentId: null }, { query: {}, form: claim }, sim.credentials)).outcome).to.equal("pending");
    await ignored({ ...real, verify_sign: "0".repeat(32) });
    await ignored({ ...real, verify_sign: sslcommerzVerifySign(real, "another-store-password") });
    const { verify_sign: _s, verify_key: _k, ...unsigned } = real;
    await ignored(unsigned);
    // Signed, but by a verify_key that leaves the amount out: the amount could have been anything.
    const partial = { ...real, verify_key: real.verify_key.split(",").filter((k) => k !== "amount").join(",") };
    await ignored({ ...partial, verify_sign: sslcommerzVerifySign(partial, sim.credentials.store_passwd) });
    expect((await ssl.complete(order, { query: {}, form: real }, sim.credentials)).outcome).to.equal("paid");
  });

  it("settles a replayed IPN and the browser's return alike, with the same transaction", async () => {
    const { order } = await started();
    const ipn = await decided(order);
    const settlements = await Promise.all([ipn, ipn, { ...ipn }].map((form) => ssl.complete(order, { query: {}, form }, sim.credentials)));
    expect(settlements.map((s) => s.outcome)).to.deep.equal(["paid", "paid", "paid"]);
    expect(new Set(settlements.map((s) => (s as { gatewayTrxId: string }).gatewayTrxId)).size).to.equal(1);
  });

  it("settles a cancelled session as cancelled and an expired one as failed", async () => {
    const { order } = await started();
    const ipn = await decided(order, "cancel");
    expect(ipn.status).to.equal("CANCELLED");
    expect((await ssl.complete(order, { query: {}, form: ipn }, sim.credentials)).outcome).to.equal("cancelled");
    expect((await ssl.verify(order, sim.credentials)).outcome).to.equal("cancelled");

    const late = await started();
    expect(await ssl.verify(late.order, sim.credentials)).to.deep.include({ outcome: "pending" });
    sim.control.advanceTime(3600 * 1000 + 60_000);
    const refused = await sim.approve({ reference: late.order.reference }).then(
      () => "approved",
      (e: Error) => e.message,
    );
    expect(refused).to.match(/409/);
    expect(await ssl.verify(late.order, sim.credentials)).to.deep.equal({ outcome: "failed", reason: "SSLCommerz reports the payment EXPIRED." });
  });

  it("turns 503, garbage and silence into retryable GatewayErrors, within the time limit", async () => {
    sim.control.failNext("503");
    expect(await caught(ssl.start(newOrder(), merchant.base, sim.credentials))).to.include({ code: "HTTP_503", retryable: true });
    sim.control.failNext("garbage");
    expect(await caught(ssl.verify(newOrder(), sim.credentials))).to.include({ code: "GARBAGE", retryable: true });
    sim.control.failNext("timeout");
    const quick = new SslcommerzGateway({ baseUrl: sim.baseUrl, timeoutMs: 300 });
    expect(await caught(quick.checkCredentials(sim.credentials))).to.include({ code: "TIMEOUT", retryable: true });
  });
});
