// JSON Schemas of the factory-write operations (spec 4.6).
import type { JsonSchema } from "../../validation";
import { CERTIFICATION_CODES } from "../../factories/reputation";
import { TEXTILE_STAGES } from "../../passports/textile";
import { UID_PATTERN } from "../dpp/schemas";

/** Text Postgres can store as sent: no NUL (refused by text and jsonb) and no lone surrogate (refused by jsonb,
 * silently replaced in text, which would break the hash of what was stored). Compiled with the "u" flag. */
const STORABLE = "^[^\\u0000\\uD800-\\uDFFF]*$";
const text = (maxLength: number) => ({ type: "string", minLength: 1, maxLength, pattern: STORABLE }) as const;

export const registerFactoryBody = {
  type: "object",
  additionalProperties: false,
  required: ["factory_id", "name", "city", "country", "capacity_units_per_month", "min_order_units", "lead_time_days"],
  properties: {
    factory_id: { type: "integer", minimum: 1, maximum: 999_999_999 },
    name: text(120),
    city: text(80),
    country: { type: "string", pattern: "^[A-Z]{2}$", maxLength: 2 },
    // Typed items keep uniqueItems from deep-comparing nested arrays (a stack overflow under the body limit).
    certifications: { type: "array", maxItems: 7, uniqueItems: true, items: { type: "string", enum: CERTIFICATION_CODES } },
    product_types: { type: "array", maxItems: 20, uniqueItems: true, items: { type: "string", pattern: "^[a-z][a-z-]{1,29}$", maxLength: 30 } },
    capacity_units_per_month: { type: "integer", minimum: 1, maximum: 100_000_000 },
    min_order_units: { type: "integer", minimum: 1, maximum: 10_000_000 },
    lead_time_days: { type: "integer", minimum: 1, maximum: 365 },
    description: { type: "string", maxLength: 500, pattern: STORABLE },
    verified: { type: "boolean" },
  },
} as const;

export const mintBody = {
  type: "object",
  additionalProperties: false,
  required: ["uid"],
  properties: { uid: { type: "string", maxLength: 43, pattern: UID_PATTERN } },
} as const;

export const assignTagBody = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "tag_uid"],
  properties: {
    uid: { type: "string", maxLength: 43, pattern: UID_PATTERN },
    // NFC UIDs are 4, 7 or 10 bytes, written in hex.
    tag_uid: { type: "string", pattern: "^(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{20})$", maxLength: 20 },
  },
} as const;

export const supplyChainEventBody = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "stage"],
  properties: {
    uid: { type: "string", maxLength: 43, pattern: UID_PATTERN },
    stage: { type: "integer", minimum: 1, maximum: 12 },
    details: {
      type: "object",
      maxProperties: 20,
      propertyNames: { type: "string", maxLength: 40, pattern: STORABLE },
      additionalProperties: { anyOf: [{ type: "string", maxLength: 500, pattern: STORABLE }, { type: "number" }, { type: "boolean" }] },
    },
  },
} as const;

/** PUT /api/factories/:id/identifiers: factories/facility-ids.ts checks the values and names what is wrong. */
export const facilityIdsBody = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    gln: { type: ["string", "null"], maxLength: 20, description: "GS1 GLN of the factory's site: 13 digits, check digit valid; empty or null clears it" },
    os_id: { type: ["string", "null"], maxLength: 25, description: "Open Supply Hub id, e.g. BD2019085TJ0JW3; empty or null clears it" },
  },
} as const;

export const facilityIdsResult: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["factory_id", "gln", "os_id"],
  properties: {
    factory_id: { type: "integer" },
    gln: { type: ["string", "null"] },
    os_id: { type: ["string", "null"] },
  },
};

export const factoryPathParam = {
  type: "object",
  required: ["id"],
  additionalProperties: false,
  properties: { id: { type: "string", pattern: "^[0-9]{1,9}$", maxLength: 9, description: "registry factory id" } },
} as const;

const hash = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" };

/** A transaction sent from the shared wallet and mined (chain/transactions.ts). */
const sentTransaction = {
  tx_hash: hash,
  explorer_url: { type: "string", format: "uri" },
  block_number: { type: "integer", minimum: 0 },
};
const SENT = ["tx_hash", "explorer_url", "block_number"];

export const factoryRegistrationResult: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["factory_id", "metadata_hash", ...SENT, "transactions"],
  properties: {
    factory_id: { type: "integer" },
    metadata_hash: { ...hash, description: "keccak256 of the profile kept off chain" },
    ...sentTransaction,
    transactions: {
      type: "array",
      description: "every transaction sent: register, then set_certifications and verify when asked for",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["action", ...SENT],
        properties: { action: { enum: ["register", "set_certifications", "verify"] }, ...sentTransaction },
      },
    },
  },
};

export const mintResult: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "token_id", "data_hash", "created", "tx_hash", "explorer_url", "block_number"],
  properties: {
    uid: { type: "string" },
    token_id: { type: "string" },
    data_hash: hash,
    created: { type: "boolean", description: "false when the passport was minted before (the answer is then 200)" },
    tx_hash: { type: ["string", "null"] },
    explorer_url: { type: ["string", "null"], format: "uri" },
    block_number: { type: ["integer", "null"] },
  },
};

export const tagResult: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "token_id", "tag_hash", ...SENT],
  properties: { uid: { type: "string" }, token_id: { type: "string" }, tag_hash: hash, ...sentTransaction },
};

export const supplyChainEventResult: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "token_id", "stage", "details_hash", ...SENT],
  properties: {
    uid: { type: "string" },
    token_id: { type: "string" },
    stage: { type: "integer", minimum: 1, maximum: 12 },
    details_hash: { ...hash, description: "keccak256 of the RFC 8785 JSON of the details kept off chain" },
    ...sentTransaction,
  },
};

/** POST /api/factories/:id/stage-confirmations: a factory confirms its own stage of a passport's textile section. */
export const stageConfirmationBody = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "stage"],
  properties: {
    uid: { type: "string", maxLength: 43, pattern: UID_PATTERN },
    stage: { enum: TEXTILE_STAGES, description: "the stage of textile.stages to confirm" },
    index: { type: "integer", minimum: 0, maximum: 19, description: "its position in textile.stages; needed only when this factory runs the stage more than once" },
  },
} as const;

export const stageConfirmationResult: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "token_id", "stage", "index", "factory_id", "confirmed_by", "stage_code", "details_hash", "confirmed_at", "created", ...SENT],
  properties: {
    uid: { type: "string" },
    token_id: { type: "string" },
    stage: { enum: TEXTILE_STAGES },
    index: { type: "integer", minimum: 0, description: "the stage's position in textile.stages" },
    factory_id: { type: "integer" },
    confirmed_by: { enum: ["factory_operator", "admin"], description: "the factory's own operator, or an admin acting for it" },
    stage_code: { type: "integer", minimum: 1, maximum: 12, description: "the contract's supply-chain stage the event is recorded under" },
    details_hash: { ...hash, description: "keccak256 of the RFC 8785 JSON of the confirmation's details (the stage as declared, the content hash)" },
    confirmed_at: { type: "string", format: "date-time" },
    created: { type: "boolean", description: "false when the stage was confirmed before (the answer is then 200 with that confirmation)" },
    ...sentTransaction,
  },
};
