// Nagad online payment client (API v-0.2.0): initialize and complete with sensitiveData RSA-encrypted to Nagad's key
// and signed with the merchant's, the challenge round trip, and verify/payment. Nagad has no refund API.
import { constants, createPrivateKey, createPublicKey, publicEncrypt, randomBytes, sign, verify, type KeyObject } from "node:crypto";
import forge from "node-forge";
import { formatAmount, reportMismatch } from "./amounts";
import {
  GatewayError,
  type CallbackInput,
  type GatewayCredentials,
  type GatewayOrder,
  type PaymentGateway,
  type Settlement,
  type StartResult,
} from "./gateway";
import { callGateway, field, type GatewayAnswer, type GatewayClientOptions } from "./http";

/** ISO 4217 numeric code of the taka, as Nagad's complete call wants it. */
const BDT_NUMERIC = "050";
/** Bangladesh Standard Time, UTC+6 all year (no daylight saving since 2009). */
const DHAKA_OFFSET_MS = 6 * 3600 * 1000;
const PAYMENT_REF = /^[A-Za-z0-9+/=._-]{1,200}$/;
const PENDING_STATUSES = new Set(["Ready", "OrderInitiated", "Initiated", "InProgress"]);
const CANCELLED_STATUSES = new Set(["Aborted", "Cancelled"]);

export type NagadKeys = { merchantPrivateKey: KeyObject; pgPublicKey: KeyObject };
/** The two fields every signed Nagad message carries. */
export type SealedMessage = { sensitiveData: string; signature: string };

/** Nagad's `dateTime`: YmdHis in Asia/Dhaka ("20261123143005"). */
export function nagadDateTime(ms = Date.now()): string {
  return new Date(ms + DHAKA_OFFSET_MS).toISOString().slice(0, 19).replace(/[-T:]/g, "");
}

/**
 * The merchant's keys from credentials. Nagad hands keys out as bare base64 as often as PEM, so both are read;
 * anything else is a definite refusal (the brand pasted the wrong thing).
 */
export function nagadKeys(creds: GatewayCredentials): NagadKeys {
  return {
    merchantPrivateKey: readRsaKey("merchant private key", creds.merchant_private_key, "private"),
    pgPublicKey: readRsaKey("Nagad public key", creds.pg_public_key, "public"),
  };
}

function readRsaKey(what: string, value: string | undefined, kind: "private" | "public"): KeyObject {
  const text = value?.trim() ?? "";
  const der = text.includes("-----BEGIN") || !/^[A-Za-z0-9+/=\s]+$/.test(text) ? undefined : Buffer.from(text.replace(/\s/g, ""), "base64");
  const attempts: Array<() => KeyObject> =
    kind === "private"
      ? der
        ? [() => createPrivateKey({ key: der, format: "der", type: "pkcs8" }), () => createPrivateKey({ key: der, format: "der", type: "pkcs1" })]
        : [() => createPrivateKey(text)]
      : der
        ? [() => createPublicKey({ key: der, format: "der", type: "spki" }), () => createPublicKey({ key: der, format: "der", type: "pkcs1" })]
        : [() => createPublicKey(text)];
  for (const attempt of attempts) {
    try {
      const key = attempt();
      if (key.asymmetricKeyType === "rsa") return key;
    } catch {
      // not this encoding: try the next
    }
  }
  throw new GatewayError("nagad", "CREDENTIALS_INVALID", `The ${what} is not an RSA ${kind} key in PEM or base64.`, false);
}

/** `payload` as Nagad wants it: JSON encrypted to the PG's key (RSA PKCS#1 v1.5) and signed SHA256withRSA by ours. */
export function sealForNagad(keys: NagadKeys, payload: Record<string, string>): SealedMessage {
  const json = Buffer.from(JSON.stringify(payload), "utf8");
  return {
    sensitiveData: publicEncrypt({ key: keys.pgPublicKey, padding: constants.RSA_PKCS1_PADDING }, json).toString("base64"),
    signature: sign("sha256", json, keys.merchantPrivateKey).toString("base64"),
  };
}

/**
 * A message from Nagad: decrypted with the merchant key and its signature checked with the PG's key, or a
 * non-retryable GatewayError. Decryption goes through node-forge because Node 20 refuses PKCS#1 v1.5 private
 * decryption (CVE-2023-46809); only answers that arrive on our own call to the configured Nagad URL are decrypted.
 */
