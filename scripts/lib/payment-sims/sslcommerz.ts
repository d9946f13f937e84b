// A local SSLCommerz (v4) for tests and `npm start`: the session API (url-encoded, multipart/form-data as SSLCommerz's
// own Node SDK sends it, or JSON) → GatewayPageURL, the shopper's approve/cancel page, the IPN it POSTs (form-encoded,
// verify_sign over verify_key) to the merchant's ipn_url before sending the browser back with the same fields, the
// validation API (VALID, then VALIDATED), the transaction query by tran_id and by session key, and refunds with their
// status. The validation and merchant APIs take their parameters by GET or by POST, as SSLCommerz's PHP does: the SDK
// POSTs with the parameters in the query string.
import { createHash } from "node:crypto";
import Router from "@koa/router";
import type Koa from "koa";
import { approveRouter, autoPostPage, isAmount, isHttpUrl, randomCode, randomDigits, randomHex, readBody, requestParams, serveSim, showCheckout, SimState, takeDecision, text } from "./common";
import type { Decision, RunningSim, SimNaming, SimOptions } from "./common";

const SESSION_TTL_MS = 3600 * 1000;
const IPN_TIMEOUT_MS = 5000;
const CURRENCIES = new Set(["BDT", "USD", "EUR", "GBP"]);
const NAMING: SimNaming = { gateway: "SSLCommerz", noun: "session" };
/** SSLCommerz serves its API at the root of its host. */
const API_PATH = "";
/** The simulator's conversion to taka (whole poisha per unit of the currency); real rates move, these do not. */
const POISHA_PER_UNIT: Record<string, number> = { BDT: 1, USD: 120, EUR: 130, GBP: 150 };
const REQUIRED = [
  "total_amount",
  "currency",
  "tran_id",
  "success_url",
  "fail_url",
  "cancel_url",
  "cus_name",
  "cus_email",
  "cus_add1",
  "cus_city",
  "cus_country",
  "cus_phone",
  "shipping_method",
  "product_name",
  "product_category",
  "product_profile",
];

type Status = "PENDING" | "VALID" | "FAILED" | "CANCELLED";
type Session = {
  sessionkey: string;
  form: Record<string, string>;
  createdAt: number;
  status: Status;
  /** What the IPN and the return said, once the shopper decided. */
  report?: Record<string, string>;
  validatedOnce: boolean;
  refunds: Array<{ refundRefId: string; amountMinor: number; initiatedOn: string }>;
};

const md5 = (value: string) => createHash("md5").update(value, "utf8").digest("hex");

function minor(amount: string): number {
  const [whole, fraction = ""] = amount.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0").slice(0, 2));
}
function decimal(amountMinor: number): string {
  return `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, "0")}`;
}
function sqlTime(ms: number): string {
  return new Date(ms + 6 * 3600 * 1000).toISOString().slice(0, 19).replace("T", " ");
}

/** The report with verify_key (every field, sorted), verify_sign (md5) and verify_sign_sha2, as SSLCommerz signs. */
function signed(fields: Record<string, string>, storePassword: string): Record<string, string> {
  const keys = Object.keys(fields).sort();
  const withPassword = { ...fields, store_passwd: md5(storePassword) };
  const base = Object.keys(withPassword)
    .sort()
    .map((key) => `${key}=${withPassword[key as keyof typeof withPassword]}`)
    .join("&");
  return {
    ...fields,
    verify_sign: md5(base),
    verify_key: keys.join(","),
    verify_sign_sha2: createHash("sha256").update(base, "utf8").digest("hex"),
  };
}

