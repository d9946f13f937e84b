// The currency of a product's price (spec 4.8: "in BDT or local currency"): ISO 4217, BDT unless the brand says.
//
// Outside a transaction, each statement re-runnable: adding the column with a constant default rewrites nothing, and
// the check is validated under a lock that lets reads and writes of products go on while it scans.
import type { Knex } from "knex";

export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products ADD COLUMN IF NOT EXISTS currency char(3) NOT NULL DEFAULT 'BDT'");
  await knex.raw("ALTER TABLE app.products DROP CONSTRAINT IF EXISTS products_currency_check");
  await knex.raw("ALTER TABLE app.products ADD CONSTRAINT products_currency_check CHECK (currency ~ '^[A-Z]{3}$') NOT VALID");
  await knex.raw("ALTER TABLE app.products VALIDATE CONSTRAINT products_currency_check");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products DROP COLUMN IF EXISTS currency");
}
