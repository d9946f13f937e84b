// SSLCommerz v4 client (cards and wallets): the session API, the IPN / return POSTs checked by verify_sign, the
// validation and transaction-query APIs, and the refund API.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { formatAmount, parseAmount, reportMismatch } from "./amounts";
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

const SESSION_PATH = "/gwprocess/v4/api.php";
const VALIDATION_PATH = "/validator/api/validationserverAPI.php";
/** Transaction query by tran_id, refund initiation and refund status all live at this one path. */
const MERCHANT_API_PATH = "/validator/api/merchantTransIDvalidationAPI.php";
const PAID = new Set(["VALID", "VALIDATED"]);
const TRAN_ID = /^[A-Za-z0-9]{1,20}$/;
/** A signed IPN must cover every field we read from it, or those could have been changed in transit. */
const SIGNED_FIELDS = ["status", "tran_id", "val_id"];

const md5 = (value: string) => createHash("md5").update(value, "utf8").digest("hex");

/**
 * SSLCommerz's verify_sign: the fields named in verify_key plus store_passwd = md5(password), sorted by name,
 * joined "k=v" with "&", then md5. A field named but absent counts as empty, as in SSLCommerz's own PHP library.
 * store_passwd is set last, as that library does: a verify_key naming it must not let the sender's value stand in
 * for the password, or anyone could sign.
 */
export function sslcommerzVerifySign(fields: Readonly<Record<string, string>>, storePassword: string): string {
  const signed = new Map<string, string>();
  for (const name of (fields.verify_key ?? "").split(",")) if (name) signed.set(name, Object.hasOwn(fields, name) ? fields[name] : "");
  signed.set("store_passwd", md5(storePassword));
  return md5(
    [...signed.keys()]
      .sort()
      .map((name) => `${name}=${signed.get(name)}`)
      .join("&"),
  );
}

