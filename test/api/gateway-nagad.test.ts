// The Nagad client against the local Nagad over real HTTP: the RSA round trip both ways (our node:crypto against the
// simulator's node-forge), the challenge, a payment from initialize to verify through the shopper's page, refused
// keys, a tampered amount, forged and replayed callbacks, an expired payment, and a gateway that fails.
import { createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { expect } from "chai";
import { GatewayError, type GatewayOrder } from "../../api/src/payments/gateway";
import { NagadGateway, nagadDateTime, nagadKeys, openFromNagad, sealForNagad } from "../../api/src/payments/nagad";
import { startNagadSim, type RunningNagadSim } from "../../scripts/lib/payment-sims";
import { forgeOpen, forgeSeal } from "../../scripts/lib/payment-sims/nagad";
import { callbackOf as callbackAt, caught, gatewayOrder, startedAt, useSim } from "../support/gateways";

const CALLBACK = "http://127.0.0.1:9/api/payments/nagad/callback";
const TIMEOUT_MS = 1500;
const KM_HEADERS = { "Content-Type": "application/json", "X-KM-Api-Version": "v-0.2.0", "X-KM-IP-V4": "127.0.0.1", "X-KM-Client-Type": "PC_WEB" };

/** Orders from an IPv4-mapped address, as Node reports a shopper behind a dual-stack socket. */
const newOrder = () => gatewayOrder({ clientIp: "::ffff:127.0.0.1" });
const callbackOf = (redirect: string) => callbackAt(CALLBACK, redirect);

const pem = (kind: "private" | "public") => {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return kind === "private" ? pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString() : pair.publicKey.export({ type: "spki", format: "pem" }).toString();
};

describe("Nagad client against the local Nagad", () => {
  let sim: RunningNagadSim;
  let nagad: NagadGateway;

  useSim(startNagadSim, (running) => {
    sim = running;
    nagad = new NagadGateway({ baseUrl: sim.baseUrl, timeoutMs: TIMEOUT_MS });
  });

  const started = (order: GatewayOrder = newOrder()) => startedAt(nagad, order, CALLBACK, sim.credentials);

  describe("cryptography", () => {
    it("seals with node:crypto what node-forge opens, and opens what node-forge seals, checking both signatures", () => {
      const keys = nagadKeys(sim.credentials);
      const payload = { merchantId: sim.credentials.merchant_id, datetime: nagadDateTime(), orderId: "R1", challenge: "c".repeat(40) };
      const merchantPublicPem = createPublicKey(keys.merchantPrivateKey).export({ type: "spki", format: "pem" }).toString();

      // Merchant → PG: what we send, the simulator (holding the PG key) decrypts and verifies with our public key.
      const sealed = sealForNagad(keys, payload);
      expect(forgeOpen(sim.pgPrivateKeyPem, merchantPublicPem, sealed)).to.deep.equal({ payload });
      expect(forgeOpen(sim.pgPrivateKeyPem, pem("public"), sealed)).to.deep.equal({ error: "InvalidSignature" });

      // PG → merchant: what the PG sends, we decrypt (node-forge: Node 20 refuses PKCS#1 v1.5) and verify.
      const answer = { paymentReferenceId: "MDEx", challenge: "ü-challenge" };
      const fromPg = forgeSeal(merchantPublicPem, sim.pgPrivateKeyPem, answer);
      expect(openFromNagad(keys, fromPg)).to.deep.equal(answer);
      const forged = forgeSeal(merchantPublicPem, pem("private"), answer);
      expect(() => openFromNagad(keys, forged)).to.throw(GatewayError, /signature/);
      const flipped = Buffer.from(fromPg.signature, "base64");
      flipped[10] ^= 1;
      expect(() => openFromNagad(keys, { ...fromPg, signature: flipped.toString("base64") })).to.throw(GatewayError, /signature/);
      expect(() => openFromNagad(keys, { sensitiveData: "AAAA", signature: fromPg.signature })).to.throw(GatewayError, /decrypt/);
    });

    it("formats dateTime as YmdHis in Asia/Dhaka and reads keys as PEM or bare base64", () => {
      expect(nagadDateTime(Date.UTC(2026, 10, 23, 20, 5, 9))).to.equal("20261124020509");
      const bare = (text: string) => text.replace(/-----[A-Z ]+-----/g, "").replace(/\s/g, "");
      const keys = nagadKeys({ merchant_private_key: bare(sim.credentials.merchant_private_key), pg_public_key: bare(sim.credentials.pg_public_key) });
      expect(keys.pgPublicKey.asymmetricKeyType).to.equal("rsa");
      expect(() => nagadKeys({ ...sim.credentials, merchant_private_key: "not a key" })).to.throw(GatewayError, /merchant private key/);
    });

    it("runs the challenge round trip: the PG's challenge is needed to complete, and only once", async () => {
      const keys = nagadKeys(sim.credentials);
      const merchantId = sim.credentials.merchant_id;
      const orderId = `R${randomBytes(6).toString("hex")}`;
      const dateTime = nagadDateTime();
      const init = await fetch(`${sim.baseUrl}/api/dfs/check-out/initialize/${merchantId}/${orderId}`, {
        method: "POST",
        headers: KM_HEADERS,
        body: JSON.stringify({ accountNumber: sim.credentials.account_number, dateTime, ...sealForNagad(keys, { merchantId, datetime: dateTime, orderId, challenge: "m".repeat(40) }) }),
      });
      const opened = openFromNagad(keys, (await init.json()) as { sensitiveData: string; signature: string });
      const complete = (challenge: unknown) =>
        fetch(`${sim.baseUrl}/api/dfs/check-out/complete/${encodeURIComponent(String(opened.paymentReferenceId))}`, {
          method: "POST",
          headers: KM_HEADERS,
          body: JSON.stringify({
            ...sealForNagad(keys, { merchantId, orderId, currencyCode: "050", amount: "150.00", challenge: String(challenge) }),
            merchantCallbackURL: CALLBACK,
          }),
        }).then((r) => r.json());
      expect(await complete("m".repeat(40))).to.deep.include({ reason: "InvalidChallenge" });
      expect(await complete(opened.challenge)).to.deep.include({ status: "Success" });
      expect(await complete(opened.challenge)).to.deep.include({ reason: "InvalidChallenge" });
    });
  });

  it("takes a payment from initialize and complete through the shopper's page to verify; refunds are not offered", async () => {
    const { order, redirectUrl } = await started();
    const html = await (await fetch(redirectUrl)).text();
    expect(html).to.contain('id="approve"').and.to.contain('id="cancel"').and.to.contain("150.00");
    const decided = await fetch(new URL(`${new URL(redirectUrl).pathname}/decide`, redirectUrl), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "success" }),
      redirect: "manual",
    });
    expect(decided.status).to.equal(303);
    const callback = callbackOf(decided.headers.get("location")!);
    expect(callback.query).to.include({ payment_ref_id: order.gatewayPaymentId, order_id: order.reference, status: "Success" });
    expect(nagad.callbackKey(callback)).to.deep.equal({ reference: order.reference, gatewayPaymentId: order.gatewayPaymentId });

    const paid = await nagad.complete(order, callback, sim.credentials);
    expect(paid.outcome).to.equal("paid");
    const trx = (paid as { gatewayTrxId: string }).gatewayTrxId;
    expect(trx).to.equal(callback.query.issuer_payment_ref);
    expect(await nagad.verify(order, sim.credentials)).to.deep.include({ outcome: "paid", gatewayTrxId: trx });

    expect(nagad.refundSupported).to.equal(false);
    expect(await caught(nagad.refund())).to.include({ code: "NOT_SUPPORTED", retryable: false });
  });

  it("checks keys with a signed initialize and says why it refuses them", async () => {
    expect(await nagad.checkCredentials(sim.credentials)).to.deep.equal({ ok: true });
    const otherMerchantKey = await nagad.checkCredentials({ ...sim.credentials, merchant_private_key: pem("private") });
    expect(otherMerchantKey).to.have.property("reason").that.contains("InvalidSignature");
    const otherPgKey = await nagad.checkCredentials({ ...sim.credentials, pg_public_key: pem("public") });
    expect(otherPgKey).to.have.property("reason").that.contains("InvalidSensitiveData");
    const otherMerchant = await nagad.checkCredentials({ ...sim.credentials, merchant_id: "683002000000000" });
    expect(otherMerchant).to.have.property("reason").that.contains("InvalidMerchant");
    expect(await nagad.checkCredentials({ ...sim.credentials, pg_public_key: "hello" })).to.deep.equal({
      ok: false,
      reason: "The Nagad public key is not an RSA public key in PEM or base64.",
    });
  });

  it("calls a verify answer with another amount a mismatch, never paid", async () => {
    const { order } = await started();
    const callback = callbackOf((await sim.approve({ paymentId: order.gatewayPaymentId! })).redirect);
    sim.control.tamperNext({ amount: "15.00" });
    expect(await nagad.complete(order, callback, sim.credentials)).to.deep.include({ outcome: "mismatch" });
    sim.control.tamperNext({ orderId: "ROTHER" });
    expect((await nagad.verify(order, sim.credentials)).outcome).to.equal("mismatch");
  });

  it("takes nothing from a forged callback: a made-up reference, or Success while Nagad says otherwise", async () => {
    const { order } = await started();
    const madeUp = await nagad.complete(order, { query: { payment_ref_id: "MDExMTIzNDU2Nzg5", order_id: order.reference, status: "Success" } }, sim.credentials);
    expect(madeUp.outcome).to.equal("mismatch");
    // The real reference with status=Success before the shopper paid: the callback is not signed, verify decides.
    const early = await nagad.complete(order, { query: { payment_ref_id: order.gatewayPaymentId!, status: "Success" } }, sim.credentials);
    expect(early).to.deep.include({ outcome: "pending" });
    const aborted = callbackOf((await sim.approve({ paymentId: order.gatewayPaymentId! }, "cancel")).redirect);
    expect(aborted.query.status).to.equal("Aborted");
    const lie = { query: { ...aborted.query, status: "Success", status_code: "00_0000_000" } };
    expect((await nagad.complete(order, lie, sim.credentials)).outcome).to.equal("cancelled");
  });

  it("settles a replayed callback the same way, with the same issuer reference", async () => {
    const { order } = await started();
    const callback = callbackOf((await sim.approve({ reference: order.reference })).redirect);
    const settlements = await Promise.all([1, 2, 3].map(() => nagad.complete(order, callback, sim.credentials)));
    expect(new Set(settlements.map((s) => (s as { gatewayTrxId?: string }).gatewayTrxId)).size).to.equal(1);
    expect(settlements[0].outcome).to.equal("paid");
  });

  it("fails a payment the shopper left to expire", async () => {
    const { order } = await started();
    sim.control.advanceTime(3600 * 1000 + 60_000);
    const late = await sim.approve({ paymentId: order.gatewayPaymentId! }).then(
      () => "approved",
      (e: Error) => e.message,
    );
    expect(late).to.match(/409/);
    expect(await nagad.verify(order, sim.credentials)).to.deep.equal({ outcome: "failed", reason: "Nagad reports the payment Expired." });
  });

  it("turns 503, garbage and silence into retryable GatewayErrors, within the time limit", async () => {
    sim.control.failNext("503");
    expect(await caught(nagad.start(newOrder(), CALLBACK, sim.credentials))).to.include({ code: "HTTP_503", retryable: true });
    sim.control.failNext("garbage");
    expect(await caught(nagad.start(newOrder(), CALLBACK, sim.credentials))).to.include({ code: "GARBAGE", retryable: true });
    const { order } = await started();
    sim.control.failNext("timeout");
    const quick = new NagadGateway({ baseUrl: sim.baseUrl, timeoutMs: 300 });
    expect(await caught(quick.verify(order, sim.credentials))).to.include({ code: "TIMEOUT", retryable: true });
    sim.control.failNext("503");
    expect(await caught(nagad.checkCredentials(sim.credentials))).to.include({ retryable: true });
  });
});

