// SQL of webhook endpoints and their delivery log, always scoped to the owning brand.
import { withDates } from "../db/json-rows";
import type { Knex } from "../db/knex";
import type { EventType } from "./events";
import { OUTBOX_CHANNEL } from "./outbox";

export type EndpointKind = "v1" | "dashboard";

export type EndpointRecord = {
  id: number;
  brandId: number;
  kind: EndpointKind;
  url: string;
  events: EventType[];
  status: "active" | "disabled";
  disabledReason: string | null;
  disabledAt: Date | null;
  previousSecretExpiresAt: Date | null;
  consecutiveFailures: number;
  failingSince: Date | null;
  createdAt: Date;
};

type EndpointRow = {
  id: number;
  brand_id: number;
  kind: EndpointKind;
  url: string;
  events: EventType[];
  status: "active" | "disabled";
  disabled_reason: string | null;
  disabled_at: Date | null;
  previous_secret_expires_at: Date | null;
  consecutive_failures: number;
  failing_since: Date | null;
  created_at: Date;
};

const COLUMNS = [
  "id",
  "brand_id",
  "kind",
  "url",
  "events",
  "status",
  "disabled_reason",
  "disabled_at",
  "previous_secret_expires_at",
  "consecutive_failures",
  "failing_since",
  "created_at",
];

function toRecord(row: EndpointRow): EndpointRecord {
  return {
    id: row.id,
    brandId: row.brand_id,
    kind: row.kind,
    url: row.url,
    events: row.events,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    previousSecretExpiresAt: row.previous_secret_expires_at && row.previous_secret_expires_at > new Date() ? row.previous_secret_expires_at : null,
    consecutiveFailures: row.consecutive_failures,
    failingSince: row.failing_since,
    createdAt: row.created_at,
  };
}

export async function insertEndpoint(
  db: Knex,
  input: { brandId: number; kind: EndpointKind; url: string; events: readonly EventType[]; secretCiphertext: string },
): Promise<EndpointRecord> {
  const [row] = await db("app.webhook_endpoints")
    .insert({ brand_id: input.brandId, kind: input.kind, url: input.url, events: input.events, secret_ciphertext: input.secretCiphertext })
    .returning<EndpointRow[]>(COLUMNS);
  return toRecord(row!);
}

/**
 * Runs `work` in a transaction that holds the brand's endpoint lock (a transaction-scoped advisory lock): one
 * registration per brand at a time, so a count made inside still holds at the insert. Other brands, and reads of
 * this brand's endpoints, are not held up, and the brand's row is not locked.
 */
export function withBrandEndpointsLock<T>(db: Knex, brandId: number, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('passport-registry:webhook-endpoints'), ?)", [brandId]);
    return work(trx);
  });
}

export async function countEndpoints(db: Knex, brandId: number, kind: EndpointKind): Promise<number> {
  const row = await db("app.webhook_endpoints").where({ brand_id: brandId, kind }).count<{ count: number }>("* as count").first();
  return Number(row?.count ?? 0);
}

export async function listEndpoints(db: Knex, brandId: number, kind: EndpointKind): Promise<EndpointRecord[]> {
  const rows = await db("app.webhook_endpoints").where({ brand_id: brandId, kind }).orderBy("id").select<EndpointRow[]>(COLUMNS);
  return rows.map(toRecord);
}

export async function findEndpoint(db: Knex, brandId: number, kind: EndpointKind, id: number): Promise<EndpointRecord | undefined> {
  const row = await db("app.webhook_endpoints").where({ brand_id: brandId, kind, id }).first<EndpointRow | undefined>(COLUMNS);
  return row ? toRecord(row) : undefined;
}

export async function findDashboardEndpoint(db: Knex, brandId: number): Promise<EndpointRecord | undefined> {
  const row = await db("app.webhook_endpoints").where({ brand_id: brandId, kind: "dashboard" }).first<EndpointRow | undefined>(COLUMNS);
  return row ? toRecord(row) : undefined;
}

export async function deleteEndpoint(db: Knex, brandId: number, kind: EndpointKind, id: number): Promise<boolean> {
  return (await db("app.webhook_endpoints").where({ brand_id: brandId, kind, id }).del()) > 0;
}

/** Points an endpoint at a new URL (the dashboard receiver); re-enables it, keeps its secret. */
export async function updateEndpointUrl(db: Knex, id: number, url: string): Promise<EndpointRecord> {
  const [row] = await db("app.webhook_endpoints")
    .where({ id })
    .update({ url, status: "active", disabled_reason: null, disabled_at: null, consecutive_failures: 0, failing_since: null, updated_at: db.fn.now() })
    .returning<EndpointRow[]>(COLUMNS);
  return toRecord(row!);
}

export async function enableEndpoint(db: Knex, id: number): Promise<EndpointRecord> {
  const [row] = await db("app.webhook_endpoints")
    .where({ id })
    .update({ status: "active", disabled_reason: null, disabled_at: null, consecutive_failures: 0, failing_since: null, updated_at: db.fn.now() })
    .returning<EndpointRow[]>(COLUMNS);
  return toRecord(row!);
}

