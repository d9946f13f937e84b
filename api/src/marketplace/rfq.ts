// What RFQ matching works with, HTTP aside: the request and its bounds, and the two answers accepted from the AI model.
import { CERTIFICATION_CODES } from "../factories/reputation";
import type { JsonSchema } from "../validation";

/**
 * Certifications a buyer may require in the request body: spec 4.3 names GOTS, OEKO-TEX and ISO9001; every other code
 * the registry records (and the text reader knows) is accepted too, so the body can require what the text can.
 */
export const REQUESTABLE_CERTIFICATIONS = CERTIFICATION_CODES;

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
    preferred_certifications: shortStrings(10, 60),
    quantity: { anyOf: [{ type: "integer", minimum: 1, maximum: MAX_QUANTITY }, { type: "null" }] },
    countries: shortStrings(12, 60),
    max_lead_time_days: { anyOf: [{ type: "integer", minimum: 1, maximum: 730 }, { type: "null" }] },
    destination: { anyOf: [{ type: "string", maxLength: 60 }, { type: "null" }] },
    incoterm: { anyOf: [{ type: "string", maxLength: 20 }, { type: "null" }] },
    keywords: shortStrings(20, 40),
  },
};

export type AiNeeds = {
  product_types: string[];
  certifications: string[];
  preferred_certifications?: string[];
  quantity?: number | null;
  countries?: string[];
  max_lead_time_days?: number | null;
  destination?: string | null;
  incoterm?: string | null;
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
