// Path parameters of the customer-facing pages.
import { SLUG_PATTERN } from "../../brands/service";
import type { JsonSchema } from "../../validation";

export { UID_PATTERN, uidParam } from "../dpp/schemas";

export const slugParam: JsonSchema = {
  type: "object",
  required: ["slug"],
  additionalProperties: false,
  properties: { slug: { type: "string", maxLength: 40, pattern: SLUG_PATTERN.source } },
};
