// A local bKash tokenized checkout (v1.2.0-beta) for tests and `npm start`: token grant with username/password
// headers, create → bkashURL → the shopper's approve/cancel page → callbackURL?paymentID&status, execute (once),
// payment/status and refund, with bKash's error envelope (HTTP 200 and a statusCode) and 24-hour payment ids.
import Router, { type RouterMiddleware } from "@koa/router";
import type Koa from "koa";
import { approveRouter, isAmount, isHttpUrl, randomCode, randomHex, readBody, seeOther, serveSim, showCheckout, SimState, takeDecision, text, withQuery } from "./common";
import type { Decision, RunningSim, SimNaming, SimOptions } from "./common";

/** Where bKash serves the tokenized checkout API, under its host. */
const API_PATH = "/v1.2.0-beta/tokenized/checkout";
const TOKEN_TTL_S = 3600;
/** bKash: "paymentID is valid for 24 hours". */
const PAYMENT_TTL_MS = 24 * 3600 * 1000;
const NAMING: SimNaming = { gateway: "bKash", noun: "payment" };

/** bKash's codes (developer.bka.sh, Error Codes) for what this simulator checks. */
const ERRORS = {
  invalidAppKey: ["2001", "Invalid App Key"],
  invalidPaymentId: ["2002", "Invalid Payment ID"],
  invalidAmount: ["2006", "Invalid amount"],
  invalidCurrency: ["2007", "Invalid currency"],
  invalidIntent: ["2008", "Invalid intent"],
  overRefund: ["2026", "The reversal amount cannot be greater than the original transaction amount"],
  noSuchTrx: ["2028", "Reverse failed because the transaction serial number does not exist"],
  invalidInvoice: ["2031", "Invalid merchant invoice number"],
  invalidCallback: ["2049", "Invalid Merchant Callback URL"],
  invalidState: ["2056", "Invalid Payment State"],
  invalidMode: ["2063", "Mode is not valid as per request data"],
  missingField: ["2065", "Mandatory field missing"],
  alreadyExecuted: ["2117", "Payment execution already been called before"],
} as const;

type Status = "Initiated" | "Completed" | "Cancelled" | "Failed";
type Payment = {
  paymentID: string;
  amount: string;
  currency: string;
  intent: string;
  merchantInvoiceNumber: string;
  payerReference: string;
  callbackURL: string;
  createdAt: number;
  status: Status;
  /** The shopper approved on the bKash page; execute then completes it. */
  authorized: boolean;
  executed: boolean;
  trxID?: string;
  executedAt?: number;
  refunds: Array<{ refundTrxID: string; amount: string; at: number }>;
};

/** bKash's time format: "2019-08-07T11:12:34:978 GMT+0600" (Dhaka time, milliseconds after a colon). */
function bkashTime(ms: number): string {
  const iso = new Date(ms + 6 * 3600 * 1000).toISOString();
  return `${iso.slice(0, 19)}:${iso.slice(20, 23)} GMT+0600`;
}

