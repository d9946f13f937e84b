// JSON Schema of GET /api/stats (spec 4.4; fields in docs/public-api.md).
import type { JsonSchema } from "../../validation";

const count = { type: "integer", minimum: 0 };
const block = { type: ["integer", "null"], minimum: 0 };

export const statsSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: [
    "brands", "brands_active", "products", "certificates_issued", "scans", "passports_minted", "factories", "factories_verified",
    "supply_chain_events", "tags_assigned", "network", "chain_id", "indexed_block", "chain_head_block", "indexer_lag_blocks", "generated_at",
  ],
  properties: {
    brands: count,
    brands_active: count,
    products: count,
    certificates_issued: { ...count, description: "issuances recorded by the service" },
    scans: count,
    passports_minted: { ...count, description: "this and the next four are counted from the indexed chain" },
    factories: count,
    factories_verified: count,
    supply_chain_events: count,
    tags_assigned: count,
    network: { type: "string" },
    chain_id: { type: "integer" },
    indexed_block: { ...block, description: "null before the indexer has published" },
    chain_head_block: { ...block, description: "null when the chain did not answer" },
    indexer_lag_blocks: { ...block, description: "null when either block is unknown" },
    generated_at: { type: "string", format: "date-time", description: "when the counts were taken: a few seconds ago at most" },
  },
};
