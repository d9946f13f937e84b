// JSON Schemas of the v1 webhook routes (spec 4.12 and the delivery log).
import { V1_EVENTS } from "../../../webhooks/events";
import { MAX_URL_LENGTH } from "../../../webhooks/endpoints";
import type { JsonSchema } from "../../../validation";

export const registerBody = {
  type: "object",
  additionalProperties: false,
  required: ["url", "events"],
  properties: {
    url: { type: "string", minLength: 1, maxLength: MAX_URL_LENGTH, description: "receiver; https (http only in local mode)" },
    events: { type: "array", minItems: 1, maxItems: V1_EVENTS.length, uniqueItems: true, items: { type: "string", enum: V1_EVENTS } },
  },
} as const;

export const webhookPathParams = {
  type: "object",
  additionalProperties: false,
  required: ["id"],
  properties: { id: { type: "string", pattern: "^[0-9]{1,9}$", maxLength: 9 } },
} as const;

export const DELIVERY_ID_PATTERN = "^msg_[0-9a-f]{32}$";

export const deliveryPathParams = {
  type: "object",
  additionalProperties: false,
  required: ["id", "deliveryId"],
  properties: {
    id: { type: "string", pattern: "^[0-9]{1,9}$", maxLength: 9 },
    deliveryId: { type: "string", pattern: DELIVERY_ID_PATTERN, maxLength: 36 },
  },
} as const;

export const DELIVERY_STATUSES = ["pending", "delivering", "succeeded", "failed"] as const;

export const deliveriesQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    limit: { type: "string", pattern: "^(?:[1-9][0-9]?|100)$", maxLength: 3, description: "1-100, default 20" },
    status: { type: "string", enum: DELIVERY_STATUSES },
    before: { type: "string", pattern: DELIVERY_ID_PATTERN, maxLength: 36, description: "next_before of the previous page" },
  },
} as const;

const nullableString = { type: ["string", "null"] };
const timestamp = { type: "string", format: "date-time" };
const nullableTimestamp = { type: ["string", "null"], format: "date-time" };

export const registrationSchema: JsonSchema = {
  type: "object",
  required: ["webhook_id", "url", "events", "signing_secret", "note"],
  properties: {
    webhook_id: { type: "integer" },
    url: { type: "string", format: "uri" },
    events: { type: "array", items: { type: "string", enum: [...V1_EVENTS] } },
    signing_secret: { type: "string", description: "whsec_ + base64 of 32 random bytes; shown only in this response" },
    note: { type: "string" },
  },
};

export const webhookSchema: JsonSchema = {
  type: "object",
  required: ["webhook_id", "url", "events", "status", "disabled_reason", "disabled_at", "previous_secret_valid_until", "created_at"],
  properties: {
    webhook_id: { type: "integer" },
    url: { type: "string", format: "uri" },
    events: { type: "array", items: { type: "string" } },
    status: { enum: ["active", "disabled"] },
    disabled_reason: nullableString,
    disabled_at: nullableTimestamp,
    previous_secret_valid_until: nullableTimestamp,
    created_at: timestamp,
  },
};

export const deliverySchema: JsonSchema = {
  type: "object",
  required: ["delivery_id", "event_id", "event", "status", "attempts", "last_attempt_at", "last_response_code", "last_error", "next_attempt_at", "delivered_at", "created_at"],
  properties: {
    delivery_id: { type: "string", description: "sent as webhook-id; the same on every attempt" },
    event_id: { type: "string", description: "sent as X-Service-Event-Id" },
    event: { type: "string" },
    status: { enum: [...DELIVERY_STATUSES] },
    attempts: { type: "integer" },
    last_attempt_at: nullableTimestamp,
    last_response_code: { type: ["integer", "null"] },
    last_error: nullableString,
    next_attempt_at: { ...nullableTimestamp, description: "when the next attempt is due; null unless pending" },
    delivered_at: nullableTimestamp,
    created_at: timestamp,
  },
};

export const deliveriesSchema: JsonSchema = {
  type: "object",
  required: ["webhook", "deliveries", "next_before"],
  properties: {
    webhook: webhookSchema,
    deliveries: { type: "array", items: deliverySchema },
    next_before: { type: ["string", "null"], description: "pass as ?before= for the next (older) page" },
  },
};

export const rotationSchema: JsonSchema = {
  type: "object",
  required: ["webhook_id", "signing_secret", "previous_secret_valid_until", "note"],
  properties: {
    webhook_id: { type: "integer" },
    signing_secret: { type: "string" },
    previous_secret_valid_until: timestamp,
    note: { type: "string" },
  },
};

export const webhookListSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["webhooks"],
  properties: { webhooks: { type: "array", items: webhookSchema } },
};

export const deletionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["webhook_id", "deleted"],
  properties: { webhook_id: { type: "integer" }, deleted: { const: true } },
};
