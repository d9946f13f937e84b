// Path parameters of the customer-facing pages.
import { SLUG_PATTERN } from "../../brands/service";

export { UID_PATTERN, uidParam } from "../dpp/schemas";

export const slugParam = {
  type: "object",
  required: ["slug"],
  additionalProperties: false,
  properties: { slug: { type: "string", maxLength: 40, pattern: SLUG_PATTERN.source, description: "brand slug, case-insensitive" } },
} as const;
