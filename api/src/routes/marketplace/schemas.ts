// JSON Schemas of RFQ matching: the request (spec 4.3), the response (spec 2.2) and the two AI answers we accept.
import type { JsonSchema } from "../../validation";

/** Certifications a buyer may require in the request body (spec 4.3). */
export const REQUESTABLE_CERTIFICATIONS = ["GOTS", "OEKO-TEX", "ISO9001"] as const;

export const RFQ_MIN_LENGTH = 3;
export const RFQ_MAX_LENGTH = 2000;
export const MAX_QUANTITY = 10_000_000;
/** The response lists at most this many factories. */
export const MAX_MATCHES = 5;

export type MatchRequest = {
  rfq: string;
  quantity?: number;
  certifications?: Array<(typeof REQUESTABLE_CERTIFICATIONS)[number]>;
};

export const matchRequestSchema: JsonSchema = {
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
      items: { type: "string", enum: [...REQUESTABLE_CERTIFICATIONS] },
      description: "certifications every match must hold (audited, on chain); added to those named in the text",
    },
  },
};

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
    rfq_summary: { type: "string" },
    model: {
      type: "string",
      description: 'the AI model that read the RFQ, "local-matcher-v1" without one, or "local-matcher-v1 (fallback: …)" when it failed',
    },
  },
};

const shortStrings = (maxItems: number, maxLength: number) => ({
  type: "array",
  maxItems,
  items: { type: "string", maxLength },
});

/** What the extraction call must answer. Extra keys are ignored; values outside our vocabulary are dropped later. */
export const aiNeedsSchema: JsonSchema = {
  type: "object",
  required: ["product_types", "certifications"],
  properties: {
    product_types: shortStrings(12, 60),
    certifications: shortStrings(10, 60),
    quantity: { anyOf: [{ type: "integer", minimum: 1, maximum: MAX_QUANTITY }, { type: "null" }] },
    countries: shortStrings(12, 60),
    max_lead_time_days: { anyOf: [{ type: "integer", minimum: 1, maximum: 730 }, { type: "null" }] },
    keywords: shortStrings(20, 40),
  },
};

export type AiNeeds = {
  product_types: string[];
  certifications: string[];
  quantity?: number | null;
  countries?: string[];
  max_lead_time_days?: number | null;
  keywords?: string[];
};

/** What the wording call must answer; a reason for a factory we did not send is ignored. */
export const aiWordsSchema: JsonSchema = {
  type: "object",
  required: ["rfq_summary", "reasons"],
  properties: {
    rfq_summary: { type: "string", minLength: 1, maxLength: 600 },
    reasons: {
      type: "object",
      maxProperties: 20,
      propertyNames: { type: "string", pattern: "^[0-9]{1,15}$", maxLength: 15 },
      additionalProperties: { type: "string", maxLength: 600 },
    },
  },
};

export type AiWords = { rfq_summary: string; reasons: Record<string, string> };