/** Poisha of a decimal amount string the simulator accepted. */
function minor(amount: string): number {
  const [whole, fraction = ""] = amount.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

export async function startBkashSim(opts: SimOptions = {}): Promise<RunningSim> {
  const state = new SimState();
  const credentials = {
    username: opts.credentials?.username ?? `sim-merchant-${randomHex(4)}`,
    password: opts.credentials?.password ?? randomHex(12),
    app_key: opts.credentials?.app_key ?? randomHex(13),
    app_secret: opts.credentials?.app_secret ?? randomHex(24),
  };
  const paymentTtlMs = opts.paymentTtlMs ?? PAYMENT_TTL_MS;
  const tokens = new Map<string, number>();
  const payments = new Map<string, Payment>();
  let origin = "";

  const fail = (ctx: Koa.Context, [code, message]: readonly [string, string]) => {
    ctx.body = { statusCode: code, statusMessage: message };
  };
  const expired = (p: Payment) => !p.executed && state.now() > p.createdAt + paymentTtlMs;
  const reportedStatus = (p: Payment) => (p.status === "Initiated" && expired(p) ? "Expired" : p.status);
  const callbackFor = (p: Payment, status: Decision) =>
    withQuery(p.callbackURL, { paymentID: p.paymentID, status, signature: randomHex(10), apiVersion: "1.2.0-beta" });

  /** The shopper's decision on the bKash page; a second decision changes nothing. */
  const decide = (p: Payment, decision: Decision) => {
    if (p.status === "Initiated" && !p.authorized && !expired(p)) {
      if (decision === "success") p.authorized = true;
      else p.status = decision === "cancel" ? "Cancelled" : "Failed";
    }
    const outcome = p.authorized || p.status === "Completed" ? "success" : p.status === "Cancelled" ? "cancel" : "failure";
    return callbackFor(p, outcome);
  };

  const api = new Router({ prefix: API_PATH });
  api.use(state.faults({ statusCode: "503", statusMessage: "System is undergoing maintenance. Please try again later" }));
  api.use(async (ctx, next) => {
    ctx.state.body = await readBody(ctx);
    await next();
  });

  api.post("/token/grant", (ctx) => {
    if (ctx.get("username") !== credentials.username || ctx.get("password") !== credentials.password) {
      ctx.status = 401;
      ctx.body = { message: "Unauthorized" };
      return;
    }
    const body = ctx.state.body as Record<string, unknown> | undefined;
    if (text(body, "app_key") !== credentials.app_key || text(body, "app_secret") !== credentials.app_secret) {
      return fail(ctx, ERRORS.invalidAppKey);
    }
    const idToken = `sim.${randomHex(24)}`;
    tokens.set(idToken, state.now() + TOKEN_TTL_S * 1000);
    ctx.body = {
      statusCode: "0000",
      statusMessage: "Successful",
      id_token: idToken,
      token_type: "Bearer",
      expires_in: TOKEN_TTL_S,
      refresh_token: `sim.${randomHex(24)}`,
    };
  });

  // Every other call: the raw id_token in Authorization (no "Bearer"), the app key in X-APP-Key.
  const authorised: RouterMiddleware = async (ctx, next) => {
    const expiresAt = tokens.get(ctx.get("authorization"));
    if (expiresAt === undefined) {
      ctx.status = 401;
      ctx.body = { message: "Unauthorized" };
      return;
    }
    if (state.now() >= expiresAt) {
      ctx.status = 401;
      ctx.body = { message: "The incoming token has expired" };
      return;
    }
    if (ctx.get("x-app-key") !== credentials.app_key) return fail(ctx, ERRORS.invalidAppKey);
    await next();
  };

  api.post("/create", authorised, (ctx) => {
    const body = ctx.state.body as Record<string, unknown> | undefined;
    const fields = ["mode", "payerReference", "callbackURL", "amount", "currency", "intent", "merchantInvoiceNumber"] as const;
    if (fields.some((name) => text(body, name) === undefined)) return fail(ctx, ERRORS.missingField);
    const [mode, payerReference, callbackURL, amount, currency, intent, merchantInvoiceNumber] = fields.map((name) => text(body, name) as string);
    if (mode !== "0011") return fail(ctx, ERRORS.invalidMode);
    if (!isAmount(amount)) return fail(ctx, ERRORS.invalidAmount);
    if (currency !== "BDT") return fail(ctx, ERRORS.invalidCurrency);
    if (intent !== "sale") return fail(ctx, ERRORS.invalidIntent);
    if (!/^[\w-]{1,255}$/.test(merchantInvoiceNumber)) return fail(ctx, ERRORS.invalidInvoice);
    if (!isHttpUrl(callbackURL)) return fail(ctx, ERRORS.invalidCallback);
    const payment: Payment = {
      paymentID: `TR0011${randomCode(14)}${Date.now().toString(36).toUpperCase()}`,
      amount,
      currency,
      intent,
      merchantInvoiceNumber,
      payerReference,
      callbackURL,
      createdAt: state.now(),
      status: "Initiated",
      authorized: false,
      executed: false,
      refunds: [],
    };
    payments.set(payment.paymentID, payment);
    ctx.body = {
      paymentID: payment.paymentID,
      bkashURL: `${origin}/checkout?paymentId=${payment.paymentID}&hash=${randomHex(16)}&mode=0011&apiVersion=v1.2.0-beta`,
      callbackURL,
      successCallbackURL: callbackFor(payment, "success"),
      failureCallbackURL: callbackFor(payment, "failure"),
      cancelledCallbackURL: callbackFor(payment, "cancel"),
      amount,
      intent,
      currency,
      paymentCreateTime: bkashTime(payment.createdAt),
      transactionStatus: "Initiated",
      merchantInvoiceNumber,
      statusCode: "0000",
      statusMessage: "Successful",
    };
  });

  api.post("/execute", authorised, (ctx) => {
    const paymentID = text(ctx.state.body, "paymentID");
    if (!paymentID) return fail(ctx, ERRORS.missingField);
    const p = payments.get(paymentID);
    if (!p) return fail(ctx, ERRORS.invalidPaymentId);
    if (p.executed) return fail(ctx, ERRORS.alreadyExecuted);
    if (!p.authorized || expired(p)) return fail(ctx, ERRORS.invalidState);
    p.executed = true;
    p.status = "Completed";
    p.trxID = randomCode(10);
    p.executedAt = state.now();
    ctx.body = state.report({
      statusCode: "0000",
      statusMessage: "Successful",
      paymentID: p.paymentID,
      payerReference: p.payerReference,
      customerMsisdn: "01770618575",
      trxID: p.trxID,
      amount: p.amount,
      transactionStatus: "Completed",
      paymentExecuteTime: bkashTime(p.executedAt),
      currency: p.currency,
      intent: p.intent,
      merchantInvoiceNumber: p.merchantInvoiceNumber,
    });
  });

  api.post("/payment/status", authorised, (ctx) => {
    const paymentID = text(ctx.state.body, "paymentID");
    if (!paymentID) return fail(ctx, ERRORS.missingField);
    const p = payments.get(paymentID);
    if (!p) return fail(ctx, ERRORS.invalidPaymentId);
    ctx.body = state.report({
      paymentID: p.paymentID,
      mode: "0011",
      paymentCreateTime: bkashTime(p.createdAt),
      ...(p.executedAt !== undefined ? { paymentExecuteTime: bkashTime(p.executedAt) } : {}),
      amount: p.amount,
      currency: p.currency,
      intent: p.intent,
      merchantInvoiceNumber: p.merchantInvoiceNumber,
      ...(p.trxID ? { trxID: p.trxID, customerMsisdn: "01770618575" } : {}),
      transactionStatus: reportedStatus(p),
      verificationStatus: p.executed ? "Complete" : "Incomplete",
      payerReference: p.payerReference,
      statusCode: "0000",
      statusMessage: "Successful",
    });
  });

  // With an amount, a refund; with only paymentID and trxID, the refund status (both as bKash's refund API).
  api.post("/payment/refund", authorised, (ctx) => {
    const body = ctx.state.body as Record<string, unknown> | undefined;
    const paymentID = text(body, "paymentID");
    const trxID = text(body, "trxID");
    if (!paymentID || !trxID) return fail(ctx, ERRORS.missingField);
    const p = payments.get(paymentID);
    if (!p) return fail(ctx, ERRORS.invalidPaymentId);
    if (p.status !== "Completed" || p.trxID !== trxID) return fail(ctx, ERRORS.noSuchTrx);
    const amount = text(body, "amount");
    if (amount === undefined) {
      const last = p.refunds.at(-1);
      if (!last) return fail(ctx, ERRORS.noSuchTrx);
      ctx.body = {
        originalTrxID: p.trxID,
        refundTrxID: last.refundTrxID,
        transactionStatus: "Completed",
        amount: last.amount,
        currency: p.currency,
        charge: "0.00",
        completedTime: bkashTime(last.at),
      };
      return;
    }
    if (!text(body, "sku") || !text(body, "reason")) return fail(ctx, ERRORS.missingField);
    if (!isAmount(amount)) return fail(ctx, ERRORS.invalidAmount);
    const refunded = p.refunds.reduce((sum, r) => sum + minor(r.amount), 0);
    if (refunded + minor(amount) > minor(p.amount)) return fail(ctx, ERRORS.overRefund);
    const refund = { refundTrxID: randomCode(10), amount, at: state.now() };
    p.refunds.push(refund);
    ctx.body = state.report({
      completedTime: bkashTime(refund.at),
      transactionStatus: "Completed",
      originalTrxID: p.trxID,
      refundTrxID: refund.refundTrxID,
      amount,
      currency: p.currency,
      charge: "0.00",
    });
  });

  const control = approveRouter(API_PATH, { ...NAMING, unknown: "no such payment" }, {
    find: (id, reference) => (id ? payments.get(id) : [...payments.values()].reverse().find((x) => x.merchantInvoiceNumber === reference)),
    expired,
    decide: (p, outcome) => ({ redirect: decide(p, outcome) }),
  });

  // The shopper's side, at bkashURL.
  const shopper = new Router();
  shopper.get("/checkout", (ctx) =>
    showCheckout(ctx, NAMING, payments.get(String(ctx.query.paymentId ?? "")), (p) => {
      if (expired(p)) return "expired";
      if (p.status !== "Initiated" || p.authorized) return "finished";
      return {
        merchant: "the merchant",
        amount: p.amount,
        currency: p.currency,
        reference: p.merchantInvoiceNumber,
        action: `${origin}/checkout/decide`,
        hidden: { paymentId: p.paymentID },
      };
    }),
  );
  shopper.post("/checkout/decide", (ctx) =>
    takeDecision(ctx, NAMING, (body) => payments.get(text(body, "paymentId") ?? ""), expired, (p, decision) => seeOther(ctx, decide(p, decision))),
  );

  const server = await serveSim(state, opts, API_PATH, { control, shopper, api });
  origin = server.origin;
  return { baseUrl: server.baseUrl, control: state.control, credentials, approve: server.approve, stop: server.stop };
}
