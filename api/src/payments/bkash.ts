// bKash tokenized checkout client (API v1.2.0-beta): token grant, create, execute, payment/status and refund.
// bKash answers most refusals with HTTP 200 and a statusCode other than "0000" (or an errorCode), so every answer
// is read for those before anything else.
import { createHash } from "node:crypto";
import { formatAmount, parseAmount, reportMismatch } from "./amounts";
import {
  GatewayError,
  type CallbackInput,
  type GatewayCredentials,
  type GatewayOrder,
  type LostRefund,
  type PaymentGateway,
  type Settlement,
  type StartResult,
} from "./gateway";
import { callGateway, field, type GatewayAnswer, type GatewayClientOptions } from "./http";

/** A token is used until this long before bKash says it expires, so it never lapses in flight. */
const TOKEN_MARGIN_MS = 5 * 60 * 1000;
/** Tokens of this many credential sets are kept at most (a process serves every brand's keys). */
const MAX_CACHED_TOKENS = 1000;
/** "The payment has already been completed" and "Payment execution already been called before". */
const ALREADY_EXECUTED = new Set(["2062", "2117", "2068"]);
const INVALID_PAYMENT_STATE = "2056";
/** The refund status query's answer for a transaction with no refund. */
const NO_SUCH_REFUND = "2028";
const MAINTENANCE = "503";
const PAYMENT_ID = /^[A-Za-z0-9]{1,64}$/;

type CachedToken = { idToken: Promise<string>; expiresAt: number };

/** bKash's refusal in an answer: its code and message, or undefined when the answer is a success. */
function refusal(body: Record<string, unknown>): { code: string; message: string } | undefined {
  const errorCode = field(body, "errorCode");
  if (errorCode) return { code: errorCode, message: field(body, "errorMessage") ?? "" };
  const statusCode = field(body, "statusCode");
  if (statusCode !== undefined && statusCode !== "0000") return { code: statusCode, message: field(body, "statusMessage") ?? "" };
  return undefined;
}

export class BkashGateway implements PaymentGateway {
  readonly method = "bkash" as const;
  readonly currencies: readonly string[] = ["BDT"];
  readonly credentialFields = [
    { name: "username", label: "Username", secret: false },
    { name: "password", label: "Password", secret: true },
    { name: "app_key", label: "App key", secret: false },
    { name: "app_secret", label: "App secret", secret: true },
  ] as const;
  readonly refundSupported = true;
  private readonly tokens = new Map<string, CachedToken>();

  constructor(private readonly options: GatewayClientOptions) {}

  /** A fresh token grant: bKash checks all four values there. Unreachable or 5xx throws (retryable), not "refused". */
  async checkCredentials(creds: GatewayCredentials): Promise<{ ok: true } | { ok: false; reason: string }> {
    const missing = this.credentialFields.find((f) => !creds[f.name]);
    if (missing) return { ok: false, reason: `${missing.label} is required.` };
    try {
      await this.grant(creds);
      return { ok: true };
    } catch (error) {
      if (error instanceof GatewayError && !error.retryable) return { ok: false, reason: error.message };
      throw error;
    }
  }

  async start(order: GatewayOrder, callbackUrl: string, creds: GatewayCredentials): Promise<StartResult> {
    if (order.currency !== "BDT") throw new GatewayError("bkash", "CURRENCY", `bKash takes BDT only, not ${order.currency}`, false);
    const answer = await this.api(creds, "/create", "bKash create payment", {
      mode: "0011",
      payerReference: order.customer?.phone?.replace(/\D/g, "").slice(0, 15) || order.reference,
      callbackURL: callbackUrl,
      amount: formatAmount(order.amountMinor),
      currency: "BDT",
      intent: "sale",
      merchantInvoiceNumber: order.reference,
    });
    const refused = refusal(answer.body);
    if (refused) throw this.refusedError(refused, "bKash refused the payment");
    const paymentID = field(answer.body, "paymentID");
    const bkashURL = field(answer.body, "bkashURL");
    if (!paymentID || !PAYMENT_ID.test(paymentID) || !bkashURL || !/^https?:\/\//.test(bkashURL)) {
      throw new GatewayError("bkash", "GARBAGE", "bKash create payment answered without a paymentID or bkashURL", true);
    }
    const mismatch = reportMismatch(order, {
      reference: field(answer.body, "merchantInvoiceNumber"),
      amount: field(answer.body, "amount"),
      currency: field(answer.body, "currency"),
    });
    if (mismatch) throw new GatewayError("bkash", "MISMATCH", `bKash created a different payment: ${mismatch}`, false);
    return { redirectUrl: bkashURL, gatewayPaymentId: paymentID };
  }

