// JSON Schemas of the dashboard's tap analytics: its query (period, one product) and its answer.
import type { JsonSchema } from "../../../validation";
import { BY_PRODUCT_LIMIT, COUNTER_JUMP_LIMIT, FAR_APART_MINUTES, INVALID_TAPS_PER_DAY_LIMIT, SIGNALS_PER_TAG, SUSPICIOUS_LIMIT } from "../../../tags/analytics";
import { TIMESTAMP } from "../base";

/** The clone-signal rules in words, with the thresholds the domain applies. */
export const SIGNAL_RULES = `replay: a replayed tap (a counter not above the last accepted one); counter_jump: an accepted counter more than ${COUNTER_JUMP_LIMIT} above the one accepted before it; far_apart: two accepted taps of one tag from different client regions within ${FAR_APART_MINUTES} minutes; invalid_macs: more than ${INVALID_TAPS_PER_DAY_LIMIT} invalid taps on one product in one UTC day`;

export const tapAnalyticsQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    uid: { type: "string", maxLength: 43, pattern: "^[A-Za-z0-9]{2,10}-[A-Za-z0-9]{4,32}$", description: "only the taps that opened this product's URL" },
    days: { type: "string", pattern: "^(?:[1-9][0-9]?|[12][0-9]{2}|3[0-5][0-9]|36[0-5])$", description: "how many UTC days back, today included: 1 to 365 (default 30)" },
  },
} as const;

const count: JsonSchema = { type: "integer", minimum: 0 };

/** One count per verdict of app.tag_taps. */
const verdictCounts = {
  authentic: { ...count, description: "SUN checked, counter above the last accepted one" },
  replayed: { ...count, description: "SUN checked, but the counter was not above the last accepted one" },
  invalid: { ...count, description: "MAC or format did not check" },
  unknown_tag: { ...count, description: "no tag of ours with that UID" },
  not_bound: { ...count, description: "a tag of ours, not bound to the product whose URL was opened" },
  unverified: { ...count, description: "a plain tag, or no SUN parameters" },
} as const;
const VERDICTS = Object.keys(verdictCounts);

const signalSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["kind", "detail", "at"],
  properties: {
    kind: {
      enum: ["replay", "counter_jump", "far_apart", "invalid_macs"],
      description: SIGNAL_RULES,
    },
    detail: { type: "string", description: "the signal in words, with its numbers" },
    at: { ...TIMESTAMP, description: "when the tap that raised it happened (for invalid_macs: the day's last invalid tap)" },
  },
};

export const tapAnalyticsSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["days", "daily", "by_product", "verdict_mix", "suspicious"],
  properties: {
    days: { type: "integer", description: "the period, in UTC days" },
    daily: {
      type: "array",
      description: "every day of the period, oldest first, zeros included",
      items: { type: "object", additionalProperties: false, required: ["date", ...VERDICTS], properties: { date: { type: "string", format: "date" }, ...verdictCounts } },
    },
    by_product: {
      type: "array",
      description: `the ${BY_PRODUCT_LIMIT} most tapped products of the period`,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["uid", "name", "taps", "authentic"],
        properties: { uid: { type: "string" }, name: { type: "string" }, taps: count, authentic: count },
      },
    },
    verdict_mix: { type: "object", additionalProperties: false, required: VERDICTS, properties: verdictCounts },
    suspicious: {
      type: "array",
      description: `tags with clone signals in the period (at most ${SUSPICIOUS_LIMIT}), the newest signal first`,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["tag_uid", "product_uid", "signals", "signal_count", "last_tap_at"],
        properties: {
          tag_uid: { type: ["string", "null"], description: "null: invalid taps on a product that has no tag bound" },
          product_uid: { type: "string", description: "the product the tag is bound to (else the one whose URL was tapped)" },
          signals: { type: "array", items: signalSchema, description: `the newest ${SIGNALS_PER_TAG} signals, newest first` },
          signal_count: { ...count, description: "all the tag's signals in the period, listed or not" },
          last_tap_at: { ...TIMESTAMP, description: "the tag's latest tap, whatever its verdict" },
        },
      },
    },
  },
};
