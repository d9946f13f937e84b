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

const nullableTime: JsonSchema = { type: ["string", "null"], format: "date-time", maxLength: 30 };

/** A job's health figure (jobs/job.ts JobHealth). */
const jobHealthSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["ok", "running", "runs", "consecutive_failures", "last_success_at", "last_failure_at", "last_error"],
  properties: {
    ok: { type: "boolean", description: "false after 3 failed runs in a row" },
    running: { type: "boolean" },
    runs: { type: "integer", minimum: 0 },
    consecutive_failures: { type: "integer", minimum: 0 },
    last_success_at: nullableTime,
    last_failure_at: nullableTime,
    last_error: { type: ["string", "null"], maxLength: 500 },
  },
};

export const readinessSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["status", "checks", "jobs"],
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
    jobs: {
      type: "object",
      description: "each background job of this process (api/src/jobs), by name; a failing job does not make the process not ready",
      additionalProperties: jobHealthSchema,
    },
  },
};
