// JSON Schemas of GET /api/v1/brand.
import type { JsonSchema } from "../../../validation";

const count = { type: ["integer", "null"], minimum: 0, description: "null: unlimited" };

export const limitsSchema: JsonSchema = {
  type: "object",
  required: ["api_calls_per_month", "requests_per_hour", "certs_per_month", "scans_per_month", "carbon_ratings_per_month", "price_usd_per_month"],
  properties: {
    api_calls_per_month: { type: "integer", minimum: 0 },
    requests_per_hour: { type: "integer", minimum: 0 },
    certs_per_month: count,
    scans_per_month: count,
    carbon_ratings_per_month: count,
    price_usd_per_month: { type: ["number", "null"], minimum: 0, description: "null: no list price (enterprise) and none agreed" },
  },
};

export const brandSchema: JsonSchema = {
  type: "object",
  required: ["slug", "name", "uid_prefix", "status", "plan", "plan_tier", "limits", "custom_limits", "created_at"],
  properties: {
    slug: { type: "string" },
    name: { type: "string" },
    uid_prefix: { type: "string", description: "product UIDs of this brand are <uid_prefix>-<code>" },
    status: { enum: ["active", "suspended"] },
    plan: { enum: ["starter", "growth", "enterprise"] },
    plan_tier: { type: "integer", enum: [1, 2, 3] },
    limits: limitsSchema,
    custom_limits: { type: "boolean", description: "true when any limit is the brand's own (custom SLA), not the plan's" },
    created_at: { type: "string", format: "date-time" },
  },
};
