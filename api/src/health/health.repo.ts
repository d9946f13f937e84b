// SQL of the readiness check: the cheapest statement that proves Postgres answers, and the deep reorgs met lately.
import type { Knex } from "../db/knex";

export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw("SELECT 1");
}

/** Reorganisations deeper than the confirmation depth that removed one of our transactions, in the last 24 h. */
export async function deepReorgsLastDay(db: Knex): Promise<number> {
  const row = await db("app.chain_reorgs").where({ deep: true }).where("detected_at", ">", db.raw("now() - interval '1 day'")).count<{ n: string }>("* as n").first();
  return Number(row?.n ?? 0);
}