/** Whether the IPN or return carries a verify_sign that checks (compared in constant time). */
function signatureChecks(fields: Readonly<Record<string, string>>, storePassword: string): boolean {
  const sent = Buffer.from((fields.verify_sign ?? "").toLowerCase(), "utf8");
  const expected = Buffer.from(sslcommerzVerifySign(fields, storePassword), "utf8");
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/**
 * The charge fields a report carries for our order. SSLCommerz settles in taka: `amount`/`currency` are taka, and
 * `currency_amount`/`currency_type` are what the shopper was charged in the order's currency (the same for a BDT
 * order). A BDT order is checked on both pairs, another currency on the second (as SSLCommerz's own library does).
 */
function chargeFields(order: GatewayOrder, report: Readonly<Record<string, unknown>>): Array<[amount: string, currency: string]> {
  const pairs: Array<[string, string]> = [];
  if (order.currency === "BDT") pairs.push(["amount", "currency"]);
  if (order.currency !== "BDT" || report.currency_type !== undefined) pairs.push(["currency_amount", "currency_type"]);
  return pairs;
}

/** Why the report is not our order's charge, as a mismatch, or null when reference, amount and currency match. */
function reportedCharge(order: GatewayOrder, report: Readonly<Record<string, unknown>>): Settlement | null {
  for (const [amount, currency] of chargeFields(order, report)) {
    const mismatch = reportMismatch(order, { reference: report.tran_id, amount: report[amount], currency: report[currency] });
    if (mismatch) return { outcome: "mismatch", reason: mismatch };
  }
  return null;
}

export class SslcommerzGateway implements PaymentGateway {
  readonly method = "sslcommerz" as const;
  /** SSLCommerz's documented set for international cards and wallets. */
  readonly currencies: readonly string[] = ["BDT", "USD", "EUR", "GBP"];
  readonly credentialFields = [
    { name: "store_id", label: "Store ID", secret: false },
    { name: "store_passwd", label: "Store password", secret: true },
  ] as const;
  readonly refundSupported = true;

  constructor(private readonly options: GatewayClientOptions) {}

  /**
   * A transaction query for a tran_id that cannot exist: SSLCommerz answers APIConnect "DONE" (and no transaction)
   * only to a valid store id and password. Unreachable or 5xx throws (retryable).
   */
  async checkCredentials(creds: GatewayCredentials): Promise<{ ok: true } | { ok: false; reason: string }> {
    const missing = this.credentialFields.find((f) => !creds[f.name]);
    if (missing) return { ok: false, reason: `${missing.label} is required.` };
    try {
      await this.merchantApi(creds, { tran_id: `CHK${randomBytes(6).toString("hex")}` }, "SSLCommerz transaction query");
      return { ok: true };
    } catch (error) {
      if (error instanceof GatewayError && !error.retryable) return { ok: false, reason: error.message };
      throw error;
    }
  }

  /**
   * Opens a checkout session. `callbackUrl` is the base of our SSLCommerz routes: the shopper returns to
   * `/return/success|fail|cancel` under it, and SSLCommerz's server posts the IPN to `/ipn`.
   */
  async start(order: GatewayOrder, callbackUrl: string, creds: GatewayCredentials): Promise<StartResult> {
    if (!this.currencies.includes(order.currency)) {
      throw new GatewayError("sslcommerz", "CURRENCY", `SSLCommerz does not take ${order.currency}`, false);
    }
    // SSLCommerz requires the customer fields; a shopper who gave none gets neutral placeholders.
    const form = new URLSearchParams({
      store_id: creds.store_id ?? "",
      store_passwd: creds.store_passwd ?? "",
      total_amount: formatAmount(order.amountMinor),
      currency: order.currency,
      tran_id: order.reference,
      success_url: `${callbackUrl}/return/success`,
      fail_url: `${callbackUrl}/return/fail`,
      cancel_url: `${callbackUrl}/return/cancel`,
      ipn_url: `${callbackUrl}/ipn`,
      cus_name: order.customer?.name?.slice(0, 50) || "Customer",
      cus_email: order.customer?.email?.slice(0, 50) || "customer@example.com",
      cus_add1: "N/A",
      cus_city: "N/A",
      cus_country: "Bangladesh",
      cus_phone: order.customer?.phone?.slice(0, 20) || "N/A",
      shipping_method: "NO",
      num_of_item: "1",
      product_name: order.productName.slice(0, 255) || order.uid,
      product_category: "general",
      product_profile: "general",
      value_a: order.orderId,
      value_b: order.uid,
    });
    const answer = await callGateway("sslcommerz", {
      method: "POST",
      url: `${this.options.baseUrl}${SESSION_PATH}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
      timeoutMs: this.options.timeoutMs,
      label: "SSLCommerz session",
    });
    const pageUrl = field(answer.body, "GatewayPageURL");
    if (field(answer.body, "status") !== "SUCCESS" || !pageUrl) {
      const reason = field(answer.body, "failedreason") || `HTTP ${answer.status}`;
      throw new GatewayError("sslcommerz", "SESSION_REFUSED", `SSLCommerz refused the session: ${reason}`, false);
    }
    if (!/^https?:\/\//.test(pageUrl)) throw new GatewayError("sslcommerz", "GARBAGE", "SSLCommerz answered a GatewayPageURL that is not a URL", true);
    return { redirectUrl: pageUrl, gatewayPaymentId: field(answer.body, "sessionkey") ?? null };
  }

  callbackKey(input: CallbackInput): { reference: string } | null {
    const tranId = input.form?.tran_id ?? input.query.tran_id;
    return tranId && TRAN_ID.test(tranId) ? { reference: tranId } : null;
  }

  /**
   * An IPN or a browser return: only a verify_sign that checks under the store password, over a verify_key that
   * covers the fields we read, may settle the order; anything else is left pending for verify() to decide, so a
   * forged POST can neither pay nor fail an order.
   */
  async complete(order: GatewayOrder, input: CallbackInput, creds: GatewayCredentials): Promise<Settlement> {
    const fields = input.form ?? input.query;
    const signed = new Set((fields.verify_key ?? "").split(","));
    if (!fields.verify_sign || !signatureChecks(fields, creds.store_passwd ?? "")) {
      return { outcome: "pending", reason: "SSLCommerz's verify_sign does not check: the notification was ignored" };
    }
    const status = fields.status ?? "";
    if (!PAID.has(status)) {
      if (!signed.has("status") || !signed.has("tran_id") || fields.tran_id !== order.reference) {
        return { outcome: "pending", reason: "the notification does not sign its status for this order" };
      }
      return this.unpaid(status);
    }
    const unsigned = [...SIGNED_FIELDS, ...chargeFields(order, fields).flat()].find((name) => !signed.has(name));
    if (unsigned) return { outcome: "pending", reason: `the notification does not sign ${unsigned}: ignored` };
    if (fields.store_id !== undefined && fields.store_id !== creds.store_id) return { outcome: "mismatch", reason: "the notification is for another store" };
    const mismatch = reportedCharge(order, fields);
    if (mismatch) return mismatch;
    const valId = fields.val_id ?? "";
    const trx = fields.bank_tran_id || valId;
    if (!valId) return { outcome: "pending", reason: "SSLCommerz reported a valid payment without a val_id" };
    return { outcome: "paid", gatewayPaymentId: valId, gatewayTrxId: trx, detail: `SSLCommerz ${status}, val_id ${valId}, bank_tran_id ${trx}` };
  }

  /**
   * Asks SSLCommerz for the transactions of our tran_id, then re-reads a valid one through the validation API by
   * its val_id: both answers must be VALID or VALIDATED for our tran_id, amount and currency.
   */
  async verify(order: GatewayOrder, creds: GatewayCredentials): Promise<Settlement> {
    const query = await this.merchantApi(creds, { tran_id: order.reference }, "SSLCommerz transaction query");
    const elements = Array.isArray(query.body.element) ? (query.body.element as unknown[]).filter((e): e is Record<string, unknown> => !!e && typeof e === "object") : [];
    const valid = elements.find((e) => PAID.has(String(e.status)) && e.tran_id === order.reference);
    if (!valid) {
      const latest = elements.at(-1);
      return latest ? this.unpaid(String(latest.status)) : { outcome: "pending", reason: "SSLCommerz has no transaction for this order yet." };
    }
    const listed = reportedCharge(order, valid);
    if (listed) return listed;
    const valId = typeof valid.val_id === "string" ? valid.val_id : "";
    const answer = await callGateway("sslcommerz", {
      method: "GET",
      url: `${this.options.baseUrl}${VALIDATION_PATH}?${new URLSearchParams({ val_id: valId, store_id: creds.store_id ?? "", store_passwd: creds.store_passwd ?? "", v: "1", format: "json" })}`,
      timeoutMs: this.options.timeoutMs,
      label: "SSLCommerz validation",
    });
    this.refusedStore(answer, "SSLCommerz validation");
    const status = field(answer.body, "status") ?? "";
    // The transaction query listed it valid: two answers that disagree leave the payment open, never failed.
    if (!PAID.has(status)) return { outcome: "pending", uncertain: true, reason: `SSLCommerz's validation answered ${status || "no status"} for val_id ${valId}, which its transaction query lists as valid.` };
    if (field(answer.body, "val_id") !== valId) return { outcome: "mismatch", reason: "SSLCommerz validated another val_id than asked" };
    const mismatch = reportedCharge(order, answer.body);
    if (mismatch) return mismatch;
    const trx = field(answer.body, "bank_tran_id") || valId;
    return { outcome: "paid", gatewayPaymentId: valId, gatewayTrxId: trx, detail: `SSLCommerz validation ${status}, val_id ${valId}` };
  }

  /** Starts a refund of the bank transaction; SSLCommerz settles it later (refundStatus tells when). */
  async refund(
    order: GatewayOrder,
    amountMinor: number,
    reason: string,
    creds: GatewayCredentials,
  ): Promise<{ refundId: string; state: "refunded" | "pending" }> {
    if (!order.gatewayTrxId) throw new GatewayError("sslcommerz", "NOT_PAID", "the order has no SSLCommerz bank transaction to refund", false);
    if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0 || amountMinor > order.amountMinor) {
      throw new GatewayError("sslcommerz", "AMOUNT", "a refund must be more than zero and at most the amount paid", false);
    }
    const refundMinor = order.currency === "BDT" ? amountMinor : await this.takaShare(order, amountMinor, creds);
    const answer = await this.merchantApi(
      creds,
      {
        bank_tran_id: order.gatewayTrxId,
        refund_amount: formatAmount(refundMinor),
        refund_remarks: reason.slice(0, 255) || "refund",
        refe_id: `${order.reference}R${randomBytes(3).toString("hex")}`,
      },
      "SSLCommerz refund",
    );
    const status = field(answer.body, "status");
    const refundRefId = field(answer.body, "refund_ref_id");
    if (status === "failed" || !refundRefId) {
      const why = field(answer.body, "errorReason") || status || "no refund reference";
      throw new GatewayError("sslcommerz", "REFUND_REFUSED", `SSLCommerz refused the refund: ${why}`, false);
    }
    if (field(answer.body, "bank_tran_id") !== order.gatewayTrxId) {
      throw new GatewayError("sslcommerz", "MISMATCH", "SSLCommerz answered for another bank transaction than asked", false);
    }
    return { refundId: refundRefId, state: "pending" };
  }

  /**
   * SSLCommerz settles and refunds a foreign-currency payment in taka: the refund is the same share of the taka it
   * recorded for our transaction (all of it for a whole refund), never a conversion at today's rate.
   */
  private async takaShare(order: GatewayOrder, amountMinor: number, creds: GatewayCredentials): Promise<number> {
    const query = await this.merchantApi(creds, { tran_id: order.reference }, "SSLCommerz transaction query");
    const elements = Array.isArray(query.body.element) ? (query.body.element as Array<Record<string, unknown>>) : [];
    const paid = elements.find((e) => e && PAID.has(String(e.status)) && e.bank_tran_id === order.gatewayTrxId);
    const taka = paid && !reportedCharge(order, paid) ? parseAmount(paid.amount) : null;
    if (taka === null) throw new GatewayError("sslcommerz", "MISMATCH", "SSLCommerz does not report this payment as ours, so its taka amount is unknown", false);
    return amountMinor === order.amountMinor ? taka : Math.floor((taka * amountMinor) / order.amountMinor);
  }

  /** Where a refund this client started stands: refunded, still processing, or refused after all. */
  async refundStatus(_order: GatewayOrder, refundId: string, creds: GatewayCredentials): Promise<"refunded" | "pending" | "failed"> {
    const answer = await this.merchantApi(creds, { refund_ref_id: refundId }, "SSLCommerz refund status");
    const status = field(answer.body, "status");
    return status === "refunded" ? "refunded" : status === "processing" ? "pending" : "failed";
  }

  private unpaid(status: string): Settlement {
    if (status === "CANCELLED") return { outcome: "cancelled", reason: "The payment was cancelled at SSLCommerz." };
    if (status === "FAILED" || status === "EXPIRED" || status === "UNATTEMPTED" || status === "INVALID_TRANSACTION") {
      return { outcome: "failed", reason: `SSLCommerz reports the payment ${status}.` };
    }
    return { outcome: "pending", reason: `SSLCommerz reports the payment ${status || "without a status"}.` };
  }

  /** A GET to the merchant API (query, refund, refund status) with the store credentials; refusals throw. */
  private async merchantApi(creds: GatewayCredentials, params: Record<string, string>, label: string): Promise<GatewayAnswer> {
    const query = new URLSearchParams({ ...params, store_id: creds.store_id ?? "", store_passwd: creds.store_passwd ?? "", v: "1", format: "json" });
    const answer = await callGateway("sslcommerz", {
      method: "GET",
      url: `${this.options.baseUrl}${MERCHANT_API_PATH}?${query}`,
      timeoutMs: this.options.timeoutMs,
      label,
    });
    this.refusedStore(answer, label);
    return answer;
  }

  /** APIConnect other than DONE: INVALID_REQUEST, FAILED (store id or password wrong) or INACTIVE (store off). */
  private refusedStore(answer: GatewayAnswer, label: string): void {
    const connect = field(answer.body, "APIConnect");
    if (connect !== undefined && connect !== "DONE") {
      throw new GatewayError("sslcommerz", connect, `${label}: SSLCommerz refused the store credentials (${connect}).`, false);
    }
    if (answer.status >= 400) throw new GatewayError("sslcommerz", `HTTP_${answer.status}`, `${label} answered HTTP ${answer.status}`, false);
  }
}
