// SQL of orders (migration 024): the order rows, their transitions and refunds, the claims that let one process at a
// time talk to a gateway about an order, the dashboard's list, and the public API's per-client budgets.
import type { Knex } from "../db/knex";
import type { PaymentMethod } from "../plans/catalogue";
import type { OrderState } from "./state-machine";

export type OrderContact = { name?: string; email?: string; phone?: string };

/** An order as the domain reads it: camelCase, amounts as numbers, with its product's name. */
export type OrderRecord = {
  id: string;
  brandId: number;
  productId: number;
  productName: string;
  uid: string;
  method: PaymentMethod;
  state: OrderState;
  amountMinor: number;
  currency: string;
  reference: string;
  gatewayPaymentId: string | null;
  gatewayTrxId: string | null;
  contact: OrderContact;
  clientIp: string | null;
  cashQrTokenHash: Buffer | null;
  failureReason: string | null;
  expiresAt: Date;
  paidAt: Date | null;
  verifiedAt: Date | null;
  refundedMinor: number;
  nextCheckAt: Date | null;
  checkAttempts: number;
  createdAt: Date;
  updatedAt: Date;
};

/** Columns a transition may write besides the state (every transition also ends a claim and resets the attempts). */
export type OrderColumns = {
  gatewayPaymentId?: string | null;
  gatewayTrxId?: string | null;
  failureReason?: string | null;
  /** When the reconciliation job looks next; null (the default) for a state it has nothing to ask about. */
  nextCheckAt?: Date | null;
};

