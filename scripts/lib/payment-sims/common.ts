// What the three payment gateway simulators share: the running-server plumbing, the test control (injected failures,
// delays, tampered reports, a clock that can be moved on, the shopper's decision without a browser), body parsing and
// the shopper's approve/cancel pages.
import { randomBytes, randomInt } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Router from "@koa/router";
import Koa from "koa";
import getRawBody from "raw-body";
import type { GatewayCredentials } from "../../../api/src/payments/gateway";

export type FailureKind = "503" | "timeout" | "garbage" | "lost";

export type SimControl = {
  /**
   * The next `count` (default 1) API calls fail this way: HTTP 503, no answer at all (the call never reaches the
   * gateway), a body that is not JSON, or `lost`: the call is carried out and its answer never arrives.
   */
  failNext(kind: FailureKind, count?: number): void;
  /** Every API answer waits this long first (0 turns it off). */
  delayMs(ms: number): void;
  /** The next payment report (execute/status/refund, verify, IPN/validation) says these values instead of the true ones. */
  tamperNext(fields: Record<string, string>): void;
  /** Moves the simulator's clock forward, so a test can let a payment or a token expire. */
  advanceTime(ms: number): void;
  /** Back to no failures, no delay, no tampering and the real clock. */
  reset(): void;
};

export type RunningSim = {
  /** The API base the gateway client is configured with (BKASH_BASE_URL and the like). */
  baseUrl: string;
  control: SimControl;
  /** What a brand pastes into Gateway Keys for this simulator. */
  credentials: GatewayCredentials;
  /** POST <baseUrl>/__sim/approve: the shopper's decision without a browser; where the gateway sends the browser. */
  approve(target: { paymentId?: string; reference?: string }, outcome?: "success" | "failure" | "cancel"): Promise<SimApproval>;
  stop(): Promise<void>;
};

/** Where the browser goes after the decision; SSLCommerz POSTs `form` there (after its IPN, whose answer is `ipn`). */
export type SimApproval = { redirect: string; form?: Record<string, string>; ipn?: { status: number } | { error: string } };

/** The shopper's decision at the gateway. */
export type Decision = "success" | "failure" | "cancel";
const DECISIONS: readonly string[] = ["success", "failure", "cancel"];

/** The `approve` of a simulator whose control endpoint is at `<baseUrl>/__sim/approve`. */
function approver(baseUrl: string): RunningSim["approve"] {
  return async (target, outcome = "success") => {
    const response = await fetch(`${baseUrl}/__sim/approve`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...target, outcome }),
    });
    const body = (await response.json()) as SimApproval & { error?: string };
    if (!response.ok) throw new Error(`simulator refused the decision (HTTP ${response.status}): ${body.error ?? ""}`);
    return body;
  };
}

export type SimOptions = {
  host?: "127.0.0.1";
  /** 0 (default) picks a free port. */
  port?: number;
  /** Credentials to accept instead of fresh random ones (so a restarted local stack keeps the brand's keys valid). */
  credentials?: GatewayCredentials;
  /** How long a created payment can be approved and completed. */
  paymentTtlMs?: number;
};

/** A request held by a "timeout" failure is dropped after this long, whether or not the client gave up. */
const HELD_REQUEST_MS = 60_000;
const MAX_BODY_BYTES = 64 * 1024;

/** The control state behind SimControl, read by the simulators' handlers. */
export class SimState {
  private failures: FailureKind[] = [];
  private delay = 0;
  private tamper: Record<string, string> | undefined;
  private offsetMs = 0;
  private readonly held = new Set<() => void>();

  readonly control: SimControl = {
    failNext: (kind, count = 1) => {
      for (let i = 0; i < count; i += 1) this.failures.push(kind);
    },
    delayMs: (ms) => {
      this.delay = Math.max(0, ms);
    },
    tamperNext: (fields) => {
      this.tamper = { ...fields };
    },
    advanceTime: (ms) => {
      this.offsetMs += ms;
    },
    reset: () => {
      this.failures = [];
      this.delay = 0;
      this.tamper = undefined;
      this.offsetMs = 0;
    },
  };

  /** The simulator's clock (ms since the epoch). */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** A payment report with the pending tampering applied (once). */
  report<T extends Record<string, unknown>>(fields: T): T {
    const tamper = this.tamper;
    this.tamper = undefined;
    return tamper ? { ...fields, ...tamper } : fields;
  }

  /**
   * Koa middleware for the gateway's API routes: the configured delay, then an injected failure if one is queued.
   * `maintenance` is the gateway's own 503 body.
   */
  faults(maintenance: Record<string, unknown>): Koa.Middleware {
    return async (ctx, next) => {
      if (this.delay > 0) await new Promise((resolve) => setTimeout(resolve, this.delay));
      const failure = this.failures.shift();
      if (failure === "503") {
        ctx.status = 503;
        ctx.body = maintenance;
      } else if (failure === "garbage") {
        ctx.status = 200;
        ctx.type = "text/html";
        ctx.body = "<html><body><h1>Gateway</h1>upstream said something odd</body></html>";
      } else if (failure === "timeout") {
        await this.hold(ctx);
      } else if (failure === "lost") {
        await next();
        ctx.body = undefined;
        await this.hold(ctx);
      } else {
        await next();
      }
    };
  }

