// JSON Schemas of POST /api/v1/certs/issue (spec 4.10, 2.6).
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