type OrderRow = {
  id: string;
  brand_id: number;
  product_id: number;
  product_name: string;
  uid: string;
  method: PaymentMethod;
  state: OrderState;
  amount_minor: number;
  currency: string;
  reference: string;
  gateway_payment_id: string | null;
  gateway_trx_id: string | null;
  contact: OrderContact;
  client_ip: string | null;
  cash_qr_token_hash: Buffer | null;
  failure_reason: string | null;
  expires_at: Date;
  paid_at: Date | null;
  verified_at: Date | null;
  refunded_minor: number;
  next_check_at: Date | null;
  check_attempts: number;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = [
  "o.id",
  "o.brand_id",
  "o.product_id",
  "p.name as product_name",
  "o.uid",
  "o.method",
  "o.state",
  "o.amount_minor",
  "o.currency",
  "o.reference",
  "o.gateway_payment_id",
  "o.gateway_trx_id",
  "o.contact",
  "o.client_ip",
  "o.cash_qr_token_hash",
  "o.failure_reason",
  "o.expires_at",
  "o.paid_at",
  "o.verified_at",
  "o.refunded_minor",
  "o.next_check_at",
  "o.check_attempts",
  "o.created_at",
  "o.updated_at",
];

function recordOf(row: OrderRow): OrderRecord {
  return {
    id: row.id,
    brandId: row.brand_id,
    productId: row.product_id,
    productName: row.product_name,
    uid: row.uid,
    method: row.method,
    state: row.state,
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    reference: row.reference,
    gatewayPaymentId: row.gateway_payment_id,
    gatewayTrxId: row.gateway_trx_id,
    contact: row.contact ?? {},
    clientIp: row.client_ip,
    cashQrTokenHash: row.cash_qr_token_hash,
    failureReason: row.failure_reason,
    expiresAt: row.expires_at,
    paidAt: row.paid_at,
    verifiedAt: row.verified_at,
    refundedMinor: Number(row.refunded_minor),
    nextCheckAt: row.next_check_at,
    checkAttempts: row.check_attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const ordersWithProduct = (db: Knex) => db("app.orders as o").join("app.products as p", "p.id", "o.product_id");
/** The order's own columns, as a write returns them (the product's name is joined on reads). */
const OWN_COLUMNS = COLUMNS.filter((column) => column.startsWith("o.")).map((column) => column.slice(2));

export type NewOrder = {
  id: string;
  brandId: number;
  productId: number;
  uid: string;
  method: PaymentMethod;
  amountMinor: number;
  currency: string;
  reference: string;
  contact: OrderContact;
  clientIp: string;
  cashQrTokenHash: Buffer | null;
  expiresAt: Date;
  nextCheckAt: Date;
};

/** Inserts the order in state `created`; returns it as read back (with `productName`, which the caller knows). */
export async function insertOrder(trx: Knex, order: NewOrder & { productName: string }): Promise<OrderRecord> {
  const [row] = await trx("app.orders").insert({
    id: order.id,
    brand_id: order.brandId,
    product_id: order.productId,
    uid: order.uid,
    method: order.method,
    state: "created",
    amount_minor: order.amountMinor,
    currency: order.currency,
    reference: order.reference,
    contact: JSON.stringify(order.contact),
    client_ip: order.clientIp,
    cash_qr_token_hash: order.cashQrTokenHash,
    expires_at: order.expiresAt,
    next_check_at: order.nextCheckAt,
  }).returning<OrderRow[]>(OWN_COLUMNS);
  return recordOf({ ...row!, product_name: order.productName });
}

export async function findOrder(db: Knex, id: string, brandId?: number): Promise<OrderRecord | undefined> {
  const query = ordersWithProduct(db).where("o.id", id);
  if (brandId !== undefined) query.where("o.brand_id", brandId);
  const row = await query.first<OrderRow | undefined>(COLUMNS);
  return row && recordOf(row);
}

/** The order a gateway callback names, by the gateway's payment id (bKash paymentID, Nagad payment_ref_id). */
export async function findOrderByGatewayPayment(db: Knex, method: PaymentMethod, gatewayPaymentId: string): Promise<OrderRecord | undefined> {
  const row = await ordersWithProduct(db).where({ "o.method": method, "o.gateway_payment_id": gatewayPaymentId }).first<OrderRow | undefined>(COLUMNS);
  return row && recordOf(row);
}

/** The order a gateway callback names by our merchant reference (SSLCommerz tran_id). */
export async function findOrderByReference(db: Knex, method: PaymentMethod, reference: string): Promise<OrderRecord | undefined> {
  const row = await ordersWithProduct(db).where({ "o.method": method, "o.reference": reference }).first<OrderRow | undefined>(COLUMNS);
  return row && recordOf(row);
}

/**
 * Sets the state `to` if the order is still in the state `order` was read in (the conditional UPDATE of every
 * transition); ends any claim on it and resets its check attempts. Undefined when another writer moved it first.
 */
export async function updateOrderState(trx: Knex, order: OrderRecord, to: OrderState, set: OrderColumns): Promise<OrderRecord | undefined> {
  const values: Record<string, unknown> = {
    state: to,
    updated_at: trx.fn.now(),
    claimed_until: null,
    check_attempts: 0,
    next_check_at: set.nextCheckAt ?? null,
  };
  if (to === "paid") values.paid_at = trx.fn.now();
  if (to === "verified") values.verified_at = trx.fn.now();
  if (set.gatewayPaymentId !== undefined) values.gateway_payment_id = set.gatewayPaymentId;
  if (set.gatewayTrxId !== undefined) values.gateway_trx_id = set.gatewayTrxId;
  if (set.failureReason !== undefined) values.failure_reason = set.failureReason;
  const [row] = await trx("app.orders").where({ id: order.id, state: order.state }).update(values).returning<OrderRow[]>(OWN_COLUMNS);
  return row && recordOf({ ...row, product_name: order.productName });
}

export async function insertTransition(trx: Knex, t: { orderId: string; from: OrderState | null; to: OrderState; reason: string; actor: string }): Promise<void> {
  await trx("app.order_transitions").insert({ order_id: t.orderId, from_state: t.from, to_state: t.to, reason: t.reason.slice(0, 500), actor: t.actor });
}

export type TransitionRow = { from_state: OrderState | null; to_state: OrderState; reason: string; actor: string; at: Date };

export async function listTransitions(db: Knex, orderId: string): Promise<TransitionRow[]> {
  return db("app.order_transitions").where({ order_id: orderId }).orderBy("id").select<TransitionRow[]>("from_state", "to_state", "reason", "actor", "at");
}

/**
 * Claims the order for `leaseMs` if it is in one of `states` and nobody holds it: the holder alone talks to the
 * gateway about it (a bKash execute happens once however many callbacks arrive). Undefined when not claimable.
 */
export async function claimOrder(db: Knex, order: OrderRecord, states: readonly OrderState[], leaseMs: number): Promise<OrderRecord | undefined> {
  const [row] = await db("app.orders")
    .where("id", order.id)
    .whereIn("state", states)
    .andWhere((q) => q.whereNull("claimed_until").orWhere("claimed_until", "<", db.fn.now()))
    .update({ claimed_until: db.raw("now() + make_interval(secs => ?)", [leaseMs / 1000]) })
    .returning<OrderRow[]>(OWN_COLUMNS);
  return row && recordOf({ ...row, product_name: order.productName });
}

/** Ends a claim without a transition; the reconciliation job looks at the order again at `nextCheckAt`. */
export async function releaseOrder(db: Knex, id: string, nextCheckAt: Date | null): Promise<void> {
  await db("app.orders").where({ id }).update({ claimed_until: null, next_check_at: nextCheckAt, check_attempts: db.raw("check_attempts + 1"), updated_at: db.fn.now() });
}

/**
 * The reconciliation job's batch: orders still open (created, pending, paid) whose next check is due and that nobody
 * holds, claimed for `leaseMs` in one statement. FOR UPDATE SKIP LOCKED lets several API replicas run the job at
 * once, each taking other rows.
 */
export async function claimDueOrders(db: Knex, limit: number, leaseMs: number): Promise<OrderRecord[]> {
  const { rows } = await db.raw<{ rows: Array<{ id: string }> }>(
    `WITH due AS (
       SELECT id FROM app.orders
        WHERE state IN ('created', 'pending', 'paid') AND next_check_at <= now()
          AND (claimed_until IS NULL OR claimed_until < now())
        ORDER BY next_check_at
        LIMIT ?
        FOR UPDATE SKIP LOCKED)
     UPDATE app.orders o SET claimed_until = now() + make_interval(secs => ?)
       FROM due WHERE o.id = due.id
     RETURNING o.id`,
    [limit, leaseMs / 1000],
  );
  if (rows.length === 0) return [];
  const found = await ordersWithProduct(db).whereIn("o.id", rows.map((row) => row.id)).orderBy("o.next_check_at").select<OrderRow[]>(COLUMNS);
  return found.map(recordOf);
}

export type OrderFilter = { state?: OrderState; method?: PaymentMethod; q?: string; limit: number; offset: number };

/** A page of the brand's orders, newest first; `q` matches an order id, product UID, gateway transaction id or reference. */
export async function listOrders(db: Knex, brandId: number, filter: OrderFilter): Promise<{ orders: OrderRecord[]; total: number }> {
  const base = ordersWithProduct(db).where("o.brand_id", brandId);
  if (filter.state) base.where("o.state", filter.state);
  if (filter.method) base.where("o.method", filter.method);
  if (filter.q) {
    const q = filter.q.trim();
    base.where((w) => w.where("o.id", q).orWhere("o.uid", q.toUpperCase()).orWhere("o.gateway_trx_id", q).orWhere("o.reference", q.toUpperCase()));
  }
  const [{ count }] = await base.clone().count<Array<{ count: number }>>({ count: "*" });
  const rows = await base.orderBy("o.created_at", "desc").orderBy("o.id").limit(filter.limit).offset(filter.offset).select<OrderRow[]>(COLUMNS);
  return { orders: rows.map(recordOf), total: Number(count) };
}

/**
 * Spends one unit of a client's hourly budget `key` (app.scan_client_hours, which the scan and tap budgets also
 * use, each under its own prefix); false once `limit` units were spent this clock hour. Committed asynchronously,
 * as those are: a crash forgets at most the last moment's spending.
 */
export async function spendClientBudget(db: Knex, key: string, limit: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: Array<{ count: number }> }>(
    `INSERT INTO app.scan_client_hours AS h (client_key, hour, count) VALUES (?, date_trunc('hour', now()), 1)
     ON CONFLICT (client_key, hour) DO UPDATE SET count = h.count + 1 WHERE h.count < ?
     RETURNING count, set_config('synchronous_commit', 'off', true) AS async_commit`,
    [key, limit],
  );
  return rows.length > 0;
}

export type RefundRow = { id: number; amount_minor: number; reason: string; state: "requested" | "pending" | "unknown" | "refunded" | "failed"; gateway_refund_id: string | null; actor: string; created_at: Date };

/**
 * Reserves `amountMinor` of a verified order's refundable amount and records the refund as requested, in one
 * statement pair under the order's row lock: two refunds at once cannot together exceed what was paid.
 */
export async function reserveRefund(trx: Knex, orderId: string, amountMinor: number, reason: string, actor: string): Promise<number | undefined> {
  const reserved = await trx("app.orders")
    .where({ id: orderId, state: "verified" })
    .andWhere(trx.raw("refunded_minor + ? <= amount_minor", [amountMinor]))
    .update({ refunded_minor: trx.raw("refunded_minor + ?", [amountMinor]), updated_at: trx.fn.now() })
    .returning<Array<{ id: string }>>("id");
  if (reserved.length === 0) return undefined;
  const [row] = await trx("app.order_refunds").insert({ order_id: orderId, amount_minor: amountMinor, reason, state: "requested", actor }).returning<Array<{ id: number }>>("id");
  return row!.id;
}

/**
 * Records the gateway's answer to a refund; a failed one gives its amount back to the refundable amount, a pending one
 * is looked at again at `nextCheckAt`.
 */
export async function settleRefund(trx: Knex, refundId: number, outcome: { state: "pending" | "refunded" | "failed"; gatewayRefundId?: string; nextCheckAt?: Date }): Promise<void> {
  const values: Record<string, unknown> = { state: outcome.state, next_check_at: outcome.state === "pending" ? (outcome.nextCheckAt ?? null) : null, updated_at: trx.fn.now() };
  if (outcome.gatewayRefundId !== undefined) values.gateway_refund_id = outcome.gatewayRefundId;
  const [refund] = await trx("app.order_refunds").where({ id: refundId }).whereNot({ state: outcome.state }).update(values).returning<Array<{ order_id: string; amount_minor: number }>>(["order_id", "amount_minor"]);
  if (outcome.state === "failed" && refund) {
    await trx("app.orders").where({ id: refund.order_id }).update({ refunded_minor: trx.raw("refunded_minor - ?", [Number(refund.amount_minor)]), updated_at: trx.fn.now() });
  }
}

/**
 * Records that the gateway's answer to a refund was lost: its amount stays reserved, and the reconciliation job asks
 * the gateway about it at `nextCheckAt`. False when the refund was settled meanwhile.
 */
export async function markRefundUnknown(trx: Knex, refundId: number, nextCheckAt: Date): Promise<boolean> {
  const updated = await trx("app.order_refunds").where({ id: refundId, state: "requested" }).update({ state: "unknown", next_check_at: nextCheckAt, updated_at: trx.fn.now() });
  return updated > 0;
}

/** How many of the order's refunds the gateway has not settled yet (requested, pending, or unknown). */
export async function unsettledRefunds(db: Knex, orderId: string): Promise<number> {
  const [{ count }] = await db("app.order_refunds").where({ order_id: orderId }).whereIn("state", ["requested", "pending", "unknown"]).count<Array<{ count: number }>>({ count: "*" });
  return Number(count);
}

/** The gateway's ids of the order's refunds it answered, oldest first: the ones a lost answer cannot be. */
export async function knownRefundIds(db: Knex, orderId: string): Promise<string[]> {
  const rows = await db("app.order_refunds").where({ order_id: orderId }).whereNotNull("gateway_refund_id").orderBy("id").select<Array<{ gateway_refund_id: string }>>("gateway_refund_id");
  return rows.map((row) => row.gateway_refund_id);
}

export type DueRefund = { id: number; orderId: string; state: "pending" | "unknown"; amountMinor: number; gatewayRefundId: string | null; checkAttempts: number };

/**
 * The reconciliation job's batch of pending and unknown refunds whose next check is due; the claim moves
 * next_check_at past the lease, so another replica skips them until the job answers.
 */
export async function claimDueRefunds(db: Knex, limit: number, leaseMs: number): Promise<DueRefund[]> {
  const { rows } = await db.raw<{ rows: Array<{ id: number; order_id: string; state: DueRefund["state"]; amount_minor: string; gateway_refund_id: string | null; check_attempts: number }> }>(
    `WITH due AS (
       SELECT id FROM app.order_refunds WHERE state IN ('pending', 'unknown') AND next_check_at <= now()
        ORDER BY next_check_at LIMIT ? FOR UPDATE SKIP LOCKED)
     UPDATE app.order_refunds r SET next_check_at = now() + make_interval(secs => ?), check_attempts = check_attempts + 1
       FROM due WHERE r.id = due.id
     RETURNING r.id, r.order_id, r.state, r.amount_minor, r.gateway_refund_id, r.check_attempts`,
    [limit, leaseMs / 1000],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    orderId: row.order_id,
    state: row.state,
    amountMinor: Number(row.amount_minor),
    gatewayRefundId: row.gateway_refund_id,
    checkAttempts: row.check_attempts,
  }));
}

