// JSON Schemas of RFQ matching: the request (spec 4.3) and the response (spec 2.2). The AI answers we accept are the
// domain's (marketplace/rfq.ts).
import { MAX_NEAR_MISSES } from "../../marketplace/ranking";
import { MAX_MATCHES, MAX_QUANTITY, REQUESTABLE_CERTIFICATIONS, RFQ_MAX_LENGTH, RFQ_MIN_LENGTH } from "../../marketplace/rfq";
import type { JsonSchema } from "../../validation";

export const matchRequestSchema = {
  type: "object",
  required: ["rfq"],
  additionalProperties: false,
  properties: {
    // At most 2000 as sent, so trimmed too; "at least 3 once trimmed" is checked by the router with a readable problem.
    rfq: { type: "string", minLength: RFQ_MIN_LENGTH, maxLength: RFQ_MAX_LENGTH, description: "the buyer's need in plain words" },
    quantity: { type: "integer", minimum: 1, maximum: MAX_QUANTITY, description: "units to order; overrides a quantity in the text" },
    certifications: {
      type: "array",
      maxItems: REQUESTABLE_CERTIFICATIONS.length,
      uniqueItems: true,
      items: { type: "string", enum: REQUESTABLE_CERTIFICATIONS },
      description: "certifications every match must hold (audited, on chain); added to those named in the text",
    },
  },
} as const;

export const matchSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["factory_id", "name", "score", "reason", "certifications", "location"],
  properties: {
    factory_id: { type: "integer" },
    name: { type: "string" },
    score: { type: "integer", minimum: 0, maximum: 100, description: "match score; the list is sorted by it" },
    reason: { type: "string" },
    certifications: { type: "array", items: { type: "string" }, description: "audited certifications, as recorded on chain" },
    location: { type: "string", description: "city, country" },
  },
};

export const matchResponseSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["matches", "rfq_summary", "model"],
  properties: {
    matches: { type: "array", maxItems: MAX_MATCHES, items: matchSchema },
    near_misses: {
      type: "array",
      maxItems: MAX_NEAR_MISSES,
      description: "only when matches is empty: the registered factories closest to qualifying, nearest first, each with what it lacks",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["factory_id", "name", "score", "certifications", "location", "lacks"],
        properties: {
          factory_id: { type: "integer" },
          name: { type: "string" },
          score: { type: "integer", minimum: 0, maximum: 100, description: "the match score it would have" },
          certifications: { type: "array", items: { type: "string" }, description: "audited certifications, as recorded on chain" },
          location: { type: "string", description: "city, country" },
          lacks: { type: "array", minItems: 1, items: { type: "string" }, description: 'what keeps it out, e.g. "SA8000 certification"' },
        },
      },
    },
    rfq_summary: { type: "string" },
    model: {
      type: "string",
      description: 'the AI model that read the RFQ, "local-matcher-v1" without one, or "local-matcher-v1 (fallback: …)" when it failed',
    },
  },
};
