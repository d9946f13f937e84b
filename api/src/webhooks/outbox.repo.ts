// SQL of the webhook outbox: events, and one pending delivery per subscribed endpoint, written in the caller's
// transaction; a NOTIFY wakes the dispatchers once it commits.
import type { Knex } from "../db/knex";

/** Inserts the event unless its dedupe key is known; returns its id, or undefined for a duplicate. */
export async function insertEvent(
  trx: Knex,
  event: { id: string; brandId: number; type: string; payload: unknown; dedupeKey: string },
): Promise<string | undefined> {
  const inserted = await trx.raw<{ rows: Array<{ id: string }> }>(
    `INSERT INTO app.webhook_events (id, brand_id, type, payload, dedupe_key)
     VALUES (?, ?, ?, ?::json, ?)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
    [event.id, event.brandId, event.type, JSON.stringify(event.payload), event.dedupeKey],
  );
  return inserted.rows[0]?.id;
}

export async function findEventIdByDedupeKey(trx: Knex, dedupeKey: string): Promise<string | undefined> {
  const existing = await trx.raw<{ rows: Array<{ id: string }> }>("SELECT id FROM app.webhook_events WHERE dedupe_key = ?", [dedupeKey]);
  return existing.rows[0]?.id;
}

/** One pending delivery of the event per active endpoint of the brand subscribed to its type; returns how many. */
export async function fanOutDeliveries(trx: Knex, eventId: string, brandId: number, type: string): Promise<number> {
  const fanned = await trx.raw<{ rowCount: number }>(
    `INSERT INTO app.webhook_deliveries (id, event_id, endpoint_id)
     SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), ?, e.id
       FROM app.webhook_endpoints e
      WHERE e.brand_id = ? AND e.status = 'active' AND ? = ANY (e.events)`,
    [eventId, brandId, type],
  );
  return fanned.rowCount;
}

/** Delivered at commit, so dispatchers never look before the rows are visible. */
export async function notifyOutbox(trx: Knex, channel: string): Promise<void> {
  await trx.raw("SELECT pg_notify(?, '')", [channel]);
}

/** Inserts the events whose dedupe keys are new, in one statement; returns the ids inserted. */
export async function insertEvents(
  trx: Knex,
  events: Array<{ id: string; brandId: number; type: string; payload: unknown; dedupeKey: string }>,
): Promise<string[]> {
  const inserted = await trx.raw<{ rows: Array<{ id: string }> }>(
    `INSERT INTO app.webhook_events (id, brand_id, type, payload, dedupe_key)
     SELECT * FROM unnest(?::text[], ?::integer[], ?::text[], ?::json[], ?::text[])
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
    [events.map((e) => e.id), events.map((e) => e.brandId), events.map((e) => e.type), events.map((e) => JSON.stringify(e.payload)), events.map((e) => e.dedupeKey)],
  );
  return inserted.rows.map((r) => r.id);
}

/** fanOutDeliveries for many events at once: one pending delivery per event and subscribed active endpoint. */
export async function fanOutDeliveriesOf(trx: Knex, eventIds: string[]): Promise<number> {
  const fanned = await trx.raw<{ rowCount: number }>(
    `INSERT INTO app.webhook_deliveries (id, event_id, endpoint_id)
     SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), ev.id, e.id
       FROM app.webhook_events ev
       JOIN app.webhook_endpoints e ON e.brand_id = ev.brand_id AND e.status = 'active' AND ev.type = ANY (e.events)
      WHERE ev.id = ANY (?::text[])`,
    [eventIds],
  );
  return fanned.rowCount;
}
