// The textile section of a passport (issue 26; passports/textile.ts): kept as one document beside the product, and
// anchored in content version 4 when present. Products without it keep the content version they had.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products ADD COLUMN textile jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products DROP COLUMN textile");
}
