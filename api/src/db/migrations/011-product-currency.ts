// The currency of a product's price (spec 4.8: "in BDT or local currency"): ISO 4217, BDT unless the brand says.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE app.products ADD COLUMN currency char(3) NOT NULL DEFAULT 'BDT'
    CONSTRAINT products_currency_check CHECK (currency ~ '^[A-Z]{3}$')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products DROP COLUMN currency");
}
