// JSON Schemas of GET /api/scan/{uid}: the SUN parameters a tag mirrors into its URL, and the verdict answered.
import { TAG_CHIPS, TAP_VERDICTS } from "../../tags/verdicts";
import type { JsonSchema } from "../../validation";

export { uidParam } from "../dpp/schemas";

/**
 * The tag's mirror parameters, as on the scan page. Only lengths are bounded here: a value of the right length but
 * the wrong shape is a tap to judge (verdict `invalid`), not a malformed request.
 */
export const sunQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    picc_data: { type: "string", maxLength: 64, description: "PICCData: UID and read counter, AES-encrypted by the tag (32 hex digits)" },
    cmac: { type: "string", maxLength: 32, description: "SDMMAC: the tag's truncated AES-CMAC over this read (16 hex digits)" },
    enc: { type: "string", maxLength: 256, description: "SDMEncFileData, when the tag mirrors encrypted file data (hex, whole 16-byte blocks)" },
  },
} as const;

export const scanVerdictSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "verdict", "headline", "message", "tag", "passport"],
  properties: {
    uid: { type: "string", description: "the product's UID" },
    verdict: { enum: [...TAP_VERDICTS], description: "what the tap's check concluded (docs/nfc-tags.md, verdict table)" },
    headline: { type: "string", description: "the verdict in a few words for a shopper" },
    message: { type: "string", description: "what the verdict means, in words a shopper understands (as the scan page shows it)" },
    tag: {
      type: ["object", "null"],
      additionalProperties: false,
      required: ["chip", "counter"],
      description: "the tag whose signature verified (authentic, replayed, not_bound); null otherwise",
      properties: {
        chip: { enum: [...TAG_CHIPS] },
        counter: { type: "integer", minimum: 0, maximum: 16777215, description: "the read counter this tap carried" },
      },
    },
    passport: {
      type: "object",
      additionalProperties: false,
      required: ["verified", "status", "dpp_url"],
      properties: {
        verified: { type: "boolean", description: "minted and at the confirmation depth on chain" },
        status: { type: ["string", "null"], description: "the passport's status on chain (active, lost, stolen, recovered), null before minting" },
        dpp_url: { type: "string", format: "uri" },
      },
    },
  },
};

export const SCAN_VERDICT_EXAMPLE = {
  uid: "DEMO-7K3M9Q2X",
  verdict: "authentic",
  headline: "Genuine tag",
  message: "This page was opened by the secure NFC tag made for this product. The tag signs every tap with a new code, and this one checked out just now.",
  tag: { chip: "NTAG424", counter: 12 },
  passport: { verified: true, status: "active", dpp_url: "https://dpp.example/api/dpp/DEMO-7K3M9Q2X" },
};