  /** Never answers: waits until the client hangs up (or a minute passes, or the simulator stops), then drops it. */
  private hold(ctx: Koa.Context): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        this.held.delete(release);
        ctx.req.socket.destroy();
        resolve();
      };
      const timer = setTimeout(release, HELD_REQUEST_MS);
      this.held.add(release);
      ctx.res.once("close", release);
    });
  }

  /** Lets go of held requests (on stop). */
  releaseAll(): void {
    for (const release of [...this.held]) release();
  }
}

/**
 * Reads the request body, bounded (413 past MAX_BODY_BYTES): url-encoded, multipart/form-data (as the vendors' own
 * SDKs send it) or JSON. A JSON body that does not parse is `undefined`, for the gateway to refuse in its own words;
 * a multipart body that does not parse, or that carries a file, is a 400.
 */
export async function readBody(ctx: Koa.Context): Promise<Record<string, unknown> | undefined> {
  const raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES });
  if (ctx.is("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
  if (ctx.is("multipart/form-data")) return readMultipart(ctx, raw);
  try {
    const parsed: unknown = JSON.parse(raw.toString("utf8"));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text fields of a multipart/form-data body, parsed by the runtime's own fetch implementation (undici) so no
 * hand-written parser sees untrusted input; the body is already bounded by readBody. A repeated name keeps its last
 * value, as for url-encoded forms.
 */
async function readMultipart(ctx: Koa.Context, raw: Buffer): Promise<Record<string, string>> {
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { "Content-Type": ctx.get("Content-Type") } }).formData();
  } catch {
    ctx.throw(400, "The multipart/form-data body does not parse: a missing or wrong boundary, or a cut-off part.");
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value !== "string") ctx.throw(400, "A multipart/form-data part is a file: only text fields are taken.");
    fields[name] = value;
  }
  return fields;
}

/**
 * A request's parameters as the gateways' PHP endpoints read them: the query string, then for a POST the body's
 * fields over it (url-encoded, multipart or JSON). Only text values count; a repeated query name keeps its last value.
 */
export async function requestParams(ctx: Koa.Context): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.query)) {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (typeof last === "string") params[name] = last;
  }
  if (ctx.method !== "POST") return params;
  for (const [name, value] of Object.entries((await readBody(ctx)) ?? {})) {
    if (typeof value === "string" || typeof value === "number") params[name] = String(value);
  }
  return params;
}

