// JSON Schemas of the dashboard's session, password and invitation routes.
import { ROLES, PERMISSIONS } from "../../../team/roles";
import { EMAIL_MAX, PASSWORD_MAX } from "../../../team/service";
import type { JsonSchema } from "../../../validation";

const email = { type: "string", format: "email", maxLength: EMAIL_MAX } as const;
const password = { type: "string", minLength: 1, maxLength: PASSWORD_MAX } as const;
const token = { type: "string", minLength: 10, maxLength: 100, pattern: "^[A-Za-z0-9_-]+$" } as const;

export const signInBody = {
  type: "object",
  required: ["email", "password"],
  additionalProperties: false,
  properties: { email, password },
} as const;

export const signOutBody = {
  type: "object",
  additionalProperties: false,
  properties: { everywhere: { type: "boolean", default: false, description: "end every session of this user, on every device" } },
} as const;

export const changePasswordBody = {
  type: "object",
  required: ["current_password", "password"],
  additionalProperties: false,
  properties: { current_password: password, password },
} as const;

export const resetRequestBody = { type: "object", required: ["email"], additionalProperties: false, properties: { email } } as const;

export const resetCompleteBody = { type: "object", required: ["token", "password"], additionalProperties: false, properties: { token, password } } as const;

export const inspectInvitationBody = { type: "object", required: ["token"], additionalProperties: false, properties: { token } } as const;

export const acceptInvitationBody = {
  type: "object",
  required: ["token", "password"],
  additionalProperties: false,
  properties: { token, password, name: { type: "string", minLength: 1, maxLength: 100 } },
} as const;

export const sessionData: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["user", "brand", "permissions", "csrf_token", "expires_at"],
  properties: {
    user: {
      type: "object",
      additionalProperties: false,
      required: ["id", "email", "name", "role"],
      properties: { id: { type: "integer" }, email: { type: "string" }, name: { type: ["string", "null"] }, role: { enum: [...ROLES] } },
    },
    brand: {
      type: "object",
      additionalProperties: false,
      required: ["slug", "name", "plan", "status"],
      properties: { slug: { type: "string" }, name: { type: "string" }, plan: { type: "string" }, status: { enum: ["active", "suspended"] } },
    },
    permissions: { type: "array", items: { enum: Object.keys(PERMISSIONS) }, description: "what this user's role allows (the server checks each call again)" },
    csrf_token: { type: "string", description: "send as X-CSRF-Token on every request other than GET" },
    expires_at: { type: "string", format: "date-time" },
  },
};

export const invitationData: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["email", "brand", "role"],
  properties: { email: { type: "string" }, brand: { type: "string" }, role: { enum: [...ROLES] } },
};
