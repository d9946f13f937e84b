// What the order tests share: the API in process with its gateway base URLs pointed at the local protocol servers, a
// brand that sells (its methods set up through the dashboard API, as an owner would), a product inserted directly
// (orders need no chain), the public order calls, and webhook receivers with a dispatcher to see order events arrive.
import { randomBytes } from "node:crypto";
import type { Knex } from "../../api/src/db/knex";
import { createBrand } from "../../api/src/brands/service";
import { createLogger } from "../../api/src/logger";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { registerV1Endpoint, setDashboardWebhook } from "../../api/src/webhooks/endpoints";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import type { PaymentSims } from "../../scripts/lib/payment-sims";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { dashboardClient, type DashboardClient } from "./dashboard";
import { createTestDatabase } from "./hooks";
import { json } from "./http";
import { startWebhookReceiver, type Delivery, type WebhookReceiver } from "./webhook-receiver";

/**
 * The API for order tests: the gateways at `sims` (when given), short gateway time-outs, generous client budgets. The
 * time-out is short against the simulators' held requests (a minute) yet long enough for Nagad's RSA work on a
 * loaded 2-core machine (0.8 s was not, with files running side by side).
 */
export async function startOrdersApi(label: string, sims?: PaymentSims, env: Record<string, string> = {}): Promise<InProcessApi> {
  return startInProcessApi({
    DATABASE_URL: await createTestDatabase(label),
    RPC_URL: `http://127.0.0.1:${await freePort()}`,
    PAYMENT_GATEWAY_TIMEOUT_MS: "3000",
    ORDER_RECONCILE_INTERVAL_SECONDS: "1",
    ...(sims ? { BKASH_BASE_URL: sims.bkash.baseUrl, NAGAD_BASE_URL: sims.nagad.baseUrl, SSLCOMMERZ_BASE_URL: sims.sslcommerz.baseUrl } : {}),
    ...env,
  });
}

export type SellingBrand = { id: number; slug: string; apiKey: string; owner: DashboardClient };

/** A brand on `plan` with sales on and an owner signed in to the dashboard. */
export async function sellingBrand(api: InProcessApi, slug: string, plan: "starter" | "growth" | "enterprise" = "growth"): Promise<SellingBrand> {
  const prefix = slug.replace(/[^a-z0-9]/gi, "").slice(0, 6).toUpperCase();
  const created = await createBrand(api.db, { slug, name: `Brand ${slug}`, uidPrefix: prefix, plan });
  const owner = await dashboardClient(api.url, api.db, created.brand.id, "owner");
  const sales = await owner.call("/api/dashboard/sales", { method: "PUT", json: { enabled: true } });
  if (sales.status !== 200) throw new Error(`turning sales on failed: ${sales.status} ${await sales.text()}`);
  return { id: created.brand.id, slug, apiKey: created.key.key, owner };
}

/** Saves a method's keys through Gateway Keys (checked with the gateway, as in the dashboard); throws unless 200. */
export async function setUpMethod(brand: SellingBrand, method: string, credentials?: Record<string, string>): Promise<void> {
  const res = await brand.owner.call(`/api/dashboard/gateway-keys/${method}`, { method: "PUT", json: { ...(credentials ? { credentials } : {}), enabled: true } });
  if (res.status !== 200) throw new Error(`setting up ${method} failed: ${res.status} ${await res.text()}`);
}

/** A product of the brand, inserted as a row (no passport): its UID. */
export async function insertProduct(db: Knex, brandId: number, price: string, currency = "BDT", name = "Order test shirt"): Promise<string> {
  const brand = await db("app.brands").where({ id: brandId }).first<{ uid_prefix: string }>("uid_prefix");
  const uid = `${brand.uid_prefix}-${randomBytes(5).toString("hex").toUpperCase()}`;
  await db("app.products").insert({ brand_id: brandId, uid, sku: `SKU-${uid}`, name, category: "shirt", price, currency, carbon_kg: 1, carbon_rating: "A" });
  return uid;
}