/** The value if it is a non-empty string. */
export function text(body: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = body?.[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Random upper-case letters and digits, like the gateways' transaction ids. */
export function randomCode(length: number): string {
  let out = "";
  for (let i = 0; i < length; i += 1) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/** Random decimal digits (merchant ids, account numbers). */
export function randomDigits(length: number): string {
  let out = "";
  for (let i = 0; i < length; i += 1) out += String(randomInt(10));
  return out;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/** Whether `value` is an absolute http(s) URL. */
export function isHttpUrl(value: string | undefined): value is string {
  if (!value) return false;
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** A decimal amount string as the gateways take it ("150", "150.5", "150.00"), above zero. */
export function isAmount(value: string | undefined): value is string {
  return value !== undefined && /^\d{1,12}(?:\.\d{1,2})?$/.test(value) && Number(value) > 0;
}

/** `url` with these query parameters added (the gateways append theirs to whatever the merchant gave). */
export function withQuery(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.toString();
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type CheckoutPage = {
  gateway: string;
  merchant: string;
  amount: string;
  currency: string;
  reference: string;
  /** Where the form posts the decision. */
  action: string;
  hidden: Record<string, string>;
};

/** The shopper's page at the gateway: plain HTML, works without JavaScript, buttons `#approve` and `#cancel`. */
function checkoutPage(page: CheckoutPage): string {
  const hidden = Object.entries(page.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return htmlDocument(
    `${page.gateway} payment`,
    `<h1>${escapeHtml(page.gateway)}</h1>
<p>Pay <strong>${escapeHtml(page.amount)} ${escapeHtml(page.currency)}</strong> to ${escapeHtml(page.merchant)}</p>
<p>Reference ${escapeHtml(page.reference)}</p>
<form method="post" action="${escapeHtml(page.action)}">${hidden}
<button id="approve" type="submit" name="decision" value="success">Approve</button>
<button id="cancel" type="submit" name="decision" value="cancel">Cancel</button>
</form>
<p class="note">Local simulator: no money moves.</p>`,
  );
}

/** A page that POSTs `fields` to `action` by itself (with a button for browsers without JavaScript). */
export function autoPostPage(gateway: string, action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return htmlDocument(
    `${gateway}: returning to the merchant`,
    `<form id="return" method="post" action="${escapeHtml(action)}">${inputs}
<p>Returning to the merchant…</p><button type="submit">Continue</button></form>
<script>document.getElementById("return").submit();</script>`,
  );
}

/** A page with one message (an unknown, finished or expired payment). */
function messagePage(gateway: string, message: string): string {
  return htmlDocument(gateway, `<h1>${escapeHtml(gateway)}</h1><p>${escapeHtml(message)}</p>`);
}

function htmlDocument(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:.4rem;border:1px solid #555;background:#fff}
#approve{background:#0b6e4f;color:#fff;border-color:#0b6e4f}.note{color:#555;font-size:.85rem}</style>
</head><body><main>${body}</main></body></html>`;
}

/** How a simulator names its payments (bKash and Nagad a "payment", SSLCommerz a "session") in its answers and pages. */
export type SimNaming = { gateway: string; noun: "payment" | "session" };

/**
 * The test control POST /__sim/approve (never subject to injected failures): decides for the shopper without a
 * browser. The payment is the one with `paymentId`, else the latest with `reference`; `find` gives only one the shopper
 * could decide on. Unknown: 404; expired: 409; else what `decide` answers.
 */
export function approveRouter<P>(
  prefix: string,
  naming: SimNaming & { unknown: string },
  sim: { find(id: string | undefined, reference: string | undefined): P | undefined; expired(p: P): boolean; decide(p: P, outcome: Decision): SimApproval | Promise<SimApproval> },
): Router {
  const router = new Router({ prefix });
  router.post("/__sim/approve", async (ctx) => {
    const body = await readBody(ctx);
    const p = sim.find(text(body, "paymentId"), text(body, "reference"));
    const outcome = text(body, "outcome") ?? "success";
    if (!p || !DECISIONS.includes(outcome)) {
      ctx.status = 404;
      ctx.body = { error: `${naming.unknown}, or outcome is not success, failure or cancel` };
      return;
    }
    if (sim.expired(p)) {
      ctx.status = 409;
      ctx.body = { error: `the ${naming.noun} has expired` };
      return;
    }
    ctx.body = await sim.decide(p, outcome as Decision);
  });
  return router;
}

/**
 * GET of the shopper's page at the gateway: 404 for an unknown payment, a message for an expired or finished one,
 * else the approve/cancel form that `view` describes.
 */
export function showCheckout<P>(ctx: Koa.Context, naming: SimNaming, p: P | undefined, view: (p: P) => "expired" | "finished" | Omit<CheckoutPage, "gateway">): void {
  ctx.type = "html";
  if (!p) {
    ctx.status = 404;
    ctx.body = messagePage(naming.gateway, `This ${naming.noun} does not exist.`);
    return;
  }
  const page = view(p);
  if (page === "expired" || page === "finished") {
    ctx.body = messagePage(naming.gateway, page === "expired" ? `This ${naming.noun} has expired.` : "This payment is already finished.");
    return;
  }
  ctx.body = checkoutPage({ gateway: naming.gateway, ...page });
}

/**
 * POST of the shopper's button on that page: 404 for an unknown payment, 410 for one past deciding (`closed`), else
 * `respond` sends the browser on with the decision (Approve is "success", anything else "cancel").
 */
export async function takeDecision<P>(
  ctx: Koa.Context,
  naming: SimNaming,
  find: (body: Record<string, unknown> | undefined) => P | undefined,
  closed: (p: P) => boolean,
  respond: (p: P, decision: "success" | "cancel") => void | Promise<void>,
): Promise<void> {
  const body = await readBody(ctx);
  const p = find(body);
  if (!p || closed(p)) {
    ctx.status = p ? 410 : 404;
    ctx.type = "html";
    ctx.body = messagePage(naming.gateway, p ? `This ${naming.noun} has expired.` : `This ${naming.noun} does not exist.`);
    return;
  }
  await respond(p, text(body, "decision") === "success" ? "success" : "cancel");
}

/** Sends the browser to `url` with 303 See Other, as the gateways do after the shopper's decision. */
export function seeOther(ctx: Koa.Context, url: string): void {
  ctx.redirect(url);
  ctx.status = 303;
}

/**
 * Serves a simulator on 127.0.0.1: its test control, its shopper's pages, then its API (the order matters: the control
 * and the pages are never subject to the API's injected failures). `baseUrl` is the origin plus `apiPath`.
 */
export async function serveSim(
  state: SimState,
  opts: SimOptions,
  apiPath: string,
  routers: { control: Router; shopper: Router; api: Router },
): Promise<{ origin: string; baseUrl: string; approve: RunningSim["approve"]; stop: () => Promise<void> }> {
  const app = new Koa();
  app.use(routers.control.routes()).use(routers.shopper.routes()).use(routers.api.routes()).use(routers.api.allowedMethods());
  const { origin, stop } = await listen(app, state, opts);
  const baseUrl = `${origin}${apiPath}`;
  return { origin, baseUrl, approve: approver(baseUrl), stop };
}

/** Starts `app` on 127.0.0.1 and returns its origin and a stop that also lets go of held requests. */
async function listen(app: Koa, state: SimState, opts: SimOptions): Promise<{ origin: string; stop: () => Promise<void> }> {
  app.silent = true;
  const server: Server = app.listen(opts.port ?? 0, opts.host ?? "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      state.releaseAll();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
