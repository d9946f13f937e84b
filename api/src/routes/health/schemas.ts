// JSON Schemas of the liveness and readiness answers.
import type { JsonSchema } from "../../validation";

export const livenessSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["status"],
  properties: { status: { const: "ok" } },
};

/** One check of health/readiness.ts: ok, what it measured, and when it failed, why. */
const checkSchema = (measures: Record<string, JsonSchema>): JsonSchema => ({
  type: "object",
  additionalProperties: false,
  required: ["ok"],
  properties: { ok: { type: "boolean" }, detail: { type: "string", description: "what failed" }, ...measures },
});

export const readinessSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["status", "checks"],
  properties: {
    status: { enum: ["ready", "not_ready"] },
    checks: {
      type: "object",
      additionalProperties: false,
      required: ["database", "chain", "indexer"],
      properties: {
        database: checkSchema({}),
        chain: checkSchema({
          head_block: { type: "integer", minimum: 0 },
          deep_reorgs_last_day: { type: "integer", minimum: 0, description: "reorganisations deeper than the confirmation depth met in the last 24 h" },
        }),
        indexer: checkSchema({ indexed_block: { type: "integer", minimum: 0 }, lag_blocks: { type: "integer", minimum: 0 } }),
      },
    },
  },
};
