// JSON Schemas of the dashboard's team and audit-log routes.
import { ROLES } from "../../../team/roles";
import { EMAIL_MAX } from "../../../team/service";
import type { JsonSchema } from "../../../validation";

export const memberParams = { type: "object", required: ["id"], properties: { id: { type: "string", pattern: "^[1-9][0-9]{0,8}$" } } } as const;

export const inviteBody = {
  type: "object",
  required: ["email", "role"],
  additionalProperties: false,
  properties: {
    email: { type: "string", format: "email", maxLength: EMAIL_MAX },
    role: { enum: [...ROLES] },
    name: { type: "string", minLength: 1, maxLength: 100 },
  },
} as const;

export const roleBody = { type: "object", required: ["role"], additionalProperties: false, properties: { role: { enum: [...ROLES] } } } as const;

export const auditQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    before: { type: "string", pattern: "^[1-9][0-9]{0,17}$", description: "the `next_before` of the previous page" },
    limit: { type: "string", pattern: "^(?:[1-9][0-9]?|100)$", description: "entries per page, 1 to 100 (default 50)" },
    action: { type: "string", pattern: "^[a-z_.]{1,40}$", description: "only actions starting with this (e.g. `key.` or `team.`)" },
  },
} as const;

export const memberSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "email", "name", "role", "status", "created_at", "last_login_at"],
  properties: {
    id: { type: "integer" },
    email: { type: "string" },
    name: { type: ["string", "null"] },
    role: { enum: [...ROLES] },
    status: { enum: ["active", "invited"] },
    created_at: { type: "string", format: "date-time" },
    last_login_at: { type: ["string", "null"], format: "date-time" },
  },
};

export const invitationSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["member", "expires_at", "delivery"],
  properties: {
    member: memberSchema,
    expires_at: { type: "string", format: "date-time" },
    delivery: { type: "string", description: "`email`; in local mode the message is also written under .data/mail/" },
  },
};

export const auditSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["entries", "next_before"],
  properties: {
    entries: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "actor", "action", "target", "details", "at"],
        properties: {
          id: { type: "string" },
          actor: { type: "string", description: "the user's email, or a system actor such as `operator CLI`" },
          action: { type: "string" },
          target: { type: ["string", "null"] },
          details: { type: "object", additionalProperties: true, description: "what the action changed, by action: `role` for an invitation, `from` and `to` for a role change, …" },
          at: { type: "string", format: "date-time" },
        },
      },
    },
    next_before: { type: ["string", "null"] },
  },
};
