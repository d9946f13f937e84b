// JSON Schemas of the public DPP route.
import type { JsonSchema } from "../../validation";

/** `<PREFIX>-<CODE>`; case-insensitive (stored upper case). */
export const UID_PATTERN = "^[A-Za-z0-9]{2,10}-[A-Za-z0-9]{4,32}$";

export const uidParam: JsonSchema = {
  type: "object",
  required: ["uid"],
  additionalProperties: false,
  properties: { uid: { type: "string", maxLength: 43, pattern: UID_PATTERN } },
};