  callbackKey(input: CallbackInput): { gatewayPaymentId: string } | null {
    const paymentID = input.query.paymentID;
    return paymentID && PAYMENT_ID.test(paymentID) ? { gatewayPaymentId: paymentID } : null;
  }

  /**
   * The callback's status says what the shopper did; only "success" is acted on, by executing the payment, which is
   * where bKash moves the money. Cancel and failure are not believed alone (anyone who saw the paymentID can write
   * that URL, and an execute whose answer was lost may have taken the money): bKash's payment/status decides, and a
   * payment it still reports open stays pending. A second execute (a replayed callback) is answered 2062/2117 by
   * bKash and settled from payment/status instead.
   */
  async complete(order: GatewayOrder, input: CallbackInput, creds: GatewayCredentials): Promise<Settlement> {
    const paymentID = input.query.paymentID;
    if (!order.gatewayPaymentId || paymentID !== order.gatewayPaymentId) {
      return { outcome: "mismatch", reason: "the callback names another bKash payment than this order's" };
    }
    if (input.query.status !== "success") return this.verify(order, creds);
    const answer = await this.api(creds, "/execute", "bKash execute payment", { paymentID });
    const refused = refusal(answer.body);
    if (refused) {
      if (ALREADY_EXECUTED.has(refused.code) || refused.code === INVALID_PAYMENT_STATE) return this.verify(order, creds);
      return { outcome: "failed", reason: `bKash refused the payment: ${refused.code} ${refused.message}`.trim() };
    }
    if (field(answer.body, "transactionStatus") !== "Completed") return this.verify(order, creds);
    return this.settle(order, answer);
  }

  /** payment/status: bKash's own record of the payment, checked against ours. */
  async verify(order: GatewayOrder, creds: GatewayCredentials): Promise<Settlement> {
    if (!order.gatewayPaymentId) return { outcome: "failed", reason: "No bKash payment was created for this order." };
    const answer = await this.api(creds, "/payment/status", "bKash payment status", { paymentID: order.gatewayPaymentId });
    const refused = refusal(answer.body);
    // We created this paymentID, and an execute whose answer was lost may have completed it: a refusal to report
    // it proves nothing was paid no more than a time-out does.
    if (refused) return { outcome: "pending", uncertain: true, reason: `bKash would not report the payment: ${refused.code} ${refused.message}`.trim() };
    const status = field(answer.body, "transactionStatus");
    if (status === "Completed") return this.settle(order, answer);
    if (status === "Cancelled") return { outcome: "cancelled", reason: "The payment was cancelled at bKash." };
    if (status === "Failed" || status === "Expired") return { outcome: "failed", reason: `bKash reports the payment ${status.toLowerCase()}.` };
    return { outcome: "pending", reason: `bKash reports the payment ${status ?? "without a status"}.` };
  }

