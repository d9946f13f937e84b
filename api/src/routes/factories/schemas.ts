// JSON Schemas of the factory routes: path parameters and the reputation record (spec 2.1).
import type { JsonSchema } from "../../validation";

export const factoryIdParam = {
  type: "object",
  required: ["id"],
  additionalProperties: false,
  properties: { id: { type: "string", pattern: "^[0-9]{1,15}$", maxLength: 15, description: "registry factory id" } },
} as const;

export const reputationSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["factory_id", "factory_name", "score", "grade", "on_chain_events", "dpp_issued", "certifications", "verified"],
  properties: {
    factory_id: { type: "integer" },
    factory_name: { type: "string" },
    score: { type: "integer", minimum: 0, maximum: 100 },
    grade: { type: "string", enum: ["A", "B", "C", "D", "F"] },
    on_chain_events: { type: "integer", minimum: 0 },
    dpp_issued: { type: "integer", minimum: 0 },
    certifications: { type: "array", items: { type: "string" } },
    verified: { type: "boolean" },
  },
};
