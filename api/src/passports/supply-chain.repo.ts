// SQL of supply-chain step details: stored off chain by their hash, which the chain records with the step.
import type { Knex } from "../db/knex";

/** Stores the details under their hash; the same details stored twice are one row. */
export async function saveSupplyChainDetails(db: Knex, detailsHash: string, details: Record<string, unknown>): Promise<void> {
  await db("app.supply_chain_details").insert({ details_hash: detailsHash, details: JSON.stringify(details) }).onConflict("details_hash").ignore();
}