/** POST /api/orders; `from` is sent as X-Forwarded-For (only read when the app trusts a proxy). */
export function placeOrder(api: { url: string }, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.url}/api/orders`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** Places an order and expects 201; the order's data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function placed(api: { url: string }, body: Record<string, unknown>): Promise<any> {
  const res = await placeOrder(api, body);
  if (res.status !== 201) throw new Error(`POST /api/orders answered ${res.status}: ${await res.text()}`);
  return (await json(res)).data;
}

/** GET /api/orders/{id} with its secret: the order's data (expects 200). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readOrder(api: { url: string }, orderId: string, secret: string): Promise<any> {
  const res = await fetch(`${api.url}/api/orders/${orderId}`, { headers: { "X-Order-Secret": secret } });
  if (res.status !== 200) throw new Error(`GET /api/orders/${orderId} answered ${res.status}: ${await res.text()}`);
  return (await json(res)).data;
}

/** The state and history of an order as stored. */
export async function orderRow(db: Knex, orderId: string) {
  const order = await db("app.orders").where({ id: orderId }).first<{ state: string; gateway_trx_id: string | null; refunded_minor: number; failure_reason: string | null; paid_at: Date | null }>();
  const transitions = await db("app.order_transitions").where({ order_id: orderId }).orderBy("id").select<Array<{ from_state: string | null; to_state: string; reason: string; actor: string }>>("from_state", "to_state", "reason", "actor");
  return { ...order, transitions: transitions.map((t) => `${t.from_state ?? "∅"}→${t.to_state}`) };
}

/** The gateway's ids of an order as stored: its payment id and our merchant reference. */
export function gatewayIdsOf(db: Knex, orderId: string) {
  return db("app.orders").where({ id: orderId }).first<{ gateway_payment_id: string | null; reference: string }>("gateway_payment_id", "reference");
}

/** Lets the reconciliation job look at the order now rather than at its scheduled time. */
export function dueNow(db: Knex, orderId: string) {
  return db("app.orders").where({ id: orderId }).update({ next_check_at: db.raw("now() - interval '1 second'") });
}

/** What the background jobs (reconciliation, expiry) take, from the test's API. */
export function jobDepsOf(api: InProcessApi) {
  return { config: api.config, db: api.db, logger: createLogger("silent") };
}

/** The types of the order's events in the outbox, sorted (one transaction gives them one timestamp). */
export async function orderEvents(db: Knex, orderId: string): Promise<string[]> {
  const rows = await db("app.webhook_events").whereRaw("payload->>'order_id' = ?", [orderId]).select<Array<{ type: string }>>("type");
  return rows.map((row) => row.type).sort();
}

export type EventWatch = {
  receiver: WebhookReceiver;
  dashboardSecret: string;
  v1Secret: string;
  /** Waits until `count` deliveries of `event` for the order have arrived; returns them all. */
  deliveries: (orderId: string, event: "order.paid" | "order.verified", count?: number) => Promise<Delivery[]>;
  stop: () => Promise<void>;
};

/** A receiver registered as the brand's dashboard webhook (order.paid) and v1 subscription (order.verified), delivered to by a dispatcher. */
export async function watchOrderEvents(api: InProcessApi, brandId: number): Promise<EventWatch> {
  const receiver = await startWebhookReceiver();
  const { signingSecret: dashboardSecret } = await setDashboardWebhook({ db: api.db, config: api.config }, brandId, `${receiver.url}/dashboard`);
  const { signingSecret: v1Secret } = await registerV1Endpoint({ db: api.db, config: api.config }, brandId, `${receiver.url}/v1`, ["order.verified"]);
  const dispatcher = new Dispatcher({ config: api.config, db: api.db, logger: createLogger("silent"), pollIntervalMs: 100, watch: false, prune: false });
  dispatcher.start();
  const of = (orderId: string, event: string) => receiver.received.filter((d) => d.payload.order_id === orderId && d.payload.event === event);
  return {
    receiver,
    dashboardSecret: dashboardSecret!,
    v1Secret,
    deliveries: async (orderId, event, count = 1) => {
      await waitFor(`${count} ${event} for ${orderId}`, async () => (of(orderId, event).length >= count ? true : undefined), 20_000, 50);
      return of(orderId, event);
    },
    stop: async () => {
      await dispatcher.stop(2000);
      await receiver.close();
    },
  };
}
