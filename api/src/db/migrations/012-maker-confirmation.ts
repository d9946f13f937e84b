// Which factory confirmed that it made a product: a brand's `factory_id` is only its declaration, and the public
// record shows the maker as confirmed (and may call it a verified factory) only once that factory acted on the
// product through its own operator account: minted its passport, assigned its tag or recorded a step.
//
// Nullable columns without a default: adding them rewrites nothing and locks app.products only for an instant.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products ADD COLUMN IF NOT EXISTS confirmed_factory_id bigint");
  await knex.raw("ALTER TABLE app.products ADD COLUMN IF NOT EXISTS factory_confirmed_at timestamptz");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products DROP COLUMN IF EXISTS factory_confirmed_at");
  await knex.raw("ALTER TABLE app.products DROP COLUMN IF EXISTS confirmed_factory_id");
}
