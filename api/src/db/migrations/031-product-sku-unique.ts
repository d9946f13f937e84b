// A SKU names one product of a brand: a second product with a SKU the brand uses is refused (409 CONFLICT) by the v1
// API, the dashboard and the CSV import (per row), and this unique index holds it under concurrency. Serialised items
// (a GS1 serial each) are the exception: the items of one trade item share its SKU, so products with a serial are
// outside the rule. Products registered before the rule that repeat an older product's SKU keep it, marked
// `sku_repeated`, outside the index: the oldest product of each SKU holds it, as migration 029 handed each GTIN to its
// oldest product's brand. Nothing is renamed (a SKU may be in a brand's own systems and in anchored passport content).
import type { Knex } from "knex";

export const SKU_UNIQUE_INDEX = "products_brand_sku_unique";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products ADD COLUMN sku_repeated boolean NOT NULL DEFAULT false");
  await knex.raw(`
    UPDATE app.products p SET sku_repeated = true
     WHERE p.serial IS NULL
       AND EXISTS (SELECT 1 FROM app.products o WHERE o.brand_id = p.brand_id AND o.sku = p.sku AND o.serial IS NULL AND o.id < p.id)`);
  await knex.raw(`CREATE UNIQUE INDEX ${SKU_UNIQUE_INDEX} ON app.products (brand_id, sku) WHERE serial IS NULL AND NOT sku_repeated`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX IF EXISTS app.${SKU_UNIQUE_INDEX}`);
  await knex.raw("ALTER TABLE app.products DROP COLUMN IF EXISTS sku_repeated");
}
