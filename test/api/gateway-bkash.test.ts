// The bKash client against the local bKash over real HTTP: a payment from create to refund (through the shopper's
// page), refused credentials, a tampered amount, forged and replayed callbacks, an expired payment id, and a
// gateway that answers 503, garbage or nothing.
import { expect } from "chai";
import { BkashGateway } from "../../api/src/payments/bkash";
import type { GatewayOrder } from "../../api/src/payments/gateway";
import { startBkashSim, type RunningSim } from "../../scripts/lib/payment-sims";
import { callbackOf as callbackAt, caught, gatewayOrder as newOrder, startedAt, useSim } from "../support/gateways";

const CALLBACK = "http://127.0.0.1:9/api/payments/bkash/callback";
const TIMEOUT_MS = 1500;

/** The callback bKash sends the browser to, as our route would hand it to the client. */
const callbackOf = (redirect: string) => callbackAt(CALLBACK, redirect);

describe("bKash tokenized checkout client against the local bKash", () => {
  let sim: RunningSim;
  let bkash: BkashGateway;
  useSim(startBkashSim, (running) => {
    sim = running;
    bkash = new BkashGateway({ baseUrl: sim.baseUrl, timeoutMs: TIMEOUT_MS });
  });

  /** start(), with the order now carrying the paymentID as our record would. */
  const started = (order: GatewayOrder = newOrder()) => startedAt(bkash, order, CALLBACK, sim.credentials);

  it("takes a payment from create through the shopper's page, execute and status to refunds", async () => {
    const { order, redirectUrl } = await started();
    expect(order.gatewayPaymentId).to.match(/^TR0011/);

    // The shopper's page has the two buttons; Approve sends the browser to our callback with bKash's query.
    const page = await fetch(redirectUrl);
    const html = await page.text();
    expect(html).to.contain('id="approve"').and.to.contain('id="cancel"').and.to.contain("150.00");
    const decided = await fetch(new URL("/checkout/decide", redirectUrl), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ paymentId: order.gatewayPaymentId!, decision: "success" }),
      redirect: "manual",
    });
    expect(decided.status).to.equal(303);
    const callback = callbackOf(decided.headers.get("location")!);
    expect(callback.query).to.include({ paymentID: order.gatewayPaymentId, status: "success" });
    expect(bkash.callbackKey(callback)).to.deep.equal({ gatewayPaymentId: order.gatewayPaymentId });

    const paid = await bkash.complete(order, callback, sim.credentials);
    expect(paid.outcome).to.equal("paid");
    if (paid.outcome !== "paid") return;
    expect(paid.gatewayTrxId).to.match(/^[A-Z0-9]{10}$/);
    expect(await bkash.verify(order, sim.credentials)).to.deep.include({ outcome: "paid", gatewayTrxId: paid.gatewayTrxId });

    const settled = { ...order, gatewayTrxId: paid.gatewayTrxId };
    const first = await bkash.refund(settled, 5000, "one sleeve too short", sim.credentials);
    expect(first.state).to.equal("refunded");
    expect(first.refundId).to.match(/^[A-Z0-9]{10}$/);
    await bkash.refund(settled, 10000, "returned", sim.credentials);
    // Nothing is left: bKash refuses a third refund with its code, and that is not worth retrying.
    const over = await caught(bkash.refund({ ...settled, amountMinor: 15000 }, 100, "again", sim.credentials));
    expect(over).to.include({ code: "2026", retryable: false });
  });

  it("checks credentials with a token grant and says why it refuses them", async () => {
    expect(await bkash.checkCredentials(sim.credentials)).to.deep.equal({ ok: true });
    const badPassword = await bkash.checkCredentials({ ...sim.credentials, password: "wrong" });
    expect(badPassword.ok).to.equal(false);
    expect(badPassword).to.have.property("reason").that.matches(/username or password/);
    const badSecret = await bkash.checkCredentials({ ...sim.credentials, app_secret: "wrong" });
    expect(badSecret).to.have.property("reason").that.matches(/2001 Invalid App Key/);
    expect(await bkash.checkCredentials({ ...sim.credentials, app_key: "" })).to.deep.equal({ ok: false, reason: "App key is required." });
    // A store whose keys are refused cannot start a payment either.
    const refused = await caught(bkash.start(newOrder(), CALLBACK, { ...sim.credentials, password: "wrong" }));
    expect(refused).to.include({ code: "CREDENTIALS_REFUSED", retryable: false });
  });

  it("calls a report with another amount or invoice a mismatch, never paid", async () => {
    const { order } = await started();
    const callback = callbackOf((await sim.approve({ paymentId: order.gatewayPaymentId! })).redirect);
    sim.control.tamperNext({ amount: "1.50" });
    const tampered = await bkash.complete(order, callback, sim.credentials);
    expect(tampered).to.deep.include({ outcome: "mismatch" });
    expect((tampered as { reason: string }).reason).to.contain('"1.50"').and.to.contain("150.00");
    sim.control.tamperNext({ merchantInvoiceNumber: "SOMEONEELSE" });
    expect((await bkash.verify(order, sim.credentials)).outcome).to.equal("mismatch");
  });

  it("pays nothing on a forged callback: a made-up paymentID, or success before the shopper approved", async () => {
    const { order } = await started();
    const forged = await bkash.complete(order, { query: { paymentID: "TR0011FORGED000000000", status: "success" } }, sim.credentials);
    expect(forged.outcome).to.equal("mismatch");
    // The order's real paymentID with status=success, sent before the shopper did anything: bKash refuses to execute
    // (2056) and still has it Initiated, so the order waits.
    const early = await bkash.complete(order, { query: { paymentID: order.gatewayPaymentId!, status: "success" } }, sim.credentials);
    expect(early).to.deep.include({ outcome: "pending" });
    // The shopper then pays, and the real callback settles it.
    const callback = callbackOf((await sim.approve({ paymentId: order.gatewayPaymentId! })).redirect);
    expect((await bkash.complete(order, callback, sim.credentials)).outcome).to.equal("paid");
  });

  it("executes once: a replayed callback settles from payment/status with the same trxID", async () => {
    const { order } = await started();
    const callback = callbackOf((await sim.approve({ paymentId: order.gatewayPaymentId! })).redirect);
    const [a, b] = await Promise.all([bkash.complete(order, callback, sim.credentials), bkash.complete(order, callback, sim.credentials)]);
    const again = await bkash.complete(order, callback, sim.credentials);
    for (const s of [a, b, again]) expect(s.outcome).to.equal("paid");
    const trx = new Set([a, b, again].map((s) => (s as { gatewayTrxId: string }).gatewayTrxId));
    expect(trx.size).to.equal(1);
    // bKash itself refuses a second execute with 2117.
    const grant = await fetch(`${sim.baseUrl}/token/grant`, {
      method: "POST",
      headers: { "Content-Type": "application/json", username: sim.credentials.username, password: sim.credentials.password },
      body: JSON.stringify({ app_key: sim.credentials.app_key, app_secret: sim.credentials.app_secret }),
    });
    const { id_token } = (await grant.json()) as { id_token: string };
    const execute = await fetch(`${sim.baseUrl}/execute`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: id_token, "X-APP-Key": sim.credentials.app_key },
      body: JSON.stringify({ paymentID: order.gatewayPaymentId }),
    });
    expect(execute.status).to.equal(200);
    expect(await execute.json()).to.deep.include({ statusCode: "2117" });
  });

  it("settles cancel and failure callbacks without executing", async () => {
    const { order } = await started();
    const cancelled = callbackOf((await sim.approve({ paymentId: order.gatewayPaymentId! }, "cancel")).redirect);
    expect(cancelled.query.status).to.equal("cancel");
    expect((await bkash.complete(order, cancelled, sim.credentials)).outcome).to.equal("cancelled");
    expect((await bkash.verify(order, sim.credentials)).outcome).to.equal("cancelled");
    const other = await started();
    const failed = callbackOf((await sim.approve({ reference: other.order.reference }, "failure")).redirect);
    expect((await bkash.complete(other.order, failed, sim.credentials)).outcome).to.equal("failed");
  });

  it("cannot execute a paymentID past its 24 hours, and grants a new token when the old one expired", async () => {
    const { order } = await started();
    sim.control.advanceTime(24 * 3600 * 1000 + 60_000);
    // Too late for the shopper, and too late for a callback claiming success: bKash says Expired, nothing is taken.
    const late = await sim.approve({ paymentId: order.gatewayPaymentId! }).then(
      () => "approved",
      (e: Error) => e.message,
    );
    expect(late).to.match(/409/);
    const settlement = await bkash.complete(order, { query: { paymentID: order.gatewayPaymentId!, status: "success" } }, sim.credentials);
    expect(settlement).to.deep.include({ outcome: "failed" });
    expect((settlement as { reason: string }).reason).to.contain("expired");
  });

  it("turns 503, garbage and silence into retryable GatewayErrors, within the time limit", async () => {
    sim.control.failNext("503", 2);
    expect(await caught(bkash.start(newOrder(), CALLBACK, sim.credentials))).to.include({ code: "HTTP_503", retryable: true });
    sim.control.reset();
    sim.control.failNext("garbage", 2);
    expect(await caught(bkash.start(newOrder(), CALLBACK, sim.credentials))).to.include({ code: "GARBAGE", retryable: true });
    sim.control.reset();
    sim.control.failNext("timeout", 2);
    const quick = new BkashGateway({ baseUrl: sim.baseUrl, timeoutMs: 300 });
    expect(await caught(quick.checkCredentials(sim.credentials))).to.include({ code: "TIMEOUT", retryable: true });
    // A paid order's re-read that times out is a retryable error too, not a verdict.
    sim.control.reset();
    const { order } = await started();
    sim.control.failNext("timeout");
    expect(await caught(quick.verify(order, sim.credentials))).to.include({ code: "TIMEOUT", retryable: true });
  });
});
