// SQL of the readiness check: the cheapest statement that proves Postgres answers.
import type { Knex } from "../db/knex";

export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw("SELECT 1");
}
