// JSON Schema of GET /api/v1/usage (spec 2.10).
import type { JsonSchema } from "../../../validation";

export const usageSchema: JsonSchema = {
  type: "object",
  required: ["period", "calls_this_month", "plan_api_limit", "usage_pct", "certs_issued", "carbon_ratings", "monthly_plan", "estimated_cost_usd", "endpoint_breakdown"],
  additionalProperties: false,
  properties: {
    period: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}$", description: "UTC calendar month" },
    calls_this_month: { type: "integer", minimum: 0, description: "includes this call" },
    plan_api_limit: { type: "integer", minimum: 0 },
    usage_pct: { type: "number", minimum: 0, description: "calls_this_month / plan_api_limit × 100, two decimals" },
    certs_issued: { type: "integer", minimum: 0, description: "new certificates minted this month" },
    carbon_ratings: { type: "integer", minimum: 0 },
    monthly_plan: { type: "string", description: "plan name" },
    estimated_cost_usd: { type: "number", minimum: 0, description: "the plan's monthly price, or the agreed price of a custom SLA; 0 when neither exists" },
    endpoint_breakdown: {
      type: "array",
      items: {
        type: "object",
        required: ["endpoint", "calls"],
        additionalProperties: false,
        properties: { endpoint: { type: "string", description: "method and route pattern" }, calls: { type: "integer", minimum: 0 } },
      },
    },
  },
};
