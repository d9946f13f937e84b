// JSON Schemas of the dashboard's NFC tag routes: provisioning a batch, and the list of the brand's tags.
import { PROVISION_MAX_TAGS } from "../../../tags/provisioning";
import { TAG_CHIPS, TAG_STATUSES, TAG_UID_PATTERN, TAP_VERDICTS } from "../../../tags/verdicts";
import type { JsonSchema } from "../../../validation";
import { UID_PATTERN } from "../../dpp/schemas";
import { PAGE_QUERY, TIMESTAMP } from "../base";

/** At most 1,000 tags: compact JSON of a full batch with the longest product UIDs stays under the 64 KB body limit. */
export const provisionBody = {
  type: "object",
  additionalProperties: false,
  required: ["chip", "tag_uids"],
  properties: {
    chip: { enum: [...TAG_CHIPS], description: "NTAG424 (NTAG 424 DNA: signs every tap, gets keys) or NTAG215 (plain)" },
    tag_uids: {
      type: "array",
      minItems: 1,
      maxItems: PROVISION_MAX_TAGS,
      description: "the chips' 7-byte UIDs, as the encoder reads them",
      items: { type: "string", maxLength: 14, pattern: TAG_UID_PATTERN },
    },
    product_uids: {
      type: "array",
      minItems: 1,
      maxItems: PROVISION_MAX_TAGS,
      description: "the product each tag goes on, in the same order (binds each tag to it); leave out to bind later",
      items: { type: "string", maxLength: 43, pattern: UID_PATTERN },
    },
  },
} as const;

export const tagListQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...PAGE_QUERY,
    status: { enum: [...TAG_STATUSES] },
    product: { type: "string", maxLength: 43, pattern: UID_PATTERN, description: "only the tags bound to this product" },
  },
} as const;

const tapCounts: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: [...TAP_VERDICTS],
  properties: Object.fromEntries(TAP_VERDICTS.map((verdict) => [verdict, { type: "integer", minimum: 0 }])),
};

export const tagSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["tag_uid", "chip", "key_version", "status", "product_uid", "last_counter", "last_accepted_at", "last_tap", "taps", "created_at"],
  properties: {
    tag_uid: { type: "string" },
    chip: { enum: [...TAG_CHIPS] },
    key_version: { type: ["integer", "null"], description: "the key version the tag's keys are derived for; null for NTAG215" },
    status: { enum: [...TAG_STATUSES] },
    product_uid: { type: ["string", "null"], description: "the product the tag is bound to" },
    last_counter: { type: ["integer", "null"], description: "the last read counter accepted; null before the first authentic tap" },
    last_accepted_at: { ...TIMESTAMP, type: ["string", "null"], description: "when the last authentic tap was accepted" },
    last_tap: {
      type: ["object", "null"],
      additionalProperties: false,
      required: ["at", "verdict"],
      description: "the tag's newest tap, whatever its verdict",
      properties: { at: TIMESTAMP, verdict: { enum: [...TAP_VERDICTS] } },
    },
    taps: { ...tapCounts, description: "every tap attributed to the tag, by verdict" },
    created_at: TIMESTAMP,
  },
};

export const pageMetaSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["page", "per_page", "total"],
  properties: { page: { type: "integer" }, per_page: { type: "integer" }, total: { type: "integer" } },
};
