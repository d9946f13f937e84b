// JSON Schemas of POST /api/v1/certs/issue (spec 4.10, 2.6) and of bulk issuance (/api/v1/certs/bulk).
import { BULK_MAX_UIDS } from "../../../passports/bulk-issuance";
import type { JsonSchema } from "../../../validation";
import { UID_PATTERN } from "../../dpp/schemas";

export const issueBody = {
  type: "object",
  additionalProperties: false,
  required: ["uid"],
  properties: { uid: { type: "string", maxLength: 43, pattern: UID_PATTERN } },
} as const;

export const issuanceResult: JsonSchema = {
  type: "object",
  required: ["uid", "tx_hash", "network_url", "certificate_pdf_url", "status"],
  properties: {
    uid: { type: "string" },
    tx_hash: { type: "string" },
    network_url: { type: "string", format: "uri" },
    certificate_pdf_url: { type: "string", format: "uri" },
    status: { const: "minted" },
    token_id: { type: "string" },
    contract: { type: "string" },
    network: { type: "string" },
    block_number: { type: "integer" },
    data_hash: { type: "string" },
    issued_at: { type: "string", format: "date-time" },
  },
};

/** POST /api/v1/certs/bulk: UIDs of the brand's products, or the id of one of its CSV imports (every product of it). */
export const bulkBody = {
  type: "object",
  oneOf: [
    {
      type: "object",
      additionalProperties: false,
      required: ["uids"],
      properties: { uids: { type: "array", minItems: 1, maxItems: BULK_MAX_UIDS, items: { type: "string", maxLength: 43, pattern: UID_PATTERN } } },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["import_id"],
      properties: { import_id: { type: "string", pattern: "^[1-9][0-9]{0,15}$", description: "a CSV import of the brand (dashboard): every product it registered" } },
    },
  ],
} as const;

export const bulkParams = { type: "object", required: ["id"], properties: { id: { type: "string", pattern: "^[1-9][0-9]{0,15}$" } } } as const;

/** A bulk issuance and its progress; the counters come from the passports themselves, each counted once. */
export const bulkIssuanceSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "state", "import_id", "total", "claimed", "minted", "confirmed", "failed", "progress_url", "created_at", "completed_at"],
  properties: {
    id: { type: "string" },
    state: { enum: ["queued", "issuing", "completed"], description: "completed: every passport is final at the confirmation depth or failed" },
    import_id: { type: ["string", "null"] },
    total: { type: "integer", description: "products in the job (a UID listed twice counts once)" },
    claimed: { type: "integer", description: "products whose issuance is claimed and counted against the certificate quota (or was before)" },
    minted: { type: "integer", description: "passports mined on chain" },
    confirmed: { type: "integer", description: "passports final at the confirmation depth" },
    failed: { type: "integer", description: "refused (monthly certificate limit) or failed for good" },
    progress_url: { type: "string", format: "uri" },
    created_at: { type: "string", format: "date-time" },
    completed_at: { type: ["string", "null"], format: "date-time" },
  },
};
