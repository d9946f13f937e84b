// A local Nagad payment gateway (API v-0.2.0) for tests and `npm start`. It holds the PG's RSA private key and the
// merchant's public key: it decrypts and checks every merchant message, answers encrypted to the merchant and signed
// by the PG, runs the challenge round trip, then the shopper's approve/cancel page, the callback to
// merchantCallbackURL with payment_ref_id, and verify/payment.
// Its cryptography is node-forge's throughout, independently of the client's node:crypto encryption and signing,
// so the two cross-check each other rather than sharing a mistake.
import { generateKeyPairSync, createPrivateKey, createPublicKey } from "node:crypto";
import Router, { type RouterMiddleware } from "@koa/router";
import type Koa from "koa";
import forge from "node-forge";
import { approveRouter, isAmount, isHttpUrl, randomCode, randomDigits, randomHex, readBody, seeOther, serveSim, showCheckout, SimState, takeDecision, text, withQuery } from "./common";
import type { Decision, RunningSim, SimNaming, SimOptions } from "./common";

/** Where Nagad serves its API under its host (as on sandbox.mynagad.com). */
const API_PATH = "/remote-payment-gateway-1.0";
const PAYMENT_TTL_MS = 3600 * 1000;
/** How far the merchant's dateTime may be from Nagad's clock. */
const DATETIME_WINDOW_MS = 10 * 60 * 1000;
const CLIENT_TYPES = new Set(["PC_WEB", "MOBILE_WEB", "MOBILE_APP", "WALLET_WEB_VIEW", "BILL_KEY"]);
const NAMING: SimNaming = { gateway: "Nagad", noun: "payment" };

export type NagadSimOptions = SimOptions & {
  /** The PG private key to keep (PEM) with `credentials`, so a restarted stack keeps the brand's keys valid. */
  pgPrivateKeyPem?: string;
};
export type RunningNagadSim = RunningSim & { pgPrivateKeyPem: string };

type Status = "Initiated" | "Ready" | "Success" | "Aborted" | "Failed";
type Payment = {
  paymentRefId: string;
  merchantId: string;
  orderId: string;
  createdAt: number;
  challenge: string;
  challengeUsed: boolean;
  amount?: string;
  callbackUrl?: string;
  additionalMerchantInfo?: unknown;
  status: Status;
  issuerPaymentRefNo?: string;
  issuerPaymentDateTime?: string;
};

/** JSON encrypted to `recipientPublicPem` (PKCS#1 v1.5) and signed SHA256withRSA with `signerPrivatePem`, base64. */
export function forgeSeal(recipientPublicPem: string, signerPrivatePem: string, payload: Record<string, unknown>): { sensitiveData: string; signature: string } {
  const bytes = forge.util.encodeUtf8(JSON.stringify(payload));
  const md = forge.md.sha256.create();
  md.update(bytes);
  return {
    sensitiveData: forge.util.encode64(forge.pki.publicKeyFromPem(recipientPublicPem).encrypt(bytes, "RSAES-PKCS1-V1_5")),
    signature: forge.util.encode64((forge.pki.privateKeyFromPem(signerPrivatePem) as forge.pki.rsa.PrivateKey).sign(md)),
  };
}

/** The inverse of forgeSeal: the payload, or which of Nagad's refusals applies. */
export function forgeOpen(
  recipientPrivatePem: string,
  signerPublicPem: string,
  message: { sensitiveData?: string; signature?: string },
): { payload: Record<string, unknown> } | { error: "InvalidSensitiveData" | "InvalidSignature" } {
  let bytes: string;
  try {
    bytes = (forge.pki.privateKeyFromPem(recipientPrivatePem) as forge.pki.rsa.PrivateKey).decrypt(forge.util.decode64(message.sensitiveData ?? ""), "RSAES-PKCS1-V1_5");
  } catch {
    return { error: "InvalidSensitiveData" };
  }
  const md = forge.md.sha256.create();
  md.update(bytes);
  let valid = false;
  try {
    valid = (forge.pki.publicKeyFromPem(signerPublicPem) as forge.pki.rsa.PublicKey).verify(md.digest().bytes(), forge.util.decode64(message.signature ?? ""));
  } catch {
    valid = false;
  }
  if (!valid) return { error: "InvalidSignature" };
  try {
    const payload: unknown = JSON.parse(forge.util.decodeUtf8(bytes));
    if (payload && typeof payload === "object" && !Array.isArray(payload)) return { payload: payload as Record<string, unknown> };
  } catch {
    // reported below
  }
  return { error: "InvalidSensitiveData" };
}

