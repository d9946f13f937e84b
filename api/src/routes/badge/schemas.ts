// Schemas of the badge routes: the badge JSON (GET /api/badge/:uid) and the demo page's query.
import { UID_PATTERN } from "../dpp/schemas";
import type { JsonSchema } from "../../validation";

export { uidParam } from "../dpp/schemas";

/**
 * `?uid=` of /embed/demo; optional, and empty when the demo form is sent blank (the page then shows the form). Other
 * query parameters are ignored.
 */
export const demoQuery = {
  type: "object",
  properties: { uid: { type: "string", maxLength: 43, pattern: `^(?:${UID_PATTERN.slice(1, -1)})?$`, description: "a product UID, or empty" } },
} as const;

export const badgeSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "carbon_rating", "carbon_label", "carbon_kg", "certified", "certificate_url"],
  properties: {
    uid: { type: "string" },
    carbon_rating: { enum: ["A", "B", "C", "D"] },
    carbon_label: { enum: ["Low impact", "Moderate", "High", "Very high"] },
    carbon_kg: { type: "number" },
    certified: { type: "boolean", description: "minted and indexed at the configured confirmation depth" },
    certificate_url: { type: "string", format: "uri" },
  },
};