  async refund(
    order: GatewayOrder,
    amountMinor: number,
    reason: string,
    creds: GatewayCredentials,
  ): Promise<{ refundId: string; state: "refunded" | "pending" }> {
    if (!order.gatewayPaymentId || !order.gatewayTrxId) throw new GatewayError("bkash", "NOT_PAID", "the order has no bKash transaction to refund", false);
    if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0 || amountMinor > order.amountMinor) {
      throw new GatewayError("bkash", "AMOUNT", "a refund must be more than zero and at most the amount paid", false);
    }
    const amount = formatAmount(amountMinor);
    const answer = await this.api(creds, "/payment/refund", "bKash refund", {
      paymentID: order.gatewayPaymentId,
      amount,
      trxID: order.gatewayTrxId,
      sku: order.uid.slice(0, 255),
      reason: reason.slice(0, 255) || "refund",
    });
    const refused = refusal(answer.body);
    if (refused) throw this.refusedError(refused, "bKash refused the refund");
    const refundTrxID = field(answer.body, "refundTrxID");
    if (!refundTrxID) throw new GatewayError("bkash", "GARBAGE", "bKash refund answered without a refundTrxID", true);
    // The amount is compared as money, not as text: bKash may write back "50" for the "50.00" we sent.
    if (field(answer.body, "originalTrxID") !== order.gatewayTrxId || parseAmount(field(answer.body, "amount")) !== amountMinor) {
      throw new GatewayError("bkash", "MISMATCH", "bKash refunded another transaction or amount than asked", false);
    }
    return { refundId: refundTrxID, state: field(answer.body, "transactionStatus") === "Completed" ? "refunded" : "pending" };
  }

  /**
   * The refund status query (the refund API with only paymentID and trxID): bKash's latest refund of the payment. A
   * refund we did not record, of the amount asked, is the one whose answer was lost; none, or one we recorded, means
   * it was not made (the order allows one refund in flight at a time).
   */
  async findRefund(order: GatewayOrder, amountMinor: number, knownRefundIds: readonly string[], creds: GatewayCredentials): Promise<LostRefund> {
    if (!order.gatewayPaymentId || !order.gatewayTrxId) return { outcome: "not_made", reason: "the order has no bKash transaction to refund" };
    const answer = await this.api(creds, "/payment/refund", "bKash refund status", { paymentID: order.gatewayPaymentId, trxID: order.gatewayTrxId });
    const refused = refusal(answer.body);
    if (refused?.code === NO_SUCH_REFUND) return { outcome: "not_made", reason: "bKash has no refund of this payment" };
    if (refused) return { outcome: "unknown", reason: `bKash would not report the refund: ${refused.code} ${refused.message}`.trim() };
    const refundTrxID = field(answer.body, "refundTrxID");
    if (!refundTrxID || field(answer.body, "originalTrxID") !== order.gatewayTrxId) return { outcome: "unknown", reason: "bKash reported a refund without its id or of another transaction" };
    if (knownRefundIds.includes(refundTrxID)) return { outcome: "not_made", reason: `bKash's latest refund of this payment is ${refundTrxID}, recorded already` };
    if (parseAmount(field(answer.body, "amount")) !== amountMinor) return { outcome: "unknown", reason: `bKash's latest refund, ${refundTrxID}, is of another amount than asked` };
    return { outcome: "made", refundId: refundTrxID, state: field(answer.body, "transactionStatus") === "Completed" ? "refunded" : "pending" };
  }

  /** A Completed report counts as paid only when it is our payment, reference, amount and currency. */
  private settle(order: GatewayOrder, answer: GatewayAnswer): Settlement {
    const trxID = field(answer.body, "trxID");
    const paymentID = field(answer.body, "paymentID");
    if (!paymentID || paymentID !== order.gatewayPaymentId) {
      return { outcome: "mismatch", reason: "bKash reported another paymentID than this order's" };
    }
    const mismatch = reportMismatch(order, {
      reference: field(answer.body, "merchantInvoiceNumber"),
      amount: field(answer.body, "amount"),
      currency: field(answer.body, "currency"),
    });
    if (mismatch) return { outcome: "mismatch", reason: mismatch };
    if (!trxID) return { outcome: "pending", reason: "bKash reported the payment completed without a trxID." };
    return { outcome: "paid", gatewayPaymentId: paymentID, gatewayTrxId: trxID, detail: `bKash trxID ${trxID}` };
  }

  /** A call with the cached token; a 401 (token expired or revoked early) gets one fresh grant and one retry. */
  private async api(creds: GatewayCredentials, path: string, label: string, body: Record<string, string>): Promise<GatewayAnswer> {
    for (let attempt = 0; ; attempt += 1) {
      const idToken = await this.token(creds);
      const answer = await callGateway("bkash", {
        method: "POST",
        url: `${this.options.baseUrl}${path}`,
        headers: { "Content-Type": "application/json", Authorization: idToken, "X-APP-Key": creds.app_key ?? "" },
        body: JSON.stringify(body),
        timeoutMs: this.options.timeoutMs,
        label,
      });
      if (answer.status === 401 || answer.status === 403) {
        this.tokens.delete(this.tokenKey(creds));
        if (attempt === 0) continue;
        throw new GatewayError("bkash", "TOKEN_REFUSED", `${label}: bKash refused a freshly granted token (HTTP ${answer.status})`, false);
      }
      if (answer.status >= 400) throw new GatewayError("bkash", `HTTP_${answer.status}`, `${label} answered HTTP ${answer.status}`, false);
      if (refusal(answer.body)?.code === MAINTENANCE) throw new GatewayError("bkash", "MAINTENANCE", `${label}: bKash is under maintenance`, true);
      return answer;
    }
  }

  /** The cached id_token for these credentials, granting one when there is none or it is about to expire. */
  private token(creds: GatewayCredentials): Promise<string> {
    const key = this.tokenKey(creds);
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.idToken;
    if (this.tokens.size >= MAX_CACHED_TOKENS) {
      for (const [k, t] of this.tokens) if (t.expiresAt <= Date.now()) this.tokens.delete(k);
      if (this.tokens.size >= MAX_CACHED_TOKENS) this.tokens.delete(this.tokens.keys().next().value as string);
    }
    // The promise is cached, so concurrent calls share one grant; a failed grant is not kept.
    const entry: CachedToken = { idToken: Promise.resolve(""), expiresAt: Infinity };
    entry.idToken = this.grant(creds).then(
      ({ idToken, expiresInS }) => {
        entry.expiresAt = Date.now() + expiresInS * 1000 - Math.min(TOKEN_MARGIN_MS, (expiresInS * 1000) / 2);
        return idToken;
      },
      (error: unknown) => {
        if (this.tokens.get(key) === entry) this.tokens.delete(key);
        throw error;
      },
    );
    this.tokens.set(key, entry);
    return entry.idToken;
  }

  private async grant(creds: GatewayCredentials): Promise<{ idToken: string; expiresInS: number }> {
    const answer = await callGateway("bkash", {
      method: "POST",
      url: `${this.options.baseUrl}/token/grant`,
      headers: { "Content-Type": "application/json", username: creds.username ?? "", password: creds.password ?? "" },
      body: JSON.stringify({ app_key: creds.app_key ?? "", app_secret: creds.app_secret ?? "" }),
      timeoutMs: this.options.timeoutMs,
      label: "bKash token grant",
    });
    if (answer.status >= 400) {
      throw new GatewayError("bkash", "CREDENTIALS_REFUSED", `bKash refused the username or password (HTTP ${answer.status}).`, false);
    }
    const refused = refusal(answer.body);
    if (refused?.code === MAINTENANCE) throw new GatewayError("bkash", "MAINTENANCE", "bKash is under maintenance", true);
    if (refused) throw new GatewayError("bkash", "CREDENTIALS_REFUSED", `bKash refused the app key or secret: ${refused.code} ${refused.message}`.trim(), false);
    const idToken = field(answer.body, "id_token");
    const expiresIn = Number(answer.body.expires_in);
    if (!idToken) throw new GatewayError("bkash", "GARBAGE", "bKash token grant answered without an id_token", true);
    return { idToken, expiresInS: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600 };
  }

  /** Tokens are cached per credential set, under a hash so the map holds no password. */
  private tokenKey(creds: GatewayCredentials): string {
    return createHash("sha256")
      .update(JSON.stringify([this.options.baseUrl, creds.username, creds.password, creds.app_key, creds.app_secret]))
      .digest("base64url");
  }

  private refusedError(refused: { code: string; message: string }, what: string): GatewayError {
    return new GatewayError("bkash", refused.code, `${what}: ${refused.code} ${refused.message}`.trim(), false);
  }
}
