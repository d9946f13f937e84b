// Review of the gateway clients for money safety, each case against a real local gateway over HTTP: a forged
// SSLCommerz IPN that names store_passwd in its verify_key, a bKash refund whose answer writes the amount another
// way, amounts read exactly, and no secret in any error message.
import { createHash } from "node:crypto";
import { expect } from "chai";
import { formatAmount, parseAmount } from "../../api/src/payments/amounts";
import { BkashGateway } from "../../api/src/payments/bkash";
import type { GatewayOrder } from "../../api/src/payments/gateway";
import { NagadGateway } from "../../api/src/payments/nagad";
import { SslcommerzGateway, sslcommerzVerifySign } from "../../api/src/payments/sslcommerz";
import { startBkashSim, startSslcommerzSim, type RunningSim } from "../../scripts/lib/payment-sims";
import { caught, gatewayOrder as newOrder, startedAt, useSim } from "../support/gateways";

const TIMEOUT_MS = 1500;
const md5 = (value: string) => createHash("md5").update(value, "utf8").digest("hex");

describe("gateway review: money safety of the payment clients", () => {
  describe("amounts", () => {
    it("reads a gateway's amount from its digits, never through a float, and refuses what is not a plain decimal", () => {
      expect(parseAmount("150.00")).to.equal(15000);
      expect(parseAmount("150")).to.equal(15000);
      expect(parseAmount("150.5")).to.equal(15050);
      expect(parseAmount("150.0000")).to.equal(15000);
      expect(parseAmount("0150.00")).to.equal(15000);
      expect(parseAmount(150)).to.equal(15000);
      expect(parseAmount("9999999999999.99")).to.equal(999999999999999);
      for (const bad of ["150.005", "149.999", "1e2", "-150.00", "+150", "150.", ".5", "0x96", "１５０", "150,00", "NaN", "", "99999999999999.00", 0.1 + 0.2, 1e21, null, ["150.00"]]) {
        expect(parseAmount(bad), JSON.stringify(bad)).to.equal(null);
      }
      expect(formatAmount(15000)).to.equal("150.00");
      expect(formatAmount(5)).to.equal("0.05");
      expect(() => formatAmount(1.5)).to.throw(RangeError);
      expect(() => formatAmount(-100)).to.throw(RangeError);
    });
  });

  describe("SSLCommerz", () => {
    let sim: RunningSim;
    let ssl: SslcommerzGateway;
    useSim(startSslcommerzSim, (running) => {
      sim = running;
      ssl = new SslcommerzGateway({ baseUrl: sim.baseUrl, timeoutMs: TIMEOUT_MS });
    });

    it("takes md5(store password) for store_passwd even when the notification names store_passwd in its verify_key", async () => {
      const order = newOrder();
      const { gatewayPaymentId } = await ssl.start(order, "http://127.0.0.1:9/api/payments/sslcommerz", sim.credentials);
      // Anyone can post this: its verify_sign is computed over a store_passwd the attacker chose, not the store's.
      const fields: Record<string, string> = {
        status: "VALID",
        tran_id: order.reference,
        val_id: "FORGED0001",
        bank_tran_id: "FORGED0001",
        amount: "150.00",
        currency: "BDT",
        currency_type: "BDT",
        currency_amount: "150.00",
        store_passwd: "attacker-chosen",
      };
      fields.verify_key = Object.keys(fields).join(",");
      fields.verify_sign = md5(
        Object.keys(fields)
          .filter((k) => k !== "verify_key")
          .sort()
          .map((k) => `${k}=${fields[k]}`)
          .join("&"),
      );
      const settlement = await ssl.complete({ ...order, gatewayPaymentId }, { query: {}, form: fields }, sim.credentials);
      expect(settlement.outcome).to.equal("pending");
      expect(sslcommerzVerifySign(fields, sim.credentials.store_passwd)).to.not.equal(fields.verify_sign);
    });
  });

  describe("bKash", () => {
    let sim: RunningSim;
    let bkash: BkashGateway;
    useSim(startBkashSim, (running) => {
      sim = running;
      bkash = new BkashGateway({ baseUrl: sim.baseUrl, timeoutMs: TIMEOUT_MS });
    });

    async function paidOrder(): Promise<GatewayOrder> {
      const { order } = await startedAt(bkash, newOrder(), "http://127.0.0.1:9/api/payments/bkash/callback", sim.credentials);
      const { redirect } = await sim.approve({ paymentId: order.gatewayPaymentId! });
      const query = Object.fromEntries(new URL(redirect).searchParams);
      const paid = await bkash.complete(order, { query }, sim.credentials);
      if (paid.outcome !== "paid") throw new Error(`not paid: ${JSON.stringify(paid)}`);
      return { ...order, gatewayTrxId: paid.gatewayTrxId };
    }

    it("counts a refund bKash reports as done when it writes the same amount another way, and not one of another amount", async () => {
      const order = await paidOrder();
      // bKash keeps amounts as numbers: "50" is the refund of "50.00" we asked for, and it has happened.
      sim.control.tamperNext({ amount: "50" });
      const refund = await bkash.refund(order, 5000, "returned", sim.credentials);
      expect(refund.state).to.equal("refunded");
      sim.control.tamperNext({ amount: "49.00" });
      expect(await caught(bkash.refund(order, 5000, "returned", sim.credentials))).to.include({ code: "MISMATCH" });
    });
  });

  describe("secrets", () => {
    it("puts no password, secret or key into any error message, whether the gateway refuses or cannot be reached", async () => {
      const bkashSim = await startBkashSim();
      const sslSim = await startSslcommerzSim();
      try {
        const secrets = [bkashSim.credentials.password, bkashSim.credentials.app_secret, sslSim.credentials.store_passwd];
        const messages: string[] = [];
        const bkash = new BkashGateway({ baseUrl: bkashSim.baseUrl, timeoutMs: TIMEOUT_MS });
        const wrongSecret = { ...bkashSim.credentials, app_secret: `${bkashSim.credentials.app_secret}x` };
        secrets.push(wrongSecret.app_secret);
        const refused = await bkash.checkCredentials(wrongSecret);
        if (!refused.ok) messages.push(refused.reason);
        const ssl = new SslcommerzGateway({ baseUrl: sslSim.baseUrl, timeoutMs: TIMEOUT_MS });
        const sslRefused = await ssl.checkCredentials({ ...sslSim.credentials, store_id: "nostore" });
        if (!sslRefused.ok) messages.push(sslRefused.reason);
        sslSim.control.failNext("timeout");
        messages.push((await caught(ssl.verify(newOrder(), sslSim.credentials))).message);
        const nowhere = "http://127.0.0.1:9";
        messages.push((await caught(new BkashGateway({ baseUrl: nowhere, timeoutMs: TIMEOUT_MS }).start(newOrder(), `${nowhere}/cb`, bkashSim.credentials))).message);
        const nagad = new NagadGateway({ baseUrl: nowhere, timeoutMs: TIMEOUT_MS });
        const badKey = "-----BEGIN PRIVATE KEY-----\nMIIEsecretsecretsecret\n-----END PRIVATE KEY-----";
        secrets.push("MIIEsecretsecretsecret");
        const nagadRefused = await nagad.checkCredentials({ merchant_id: "1", account_number: "1", merchant_private_key: badKey, pg_public_key: badKey });
        if (!nagadRefused.ok) messages.push(nagadRefused.reason);
        expect(messages).to.have.length(5);
        for (const message of messages) for (const secret of secrets) expect(message).to.not.contain(secret);
      } finally {
        await bkashSim.stop();
        await sslSim.stop();
      }
    });
  });
});