export async function rescheduleRefund(db: Knex, id: number, nextCheckAt: Date): Promise<void> {
  await db("app.order_refunds").where({ id }).whereIn("state", ["pending", "unknown"]).update({ next_check_at: nextCheckAt, updated_at: db.fn.now() });
}

export async function listRefunds(db: Knex, orderId: string): Promise<RefundRow[]> {
  const rows = await db("app.order_refunds").where({ order_id: orderId }).orderBy("id").select<RefundRow[]>("id", "amount_minor", "reason", "state", "gateway_refund_id", "actor", "created_at");
  return rows.map((row) => ({ ...row, amount_minor: Number(row.amount_minor) }));
}

export type BrandSales = { plan: string; status: string; salesEnabled: boolean };

export async function findBrandSales(db: Knex, brandId: number): Promise<BrandSales | undefined> {
  const row = await db("app.brands").where({ id: brandId }).first<{ plan: string; status: string; sales_enabled: boolean } | undefined>("plan", "status", "sales_enabled");
  return row && { plan: row.plan, status: row.status, salesEnabled: row.sales_enabled };
}

export async function updateSalesEnabled(trx: Knex, brandId: number, enabled: boolean): Promise<void> {
  await trx("app.brands").where({ id: brandId }).update({ sales_enabled: enabled, updated_at: trx.fn.now() });
}
