// The outbox: producers record events inside their own transaction; the dispatcher delivers them later.
import { randomBytes } from "node:crypto";
import type { Knex } from "../db/knex";
import { isEventType, type EventType } from "./events";
import { fanOutDeliveries, fanOutDeliveriesOf, findEventIdByDedupeKey, insertEvent, insertEvents, notifyOutbox } from "./outbox.repo";

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

  const created = await insertEvent(trx, { id: newEventId(), brandId: event.brandId, type: event.type, payload: event.payload, dedupeKey: event.dedupeKey });
  if (!created) return (await findEventIdByDedupeKey(trx, event.dedupeKey))!;
  const fanned = await fanOutDeliveries(trx, created, event.brandId, event.type);
  if (fanned > 0) await notifyOutbox(trx, OUTBOX_CHANNEL);
  return created;
}

/**
 * enqueueEvent for many events in a few statements (a mint of hundreds of passports): the new ones are recorded and
 * fanned out, those whose dedupe key is known are skipped. Same transaction rule as enqueueEvent.
 */
export async function enqueueEvents(trx: Knex, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  for (const event of events) {
    if (!isEventType(event.type)) throw new Error(`unknown event type "${String(event.type)}"`);
    if (!event.dedupeKey || event.dedupeKey.length > 300) throw new Error("dedupeKey must be 1 to 300 characters");
  }
  const created = await insertEvents(
    trx,
    events.map((event) => ({ id: newEventId(), brandId: event.brandId, type: event.type, payload: event.payload, dedupeKey: event.dedupeKey })),
  );
  if (created.length === 0) return;
  if ((await fanOutDeliveriesOf(trx, created)) > 0) await notifyOutbox(trx, OUTBOX_CHANNEL);
}