export async function startSslcommerzSim(opts: SimOptions = {}): Promise<RunningSim> {
  const state = new SimState();
  const credentials = {
    store_id: opts.credentials?.store_id ?? `simstore${randomDigits(6)}`,
    store_passwd: opts.credentials?.store_passwd ?? `${randomHex(8)}@ssl`,
  };
  const sessionTtlMs = opts.paymentTtlMs ?? SESSION_TTL_MS;
  const sessions = new Map<string, Session>();
  let origin = "";

  const storeOk = (params: Record<string, unknown> | undefined) =>
    text(params, "store_id") === credentials.store_id && text(params, "store_passwd") === credentials.store_passwd;
  const expired = (s: Session) => s.status === "PENDING" && state.now() > s.createdAt + sessionTtlMs;
  const byReference = (tranId: string | undefined) => [...sessions.values()].filter((s) => s.form.tran_id === tranId);

  /** The shopper's decision: builds the signed report once; a second decision changes nothing. */
  const decide = (s: Session, decision: Decision): Record<string, string> => {
    if (s.report) return s.report;
    const now = state.now();
    const currency = s.form.currency;
    const rate = POISHA_PER_UNIT[currency] ?? 1;
    const amountBdt = decimal(minor(s.form.total_amount) * rate);
    s.status = decision === "success" ? "VALID" : decision === "cancel" ? "CANCELLED" : "FAILED";
    const common = {
      tran_id: s.form.tran_id,
      status: s.status,
      tran_date: sqlTime(now),
      amount: amountBdt,
      currency: "BDT",
      currency_type: currency,
      currency_amount: s.form.total_amount,
      currency_rate: `${rate}.0000`,
      store_id: credentials.store_id,
      value_a: s.form.value_a ?? "",
      value_b: s.form.value_b ?? "",
      value_c: s.form.value_c ?? "",
      value_d: s.form.value_d ?? "",
    };
    const fields =
      s.status === "VALID"
        ? {
            ...common,
            val_id: `${sqlTime(now).replace(/\D/g, "").slice(2, 12)}${randomCode(12)}`,
            store_amount: decimal(Math.round(minor(amountBdt) * 0.975)),
            card_type: "VISA-Dutch Bangla",
            card_no: "418117XXXXXX6675",
            bank_tran_id: `${sqlTime(now).replace(/\D/g, "").slice(2, 12)}${randomDigits(8)}`,
            error: "",
            card_issuer: "STANDARD CHARTERED BANK",
            card_brand: "VISA",
            card_sub_brand: "Classic",
            card_issuer_country: "Bangladesh",
            card_issuer_country_code: "BD",
            base_fair: "0.00",
            risk_level: "0",
            risk_title: "Safe",
          }
        : { ...common, error: s.status === "CANCELLED" ? "Cancelled by the customer" : "Declined by the issuer", bank_tran_id: "", card_type: "" };
    s.report = signed(state.report(fields), credentials.store_passwd);
    return s.report;
  };

  /** POSTs the IPN to the merchant's ipn_url (a loopback test server is fine: this is a test server too). */
  const sendIpn = async (s: Session): Promise<{ status: number } | { error: string }> => {
    if (!s.form.ipn_url || !s.report) return { error: "no ipn_url" };
    try {
      const response = await fetch(s.form.ipn_url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(s.report).toString(),
        redirect: "manual",
        signal: AbortSignal.timeout(IPN_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      return { status: response.status };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const returnUrl = (s: Session) => (s.status === "VALID" ? s.form.success_url : s.status === "CANCELLED" ? s.form.cancel_url : s.form.fail_url);

  /** A transaction as the validation API and the transaction query report it. */
  const transaction = (s: Session): Record<string, string> => {
    const { verify_sign: _sign, verify_key: _key, verify_sign_sha2: _sha2, ...report } = s.report ?? {};
    return { ...report, validated_on: s.validatedOnce ? sqlTime(state.now()) : "", gw_version: "", bank_gw: "DBBL" };
  };

  const api = new Router();
  api.use(state.faults({ status: "FAILED", failedreason: "Service Unavailable" }));

  api.post("/gwprocess/v4/api.php", async (ctx) => {
    const form = Object.fromEntries(Object.entries((await readBody(ctx)) ?? {}).map(([k, v]) => [k, String(v)]));
    const failed = (failedreason: string) => (ctx.body = { status: "FAILED", failedreason, sessionkey: "", gw: [], GatewayPageURL: "" });
    if (!storeOk(form)) return failed("Store Credential Error Or Store is De-active");
    const missing = REQUIRED.find((name) => !form[name]);
    if (missing) return failed(`Invalid Information! '${missing}' is missing`);
    if (!CURRENCIES.has(form.currency)) return failed("Invalid currency");
    if (!isAmount(form.total_amount)) return failed("Invalid amount");
    const bdt = minor(form.total_amount) * (POISHA_PER_UNIT[form.currency] ?? 1);
    if (bdt < 1000 || bdt > 50_000_000) return failed("Invalid amount! Amount should be between 10.00 and 500000.00 BDT");
    if (!/^[A-Za-z0-9_-]{1,30}$/.test(form.tran_id)) return failed("Invalid tran_id");
    const urls = ["success_url", "fail_url", "cancel_url", ...(form.ipn_url ? ["ipn_url"] : [])];
    const badUrl = urls.find((name) => !isHttpUrl(form[name]));
    if (badUrl) return failed(`Invalid Information! '${badUrl}' is not a URL`);
    const session: Session = { sessionkey: randomHex(16).toUpperCase(), form, createdAt: state.now(), status: "PENDING", validatedOnce: false, refunds: [] };
    sessions.set(session.sessionkey, session);
    const pageUrl = `${origin}/EasyCheckOut/${session.sessionkey}`;
    ctx.body = {
      status: "SUCCESS",
      failedreason: "",
      sessionkey: session.sessionkey,
      gw: { visa: "city_visa,ebl_visa,visacard", master: "city_master,ebl_master,mastercard", amex: "city_amex", othercards: "", internetbanking: "", mobilebanking: "" },
      redirectGatewayURL: `${origin}/gwprocess/v4/bankgw/indexhtml.php?mamount=${form.total_amount}&ssl_id=${session.sessionkey}&Q=REDIRECT&SESSIONKEY=${session.sessionkey}&tran_type=success&cardname=`,
      directPaymentURLBank: "",
      directPaymentURLCard: "",
      directPaymentURL: "",
      redirectGatewayURLFailed: "",
      GatewayPageURL: pageUrl,
      storeBanner: "",
      storeLogo: "",
      desc: [],
      is_direct_pay_enable: "0",
    };
  });

  const validation: Koa.Middleware = async (ctx) => {
    const params = await requestParams(ctx);
    if (!storeOk(params)) {
      ctx.body = { APIConnect: "FAILED", status: "INVALID_TRANSACTION" };
      return;
    }
    const s = [...sessions.values()].find((x) => x.report?.val_id !== undefined && x.report.val_id === params.val_id);
    if (!s) {
      ctx.body = { APIConnect: "DONE", status: "INVALID_TRANSACTION" };
      return;
    }
    const first = !s.validatedOnce;
    s.validatedOnce = true;
    ctx.body = state.report({ ...transaction(s), status: first ? "VALID" : "VALIDATED", APIConnect: "DONE", emi_instalment: "0", emi_amount: "0.00" });
  };
  api.get("/validator/api/validationserverAPI.php", validation);
  api.post("/validator/api/validationserverAPI.php", validation);

  /** Transaction query (by tran_id or by sessionkey), refund initiation and refund status share this endpoint. */
  const merchantApi: Koa.Middleware = async (ctx) => {
    const params = await requestParams(ctx);
    if (!storeOk(params)) {
      ctx.body = { APIConnect: "FAILED" };
      return;
    }
    if (params.refund_ref_id) {
      const found = [...sessions.values()].flatMap((s) => s.refunds.map((r) => ({ s, r }))).find(({ r }) => r.refundRefId === params.refund_ref_id);
      ctx.body = found
        ? { APIConnect: "DONE", bank_tran_id: found.s.report?.bank_tran_id, tran_id: found.s.form.tran_id, refund_ref_id: found.r.refundRefId, initiated_on: found.r.initiatedOn, refunded_on: sqlTime(state.now()), status: "refunded", errorReason: "" }
        : { APIConnect: "DONE", status: "failed", errorReason: "Invalid refund reference" };
      return;
    }
    if (params.bank_tran_id) {
      const s = [...sessions.values()].find((x) => x.status === "VALID" && x.report?.bank_tran_id === params.bank_tran_id);
      const refuse = (errorReason: string) => (ctx.body = { APIConnect: "DONE", bank_tran_id: params.bank_tran_id, status: "failed", errorReason });
      if (!s?.report) return refuse("Invalid bank transaction ID");
      if (!isAmount(params.refund_amount)) return refuse("Invalid refund amount");
      if (!params.refund_remarks) return refuse("Refund remarks are required");
      const refunded = s.refunds.reduce((sum, r) => sum + r.amountMinor, 0);
      if (refunded + minor(params.refund_amount) > minor(s.report.amount)) return refuse("Refund amount is greater than the transaction amount");
      const refund = { refundRefId: `RF${randomCode(14)}`, amountMinor: minor(params.refund_amount), initiatedOn: sqlTime(state.now()) };
      s.refunds.push(refund);
      ctx.body = { APIConnect: "DONE", bank_tran_id: params.bank_tran_id, trans_id: s.form.tran_id, refund_ref_id: refund.refundRefId, status: "success", errorReason: "" };
      return;
    }
    if (params.sessionkey) {
      // One session, flat (no element list): its status while the shopper decides too.
      const s = sessions.get(params.sessionkey);
      ctx.body = !s
        ? { APIConnect: "DONE", status: "INVALID_TRANSACTION", sessionkey: params.sessionkey }
        : s.report
          ? state.report({ ...transaction(s), status: s.status === "VALID" && s.validatedOnce ? "VALIDATED" : s.status, sessionkey: s.sessionkey, APIConnect: "DONE" })
          : { APIConnect: "DONE", status: expired(s) ? "EXPIRED" : "PENDING", sessionkey: s.sessionkey, tran_id: s.form.tran_id, amount: s.form.total_amount, currency: s.form.currency };
      return;
    }
    const matching = byReference(params.tran_id).filter((s) => s.report || expired(s));
    ctx.body = {
      APIConnect: "DONE",
      no_of_trans_found: matching.length,
      element: matching.map((s) =>
        s.report
          ? state.report({ ...transaction(s), status: s.status === "VALID" && s.validatedOnce ? "VALIDATED" : s.status })
          : { tran_id: s.form.tran_id, status: "EXPIRED", amount: s.form.total_amount, currency: s.form.currency },
      ),
    };
  };
  api.get("/validator/api/merchantTransIDvalidationAPI.php", merchantApi);
  api.post("/validator/api/merchantTransIDvalidationAPI.php", merchantApi);

  const control = approveRouter(API_PATH, { ...NAMING, unknown: "no such session" }, {
    find: (id, reference) => (id ? sessions.get(id) : byReference(reference).at(-1)),
    expired,
    decide: async (s, outcome) => {
      const form = decide(s, outcome);
      const ipn = await sendIpn(s);
      return { redirect: returnUrl(s), form, ipn };
    },
  });

  const shopper = new Router();
  shopper.get("/EasyCheckOut/:sessionkey", (ctx) =>
    showCheckout(ctx, NAMING, sessions.get(ctx.params.sessionkey), (s) => {
      if (expired(s)) return "expired";
      if (s.report) return "finished";
      return {
        merchant: `store ${credentials.store_id}`,
        amount: s.form.total_amount,
        currency: s.form.currency,
        reference: s.form.tran_id,
        action: `${origin}/EasyCheckOut/${s.sessionkey}/decide`,
        hidden: {},
      };
    }),
  );
  // The IPN goes out (once, on the first decision) before the browser is sent back with the same signed fields.
  shopper.post("/EasyCheckOut/:sessionkey/decide", (ctx) =>
    takeDecision(ctx, NAMING, () => sessions.get(ctx.params.sessionkey), expired, async (s, decision) => {
      const fresh = !s.report;
      const form = decide(s, decision);
      if (fresh) await sendIpn(s);
      ctx.type = "html";
      ctx.body = autoPostPage(NAMING.gateway, returnUrl(s), form);
    }),
  );

  const server = await serveSim(state, opts, API_PATH, { control, shopper, api });
  origin = server.origin;
  return { baseUrl: server.baseUrl, control: state.control, credentials, approve: server.approve, stop: server.stop };
}
