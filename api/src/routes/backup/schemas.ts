// JSON Schemas of the back-up operator's routes (docs/backup.md): the changes feed a primary offers its back-up, and a
// back-up's replication status.
import type { JsonSchema } from "../../validation";

export const changesQuery = {
  type: "object",
  required: ["since"],
  additionalProperties: false,
  properties: {
    since: { type: "string", format: "date-time", maxLength: 40, description: "changes at or after this instant (RFC 3339)" },
    cursor: { type: "string", maxLength: 100, description: "paging_metadata.cursor of the previous page" },
    limit: { type: "string", pattern: "^(?:[1-9][0-9]{0,2}|1000)$", description: "passports per page, 1-1000 (default 500)" },
  },
} as const;

const time: JsonSchema = { type: "string", format: "date-time", maxLength: 30 };
const nullableTime: JsonSchema = { type: ["string", "null"], format: "date-time", maxLength: 30 };

export const changesSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["changes", "paging_metadata"],
  properties: {
    changes: {
      type: "array",
      maxItems: 1000,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["dppId", "changedAt"],
        properties: { dppId: { type: "string", maxLength: 70 }, changedAt: { ...time, description: "its latest change: a mint, a new version, a status change" } },
      },
    },
    paging_metadata: { type: "object", additionalProperties: false, properties: { cursor: { type: "string", maxLength: 100, description: "absent on the last page" } } },
  },
};

const hash: JsonSchema = { type: ["string", "null"], pattern: "^0x[0-9a-f]{64}$" };

export const statusSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["backupOf", "primaries", "job"],
  properties: {
    backupOf: { type: "array", maxItems: 100, items: { type: "string", maxLength: 2000 }, description: "BACKUP_OF: the primaries this deployment backs up" },
    primaries: {
      type: "array",
      maxItems: 100,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["baseUrl", "passports", "versions", "refusedVersions", "lastRunAt", "lastSuccessAt", "lagSeconds", "lastError", "refusals"],
        properties: {
          baseUrl: { type: "string", maxLength: 2000 },
          passports: { type: "integer", minimum: 0, description: "passports held (with at least one verified version)" },
          versions: { type: "integer", minimum: 0, description: "verified versions held" },
          refusedVersions: { type: "integer", minimum: 0, description: "versions refused and not verified since" },
          lastRunAt: nullableTime,
          lastSuccessAt: { ...nullableTime, description: "the last run that read the primary's whole feed" },
          lagSeconds: { type: ["integer", "null"], minimum: 0, description: "seconds since then: changes made since are not held yet" },
          lastError: { type: ["string", "null"], maxLength: 500 },
          refusals: {
            type: "array",
            maxItems: 20,
            description: "the latest refused versions",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["dppId", "version", "reason", "computedHash", "chainHash", "lastAt", "times"],
              properties: {
                dppId: { type: "string", maxLength: 70 },
                version: { type: "integer", minimum: 1 },
                reason: { type: "string", maxLength: 500 },
                computedHash: { ...hash, description: "keccak256 of the bytes the primary served" },
                chainHash: { ...hash, description: "the hash the chain set for that version" },
                lastAt: time,
                times: { type: "integer", minimum: 1 },
              },
            },
          },
        },
      },
    },
    job: {
      type: ["object", "null"],
      description: "the backup-replication job's health in this process (as on /readyz); null where it does not run",
      additionalProperties: false,
      required: ["ok", "running", "runs", "consecutive_failures", "last_success_at", "last_failure_at", "last_error"],
      properties: {
        ok: { type: "boolean" },
        running: { type: "boolean" },
        runs: { type: "integer", minimum: 0 },
        consecutive_failures: { type: "integer", minimum: 0 },
        last_success_at: nullableTime,
        last_failure_at: nullableTime,
        last_error: { type: ["string", "null"], maxLength: 500 },
      },
    },
  },
};
