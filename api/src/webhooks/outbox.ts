// The outbox: producers record events inside their own transaction; the dispatcher delivers them later.
import { randomBytes } from "node:crypto";
import type { Knex } from "../db/knex";
import { isEventType, type EventType } from "./events";

export type { EventType } from "./events";

/** Channel the dispatcher LISTENs on; the notification is sent at commit, so it never announces a rolled-back event. */
export const OUTBOX_CHANNEL = "webhook_outbox";

export type OutboxEvent = {
  brandId: number;
  type: EventType;
  payload: Record<string, unknown>;
  /** One fact, one key (e.g. "cert.issued:<uid>"): a second enqueue with the same key returns the first event's id. */
  dedupeKey: string;
};

export function newEventId(): string {
  return `evt_${randomBytes(16).toString("hex")}`;
}

export function newDeliveryId(): string {
  return `msg_${randomBytes(16).toString("hex")}`;
}

/**
 * Records `event` and one pending delivery per active endpoint of the brand subscribed to its type. Call it with
 * the transaction that makes the state change, so the change and its events commit or roll back together.
 */
export async function enqueueEvent(trx: Knex, event: OutboxEvent): Promise<string> {
  if (!isEventType(event.type)) throw new Error(`unknown event type "${String(event.type)}"`);
  if (!event.dedupeKey || event.dedupeKey.length > 300) throw new Error("dedupeKey must be 1 to 300 characters");

  const inserted = await trx.raw<{ rows: Array<{ id: string }> }>(
    `INSERT INTO app.webhook_events (id, brand_id, type, payload, dedupe_key)
     VALUES (?, ?, ?, ?::json, ?)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
    [newEventId(), event.brandId, event.type, JSON.stringify(event.payload), event.dedupeKey],
  );
  const created = inserted.rows[0];
  if (!created) {
    const existing = await trx.raw<{ rows: Array<{ id: string }> }>(
      "SELECT id FROM app.webhook_events WHERE dedupe_key = ?",
      [event.dedupeKey],
    );
    return existing.rows[0]!.id;
  }

  const fanned = await trx.raw<{ rowCount: number }>(
    `INSERT INTO app.webhook_deliveries (id, event_id, endpoint_id)
     SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), ?, e.id
       FROM app.webhook_endpoints e
      WHERE e.brand_id = ? AND e.status = 'active' AND ? = ANY (e.events)`,
    [created.id, event.brandId, event.type],
  );
  if (fanned.rowCount > 0) await trx.raw("SELECT pg_notify(?, '')", [OUTBOX_CHANNEL]);
  return created.id;
}