/** The current secret becomes the previous one (still signing until `overlapSeconds` pass); `next` becomes current. */
export async function rotateEndpointSecret(db: Knex, id: number, nextCiphertext: string, overlapSeconds: number): Promise<EndpointRecord> {
  const [row] = await db("app.webhook_endpoints")
    .where({ id })
    .update({
      previous_secret_ciphertext: db.ref("secret_ciphertext"),
      previous_secret_expires_at: db.raw("now() + make_interval(secs => ?)", [overlapSeconds]),
      secret_ciphertext: nextCiphertext,
      updated_at: db.fn.now(),
    })
    .returning<EndpointRow[]>(COLUMNS);
  return toRecord(row!);
}

export type DeliveryRecord = {
  id: string;
  eventId: string;
  eventType: EventType;
  status: "pending" | "delivering" | "succeeded" | "failed";
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastResponseCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
};

type DeliveryRow = {
  id: string;
  event_id: string;
  type: EventType;
  status: DeliveryRecord["status"];
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_response_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
};

function toDelivery(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? row.next_attempt_at : null,
    lastAttemptAt: row.last_attempt_at,
    lastResponseCode: row.last_response_code,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
  };
}

const DELIVERY_COLUMNS = [
  "d.id",
  "d.event_id",
  "ev.type",
  "d.status",
  "d.attempts",
  "d.next_attempt_at",
  "d.last_attempt_at",
  "d.last_response_code",
  "d.last_error",
  "d.delivered_at",
  "d.created_at",
];

/**
 * The brand's endpoint `id` of `kind` with a page of its deliveries, newest first, in one statement (the delivery
 * log reads both on every request; a second round trip cost more than the read). `before` (a delivery id from the
 * previous page) continues the list. Undefined when the brand has no such endpoint.
 */
export async function findEndpointWithDeliveries(
  db: Knex,
  brandId: number,
  kind: EndpointKind,
  id: number,
  options: { limit: number; status?: string; before?: string },
): Promise<{ endpoint: EndpointRecord; deliveries: DeliveryRecord[] } | undefined> {
  const page = db("app.webhook_deliveries as d")
    .join("app.webhook_events as ev", "ev.id", "d.event_id")
    .where("d.endpoint_id", id)
    .orderBy([{ column: "d.created_at", order: "desc" }, { column: "d.id", order: "desc" }])
    .limit(options.limit)
    // Ids as text, as they are read as columns (a bigint as a JSON number would not stay exact).
    .select(DELIVERY_COLUMNS.map((column) => (column === "d.id" || column === "d.event_id" ? db.raw(`${column}::text AS ${column.slice(2)}`) : column)));
  if (options.status) page.where("d.status", options.status);
  if (options.before) {
    page.whereRaw("(d.created_at, d.id) < (SELECT created_at, id FROM app.webhook_deliveries WHERE id = ? AND endpoint_id = ?)", [options.before, id]);
  }
  const row = await db("app.webhook_endpoints")
    .where({ brand_id: brandId, kind, id })
    .first<(EndpointRow & { deliveries: Array<Record<string, unknown>> }) | undefined>(
      ...COLUMNS,
      db.raw("(SELECT coalesce(json_agg(l ORDER BY l.created_at DESC, l.id DESC), '[]') FROM ? AS l) AS deliveries", [page]),
    );
  if (!row) return undefined;
  return { endpoint: toRecord(row), deliveries: row.deliveries.map((json) => toDelivery(withDates<DeliveryRow>(json, DELIVERY_TIMES))) };
}

/** The delivery columns holding times, which the JSON of findEndpointWithDeliveries has as text. */
const DELIVERY_TIMES = ["next_attempt_at", "last_attempt_at", "delivered_at", "created_at"];

export async function findDelivery(db: Knex, endpointId: number, deliveryId: string): Promise<DeliveryRecord | undefined> {
  const row = await db("app.webhook_deliveries as d")
    .join("app.webhook_events as ev", "ev.id", "d.event_id")
    .where({ "d.endpoint_id": endpointId, "d.id": deliveryId })
    .first<DeliveryRow | undefined>(DELIVERY_COLUMNS);
  return row ? toDelivery(row) : undefined;
}

/**
 * Queues a delivery again now with a fresh retry schedule, keeping its id (webhook-id), so a receiver that did
 * process it can tell. Returns undefined when it is being delivered at this moment.
 */
export async function requeueDelivery(db: Knex, endpointId: number, deliveryId: string): Promise<DeliveryRecord | undefined> {
  return db.transaction(async (trx) => {
    const updated = await trx("app.webhook_deliveries")
      .where({ endpoint_id: endpointId, id: deliveryId })
      .whereNot({ status: "delivering" })
      .update({ status: "pending", attempts: 0, next_attempt_at: trx.fn.now(), claim_token: null });
    if (updated === 0) return undefined;
    await trx.raw("SELECT pg_notify(?, '')", [OUTBOX_CHANNEL]);
    return findDelivery(trx, endpointId, deliveryId);
  });
}
