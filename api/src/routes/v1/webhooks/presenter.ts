// Shapes webhook endpoints and deliveries for the v1 API; secrets appear only in registration and rotation results.
import type { CreatedEndpoint, DeliveryRecord, EndpointRecord } from "../../../webhooks/endpoints";

export const SIGNATURE_NOTE =
  "Store signing_secret now: it is not shown again. Every delivery is an HTTP POST of a JSON body with " +
  "X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" keyed with signing_secret as " +
  "UTF-8 text>, and the Standard Webhooks headers webhook-id (the same on every retry: use it to drop duplicates), " +
  "webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw " +
  "body>\" keyed with the base64-decoded part after whsec_>). Compare in constant time and reject timestamps more " +
  "than 5 minutes old. Answer 2xx within 10 s; other answers are retried for about 3 days; 410 disables the webhook.";

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentRegistration(created: CreatedEndpoint) {
  return {
    webhook_id: created.endpoint.id,
    url: created.endpoint.url,
    events: created.endpoint.events,
    signing_secret: created.signingSecret,
    note: SIGNATURE_NOTE,
  };
}

export function presentWebhook(endpoint: EndpointRecord) {
  return {
    webhook_id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    disabled_at: iso(endpoint.disabledAt),
    previous_secret_valid_until: iso(endpoint.previousSecretExpiresAt),
    created_at: endpoint.createdAt.toISOString(),
  };
}

export function presentDelivery(delivery: DeliveryRecord) {
  return {
    delivery_id: delivery.id,
    event_id: delivery.eventId,
    event: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    last_attempt_at: iso(delivery.lastAttemptAt),
    last_response_code: delivery.lastResponseCode,
    last_error: delivery.lastError,
    next_attempt_at: iso(delivery.nextAttemptAt),
    delivered_at: iso(delivery.deliveredAt),
    created_at: delivery.createdAt.toISOString(),
  };
}

export function presentDeliveries(endpoint: EndpointRecord, deliveries: DeliveryRecord[], limit: number) {
  return {
    webhook: presentWebhook(endpoint),
    deliveries: deliveries.map(presentDelivery),
    next_before: deliveries.length === limit ? deliveries[deliveries.length - 1]!.id : null,
  };
}

export function presentRotation(rotated: CreatedEndpoint) {
  return {
    webhook_id: rotated.endpoint.id,
    signing_secret: rotated.signingSecret,
    previous_secret_valid_until: rotated.endpoint.previousSecretExpiresAt!.toISOString(),
    note:
      "Store signing_secret now: it is not shown again. Until previous_secret_valid_until every delivery carries " +
      "two signatures, one per secret (two v1= values in X-Service-Signature, two space-separated entries in " +
      "webhook-signature), so a receiver holding either secret accepts it; switch the receiver to the new secret " +
      "within that window.",
  };
}
