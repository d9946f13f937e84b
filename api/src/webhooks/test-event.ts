// Test events: a signed `webhook.test` delivery to one endpoint, queued in the outbox and sent by the dispatcher like
// any event, so the receiver sees the real headers, signatures, retries and delivery log.
import type { Knex } from "../db/knex";
import { ConflictError, RateLimitError } from "../errors";
import type { EndpointRecord } from "./endpoints.repo";
import { isoTimestamp } from "./events";
import { newDeliveryId, newEventId } from "./outbox";
import { countTestDeliveries, insertTestDelivery } from "./test-event.repo";

/** Not in the catalogue (events.ts): nobody subscribes to it; only the endpoint it is sent to receives it. */
export const TEST_EVENT = "webhook.test";
/** Enough to try a receiver a few times in a row; a test cannot be used to flood someone's server through us. */
export const TEST_EVENTS_PER_WINDOW = 5;
export const TEST_WINDOW_SECONDS = 600;

export function testEventPayload(p: { webhookId: number; kind: string; at: Date }) {
  return {
    event: TEST_EVENT,
    webhook_id: p.webhookId,
    kind: p.kind,
    message: "A test delivery from the brand dashboard. It carries no data; answer 2xx to mark it delivered.",
    timestamp: isoTimestamp(p.at),
  };
}

/** Queues a test event to `endpoint` (active only); returns the delivery's id (its webhook-id header). */
export async function queueTestEvent(trx: Knex, endpoint: EndpointRecord, now = new Date()): Promise<{ deliveryId: string; eventId: string }> {
  if (endpoint.status !== "active") {
    throw new ConflictError(`The webhook is disabled (${endpoint.disabledReason ?? "no reason recorded"}); enable it first.`);
  }
  const since = new Date(now.getTime() - TEST_WINDOW_SECONDS * 1000);
  if ((await countTestDeliveries(trx, endpoint.id, TEST_EVENT, since)) >= TEST_EVENTS_PER_WINDOW) {
    throw new RateLimitError(TEST_WINDOW_SECONDS, `At most ${TEST_EVENTS_PER_WINDOW} test events per webhook in ${TEST_WINDOW_SECONDS / 60} minutes.`);
  }
  const eventId = newEventId();
  const deliveryId = newDeliveryId();
  const payload = testEventPayload({ webhookId: endpoint.id, kind: endpoint.kind, at: now });
  await insertTestDelivery(trx, { eventId, deliveryId, brandId: endpoint.brandId, endpointId: endpoint.id, type: TEST_EVENT, payload });
  return { deliveryId, eventId };
}
