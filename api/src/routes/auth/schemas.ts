// JSON Schemas of POST /api/login and POST /api/logout.
import type { JsonSchema } from "../../validation";

export const loginBody = {
  type: "object",
  required: ["email", "password"],
  additionalProperties: false,
  properties: {
    email: { type: "string", format: "email", maxLength: 254 },
    password: { type: "string", minLength: 1, maxLength: 256 },
  },
} as const;

export const loginResponse: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["token", "token_type", "expires_in", "expires_at", "operator"],
  properties: {
    token: { type: "string" },
    token_type: { const: "Bearer" },
    expires_in: { type: "integer" },
    expires_at: { type: "string", format: "date-time" },
    operator: {
      type: "object",
      additionalProperties: false,
      required: ["email", "role", "factory_id"],
      properties: { email: { type: "string" }, role: { enum: ["admin", "operator"] }, factory_id: { type: ["integer", "null"] } },
    },
  },
};

/** The body of POST /api/logout is optional: none (or `{}`) ends this session, `{"all": true}` every session. */
export const logoutBody = {
  type: "object",
  additionalProperties: false,
  properties: { all: { type: "boolean", default: false } },
} as const;