export function openFromNagad(keys: NagadKeys, message: Partial<SealedMessage>): Record<string, unknown> {
  const refuse = (why: string) => new GatewayError("nagad", "BAD_SIGNATURE", `Nagad's answer ${why}`, false);
  if (typeof message.sensitiveData !== "string" || typeof message.signature !== "string") throw refuse("is not signed");
  let plain: string;
  try {
    const pem = keys.merchantPrivateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const bytes = forge.pki.privateKeyFromPem(pem).decrypt(forge.util.decode64(message.sensitiveData), "RSAES-PKCS1-V1_5");
    plain = forge.util.decodeUtf8(bytes);
  } catch {
    throw refuse("does not decrypt with the merchant private key");
  }
  const json = Buffer.from(plain, "utf8");
  if (!verify("sha256", json, keys.pgPublicKey, Buffer.from(message.signature, "base64"))) {
    throw refuse("has a signature that does not check with Nagad's public key");
  }
  try {
    const parsed: unknown = JSON.parse(plain);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw refuse("is not a JSON object");
}

export class NagadGateway implements PaymentGateway {
  readonly method = "nagad" as const;
  readonly currencies: readonly string[] = ["BDT"];
  readonly credentialFields = [
    { name: "merchant_id", label: "Merchant ID", secret: false },
    { name: "account_number", label: "Merchant account number", secret: false },
    { name: "merchant_private_key", label: "Merchant private key", secret: true },
    { name: "pg_public_key", label: "Nagad public key", secret: false },
  ] as const;
  readonly refundSupported = false;

  constructor(private readonly options: GatewayClientOptions) {}

  /**
   * The keys must parse, and an initialize with a throwaway order id must pass Nagad's signature check and come
   * back signed by the PG key we hold: that proves all four values. Unreachable or 5xx throws (retryable).
   */
  async checkCredentials(creds: GatewayCredentials): Promise<{ ok: true } | { ok: false; reason: string }> {
    const missing = this.credentialFields.find((f) => !creds[f.name]?.trim());
    if (missing) return { ok: false, reason: `${missing.label} is required.` };
    try {
      await this.initialize(`CHK${randomBytes(8).toString("hex")}`, "127.0.0.1", creds);
      return { ok: true };
    } catch (error) {
      if (error instanceof GatewayError && !error.retryable) return { ok: false, reason: error.message };
      throw error;
    }
  }

  async start(order: GatewayOrder, callbackUrl: string, creds: GatewayCredentials): Promise<StartResult> {
    if (order.currency !== "BDT") throw new GatewayError("nagad", "CURRENCY", `Nagad takes BDT only, not ${order.currency}`, false);
    const { keys, paymentReferenceId, challenge } = await this.initialize(order.reference, order.clientIp, creds);
    const answer = await callGateway("nagad", {
      method: "POST",
      url: `${this.options.baseUrl}/api/dfs/check-out/complete/${encodeURIComponent(paymentReferenceId)}`,
      headers: this.headers(order.clientIp),
      body: JSON.stringify({
        ...sealForNagad(keys, {
          merchantId: creds.merchant_id,
          orderId: order.reference,
          currencyCode: BDT_NUMERIC,
          amount: formatAmount(order.amountMinor),
          challenge,
        }),
        merchantCallbackURL: callbackUrl,
        additionalMerchantInfo: { productName: order.productName.slice(0, 100), uid: order.uid },
      }),
      timeoutMs: this.options.timeoutMs,
      label: "Nagad complete",
    });
    this.refusal(answer, "Nagad complete");
    const callBackUrl = field(answer.body, "callBackUrl");
    if (field(answer.body, "status") !== "Success" || !callBackUrl || !/^https?:\/\//.test(callBackUrl)) {
      throw new GatewayError("nagad", "GARBAGE", "Nagad complete answered without success and a callBackUrl", true);
    }
    return { redirectUrl: callBackUrl, gatewayPaymentId: paymentReferenceId };
  }

  callbackKey(input: CallbackInput): { reference?: string; gatewayPaymentId: string } | null {
    const ref = input.query.payment_ref_id;
    if (!ref || !PAYMENT_REF.test(ref)) return null;
    const orderId = input.query.order_id;
    return orderId && /^[A-Za-z0-9]{1,20}$/.test(orderId) ? { reference: orderId, gatewayPaymentId: ref } : { gatewayPaymentId: ref };
  }

  /** Nagad's callback is not signed, so its status is never taken: verify/payment says what happened. */
  async complete(order: GatewayOrder, input: CallbackInput, creds: GatewayCredentials): Promise<Settlement> {
    if (!order.gatewayPaymentId || input.query.payment_ref_id !== order.gatewayPaymentId) {
      return { outcome: "mismatch", reason: "the callback names another Nagad payment than this order's" };
    }
    // The callback's order_id is not taken either (a forged one must not fail a paid order): verify checks Nagad's own.
    return this.verify(order, creds);
  }

  async verify(order: GatewayOrder, creds: GatewayCredentials): Promise<Settlement> {
    if (!order.gatewayPaymentId) return { outcome: "failed", reason: "No Nagad payment was created for this order." };
    const answer = await callGateway("nagad", {
      method: "GET",
      url: `${this.options.baseUrl}/api/dfs/verify/payment/${encodeURIComponent(order.gatewayPaymentId)}`,
      headers: this.headers(order.clientIp),
      timeoutMs: this.options.timeoutMs,
      label: "Nagad verify payment",
    });
    const reason = field(answer.body, "reason");
    // Nagad takes the shopper's money before it calls us back: a refusal to report the payment proves nothing
    // was paid no more than a time-out does.
    if (reason || answer.status >= 400) {
      return { outcome: "pending", uncertain: true, reason: `Nagad would not report the payment: ${reason ?? `HTTP ${answer.status}`}` };
    }
    const status = field(answer.body, "status") ?? "";
    if (PENDING_STATUSES.has(status)) return { outcome: "pending", reason: `Nagad reports the payment ${status}.` };
    if (CANCELLED_STATUSES.has(status)) return { outcome: "cancelled", reason: "The payment was cancelled at Nagad." };
    if (status !== "Success") return { outcome: "failed", reason: `Nagad reports the payment ${status || "without a status"}.` };
    if (field(answer.body, "paymentRefId") !== order.gatewayPaymentId || field(answer.body, "merchantId") !== creds.merchant_id) {
      return { outcome: "mismatch", reason: "Nagad reported another payment or merchant than this order's" };
    }
    // Nagad settles in taka only: its answers carry no currency, so a non-BDT order can never match.
    const mismatch = reportMismatch(order, { reference: field(answer.body, "orderId"), amount: field(answer.body, "amount"), currency: "BDT" });
    if (mismatch) return { outcome: "mismatch", reason: mismatch };
    const trx = field(answer.body, "issuerPaymentRefNo");
    if (!trx) return { outcome: "pending", reason: "Nagad reported success without an issuer reference." };
    return { outcome: "paid", gatewayPaymentId: order.gatewayPaymentId, gatewayTrxId: trx, detail: `Nagad issuerPaymentRefNo ${trx}` };
  }

  refund(): Promise<{ refundId: string; state: "refunded" | "pending" }> {
    return Promise.reject(new GatewayError("nagad", "NOT_SUPPORTED", "Nagad has no refund API; refund from the Nagad merchant portal.", false));
  }

  /** Initialize: our challenge out, Nagad's payment reference and its own challenge back, both ways signed. */
  private async initialize(orderId: string, clientIp: string, creds: GatewayCredentials): Promise<{ keys: NagadKeys; paymentReferenceId: string; challenge: string }> {
    const keys = nagadKeys(creds);
    const merchantId = creds.merchant_id ?? "";
    const dateTime = nagadDateTime();
    const answer = await callGateway("nagad", {
      method: "POST",
      url: `${this.options.baseUrl}/api/dfs/check-out/initialize/${encodeURIComponent(merchantId)}/${encodeURIComponent(orderId)}`,
      headers: this.headers(clientIp),
      body: JSON.stringify({
        accountNumber: creds.account_number ?? "",
        dateTime,
        ...sealForNagad(keys, { merchantId, datetime: dateTime, orderId, challenge: randomBytes(20).toString("hex") }),
      }),
      timeoutMs: this.options.timeoutMs,
      label: "Nagad initialize",
    });
    this.refusal(answer, "Nagad initialize");
    const opened = openFromNagad(keys, { sensitiveData: field(answer.body, "sensitiveData"), signature: field(answer.body, "signature") });
    const paymentReferenceId = typeof opened.paymentReferenceId === "string" ? opened.paymentReferenceId : "";
    const challenge = typeof opened.challenge === "string" ? opened.challenge : "";
    if (!PAYMENT_REF.test(paymentReferenceId) || !challenge) {
      throw new GatewayError("nagad", "GARBAGE", "Nagad initialize answered without a payment reference or challenge", true);
    }
    return { keys, paymentReferenceId, challenge };
  }

  /** Nagad refuses with `{reason, message}` (HTTP 4xx): a definite answer, not worth retrying. */
  private refusal(answer: GatewayAnswer, label: string): void {
    const reason = field(answer.body, "reason");
    if (reason) {
      const message = field(answer.body, "message");
      throw new GatewayError("nagad", reason, `${label}: Nagad refused (${reason}${message ? `: ${message}` : ""})`, false);
    }
    if (answer.status >= 400) throw new GatewayError("nagad", `HTTP_${answer.status}`, `${label} answered HTTP ${answer.status}`, false);
  }

  /** Nagad's X-KM headers; X-KM-IP-V4 is the shopper's address (an IPv4-mapped IPv6 one unwrapped). */
  private headers(clientIp: string): Record<string, string> {
    return {
      "Content-Type": "application/json",
      "X-KM-Api-Version": "v-0.2.0",
      "X-KM-IP-V4": clientIp.replace(/^::ffff:/i, ""),
      "X-KM-Client-Type": "PC_WEB",
    };
  }
}