/** Nagad's dateTime (YmdHis, Asia/Dhaka) back to ms since the epoch, or NaN. */
function parseDhakaDateTime(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4] - 6, +m[5], +m[6]) : Number.NaN;
}

function dhakaDateTime(ms: number): string {
  return new Date(ms + 6 * 3600 * 1000).toISOString().slice(0, 19).replace(/[-T:]/g, "");
}

function rsaPair(): { publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(), privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
}

export async function startNagadSim(opts: NagadSimOptions = {}): Promise<RunningNagadSim> {
  const state = new SimState();
  const given = opts.credentials;
  const pg = opts.pgPrivateKeyPem
    ? { privatePem: opts.pgPrivateKeyPem, publicPem: createPublicKey(opts.pgPrivateKeyPem).export({ type: "spki", format: "pem" }).toString() }
    : rsaPair();
  const merchant = given?.merchant_private_key
    ? { privatePem: given.merchant_private_key, publicPem: createPublicKey(createPrivateKey(given.merchant_private_key)).export({ type: "spki", format: "pem" }).toString() }
    : rsaPair();
  const credentials = {
    merchant_id: given?.merchant_id ?? `683002${randomDigits(9)}`,
    account_number: given?.account_number ?? `017${randomDigits(8)}`,
    merchant_private_key: merchant.privatePem,
    pg_public_key: pg.publicPem,
  };
  const paymentTtlMs = opts.paymentTtlMs ?? PAYMENT_TTL_MS;
  const payments = new Map<string, Payment>();
  let origin = "";

  const refuse = (ctx: Koa.Context, reason: string, message: string) => {
    ctx.status = 400;
    ctx.body = { reason, message };
  };
  const expired = (p: Payment) => p.status !== "Success" && state.now() > p.createdAt + paymentTtlMs;
  const open = (body: Record<string, unknown> | undefined) =>
    forgeOpen(pg.privatePem, merchant.publicPem, { sensitiveData: text(body, "sensitiveData"), signature: text(body, "signature") });

  /** The shopper's decision; returns the merchant callback URL with Nagad's query. */
  const decide = (p: Payment, decision: Decision): string => {
    if (p.status === "Ready" && !expired(p)) {
      if (decision === "success") {
        p.status = "Success";
        p.issuerPaymentRefNo = randomCode(10);
        p.issuerPaymentDateTime = dhakaDateTime(state.now());
      } else {
        p.status = decision === "cancel" ? "Aborted" : "Failed";
      }
    }
    const codes: Record<Status, [string, string]> = {
      Success: ["00_0000_000", "Successful Transaction"],
      Aborted: ["00_1000_001", "Transaction aborted by the customer"],
      Failed: ["00_1000_002", "Transaction failed"],
      Ready: ["00_1000_003", "Transaction not completed"],
      Initiated: ["00_1000_003", "Transaction not completed"],
    };
    const [statusCode, message] = codes[p.status];
    return withQuery(p.callbackUrl ?? "", {
      merchant: p.merchantId,
      order_id: p.orderId,
      payment_ref_id: p.paymentRefId,
      status: p.status,
      status_code: statusCode,
      message,
      payment_dt: p.issuerPaymentDateTime ?? dhakaDateTime(state.now()),
      ...(p.issuerPaymentRefNo ? { issuer_payment_ref: p.issuerPaymentRefNo } : {}),
    });
  };

  const api = new Router({ prefix: API_PATH });
  api.use(state.faults({ reason: "ServiceUnavailable", message: "Service is temporarily unavailable" }));
  api.use(async (ctx, next) => {
    ctx.state.body = await readBody(ctx);
    await next();
  });
  const kmHeaders: RouterMiddleware = async (ctx, next) => {
    if (ctx.get("x-km-api-version") !== "v-0.2.0") return refuse(ctx, "InvalidApiVersion", "X-KM-Api-Version must be v-0.2.0");
    if (!ctx.get("x-km-ip-v4")) return refuse(ctx, "InvalidRequest", "X-KM-IP-V4 is missing");
    if (!CLIENT_TYPES.has(ctx.get("x-km-client-type"))) return refuse(ctx, "InvalidClientType", "X-KM-Client-Type is not valid");
    await next();
  };

  api.post("/api/dfs/check-out/initialize/:merchantId/:orderId", kmHeaders, (ctx) => {
    const { merchantId, orderId } = ctx.params;
    if (merchantId !== credentials.merchant_id) return refuse(ctx, "InvalidMerchant", "Merchant not found");
    if (!/^[A-Za-z0-9]{1,20}$/.test(orderId)) return refuse(ctx, "InvalidOrderId", "Order id must be 1 to 20 letters or digits");
    const body = ctx.state.body as Record<string, unknown> | undefined;
    const dateTime = text(body, "dateTime") ?? "";
    const opened = open(body);
    if ("error" in opened) return refuse(ctx, opened.error, opened.error === "InvalidSignature" ? "Invalid Signature" : "Sensitive data could not be decrypted");
    const sensitive = opened.payload;
    if (sensitive.merchantId !== merchantId || sensitive.orderId !== orderId || sensitive.datetime !== dateTime) {
      return refuse(ctx, "InvalidSensitiveData", "Sensitive data does not match the request");
    }
    if (!(Math.abs(parseDhakaDateTime(dateTime) - Date.now()) <= DATETIME_WINDOW_MS)) return refuse(ctx, "InvalidDateTime", "dateTime is not current");
    if (typeof sensitive.challenge !== "string" || sensitive.challenge.length < 20) return refuse(ctx, "InvalidChallenge", "challenge is missing");
    if (text(body, "accountNumber") !== credentials.account_number) return refuse(ctx, "InvalidAccountNumber", "accountNumber does not belong to the merchant");
    const taken = [...payments.values()].some((p) => p.merchantId === merchantId && p.orderId === orderId && p.status === "Success");
    if (taken) return refuse(ctx, "DuplicateOrderId", "Order id already paid");
    const payment: Payment = {
      paymentRefId: Buffer.from(`${dateTime}.${merchantId}.${orderId}.${randomHex(6)}`).toString("base64url"),
      merchantId,
      orderId,
      createdAt: state.now(),
      challenge: randomHex(20),
      challengeUsed: false,
      status: "Initiated",
    };
    payments.set(payment.paymentRefId, payment);
    ctx.body = forgeSeal(merchant.publicPem, pg.privatePem, {
      paymentReferenceId: payment.paymentRefId,
      challenge: payment.challenge,
      acceptDateTime: dhakaDateTime(state.now()),
    });
  });

  api.post("/api/dfs/check-out/complete/:paymentRefId", kmHeaders, (ctx) => {
    const p = payments.get(ctx.params.paymentRefId);
    if (!p) return refuse(ctx, "InvalidPaymentRefId", "Payment reference not found");
    if (expired(p)) return refuse(ctx, "PaymentExpired", "The payment has expired");
    const body = ctx.state.body as Record<string, unknown> | undefined;
    const opened = open(body);
    if ("error" in opened) return refuse(ctx, opened.error, opened.error === "InvalidSignature" ? "Invalid Signature" : "Sensitive data could not be decrypted");
    const s = opened.payload;
    if (p.challengeUsed || s.challenge !== p.challenge) return refuse(ctx, "InvalidChallenge", "Challenge does not match or was already used");
    if (s.merchantId !== p.merchantId || s.orderId !== p.orderId) return refuse(ctx, "InvalidSensitiveData", "Sensitive data does not match the payment");
    if (s.currencyCode !== "050") return refuse(ctx, "InvalidCurrency", "currencyCode must be 050");
    if (typeof s.amount !== "string" || !isAmount(s.amount)) return refuse(ctx, "InvalidAmount", "amount is not valid");
    const callbackUrl = text(body, "merchantCallbackURL");
    if (!isHttpUrl(callbackUrl)) return refuse(ctx, "InvalidCallbackUrl", "merchantCallbackURL is not a URL");
    p.challengeUsed = true;
    p.amount = s.amount;
    p.callbackUrl = callbackUrl;
    p.additionalMerchantInfo = body?.additionalMerchantInfo;
    p.status = "Ready";
    ctx.body = { status: "Success", callBackUrl: `${origin}/check-out/${p.paymentRefId}` };
  });

  api.get("/api/dfs/verify/payment/:paymentRefId", (ctx) => {
    const p = payments.get(ctx.params.paymentRefId);
    if (!p) return refuse(ctx, "InvalidPaymentRefId", "Payment reference not found");
    const status = expired(p) && p.status !== "Aborted" && p.status !== "Failed" ? "Expired" : p.status;
    ctx.body = state.report({
      merchantId: p.merchantId,
      orderId: p.orderId,
      paymentRefId: p.paymentRefId,
      amount: p.amount ?? "0",
      clientMobileNo: p.status === "Success" ? "017******89" : null,
      merchantMobileNo: credentials.account_number,
      orderDateTime: dhakaDateTime(p.createdAt),
      issuerPaymentDateTime: p.issuerPaymentDateTime ?? null,
      issuerPaymentRefNo: p.issuerPaymentRefNo ?? null,
      additionalMerchantInfo: p.additionalMerchantInfo ?? null,
      status,
      statusCode: status === "Success" ? "000" : "001",
      cancelIssuerDateTime: null,
      cancelIssuerRefNo: null,
    });
  });

  // Only a payment completed for checkout (it has the merchant's callback URL) can be decided on.
  const control = approveRouter(API_PATH, { ...NAMING, unknown: "no completed-for-checkout payment" }, {
    find: (id, reference) => {
      const p = id ? payments.get(id) : [...payments.values()].reverse().find((x) => x.orderId === reference);
      return p?.callbackUrl ? p : undefined;
    },
    expired,
    decide: (p, outcome) => ({ redirect: decide(p, outcome) }),
  });

  const shopper = new Router();
  shopper.get("/check-out/:paymentRefId", (ctx) => {
    const p = payments.get(ctx.params.paymentRefId);
    showCheckout(ctx, NAMING, p?.amount ? p : undefined, (ready) => {
      if (expired(ready)) return "expired";
      if (ready.status !== "Ready") return "finished";
      return {
        merchant: `merchant ${ready.merchantId}`,
        amount: ready.amount!,
        currency: "BDT",
        reference: ready.orderId,
        action: `${origin}/check-out/${ready.paymentRefId}/decide`,
        hidden: {},
      };
    });
  });
  shopper.post("/check-out/:paymentRefId/decide", (ctx) =>
    takeDecision(
      ctx,
      NAMING,
      () => payments.get(ctx.params.paymentRefId),
      (p) => !p.callbackUrl || expired(p),
      (p, decision) => seeOther(ctx, decide(p, decision)),
    ),
  );

  const server = await serveSim(state, opts, API_PATH, { control, shopper, api });
  origin = server.origin;
  return { baseUrl: server.baseUrl, control: state.control, credentials, approve: server.approve, pgPrivateKeyPem: pg.privatePem, stop: server.stop };
}
