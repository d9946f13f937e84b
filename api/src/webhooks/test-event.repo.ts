// SQL of test events: an outbox event with one delivery, to one endpoint only, that the dispatcher then sends like
// any other.
import type { Knex } from "../db/knex";
import { OUTBOX_CHANNEL } from "./outbox";

/** Records the event and its one delivery; the NOTIFY wakes the dispatchers when the caller's transaction commits. */
export async function insertTestDelivery(
  trx: Knex,
  input: { eventId: string; deliveryId: string; brandId: number; endpointId: number; type: string; payload: unknown },
): Promise<void> {
  await trx.raw(`INSERT INTO app.webhook_events (id, brand_id, type, payload, dedupe_key) VALUES (?, ?, ?, ?::json, ?)`, [
    input.eventId,
    input.brandId,
    input.type,
    JSON.stringify(input.payload),
    // Each test is its own fact: keyed by its own id, it never collides with a producer's key.
    `${input.type}:${input.eventId}`,
  ]);
  await trx.raw(`INSERT INTO app.webhook_deliveries (id, event_id, endpoint_id) VALUES (?, ?, ?)`, [input.deliveryId, input.eventId, input.endpointId]);
  await trx.raw("SELECT pg_notify(?, '')", [OUTBOX_CHANNEL]);
}

/** Test events sent to the endpoint since `since`. */
export async function countTestDeliveries(db: Knex, endpointId: number, type: string, since: Date): Promise<number> {
  const row = await db("app.webhook_deliveries as d")
    .join("app.webhook_events as ev", "ev.id", "d.event_id")
    .where({ "d.endpoint_id": endpointId, "ev.type": type })
    .where("d.created_at", ">=", since)
    .count<{ count: string }>("* as count")
    .first();
  return Number(row?.count ?? 0);
}
