// Indexes by brand for the dashboard's product list, found by `npm run bench:volume` (a million products):
//
// - Each passport's brand (its product's), so a brand's passports are found by an index of their own: the list
//   filtered by passport state (issued, verified, lost, …) read every brand's passports, which carried no brand, and
//   matched them to the brand's products. A product never changes brand, so the copy stays true; every writer of
//   app.passports sets it, and the column is NOT NULL so one that forgets fails at once.
// - The search's trigram index led by the brand (btree_gin, a trusted extension shipped with Postgres like pg_trgm):
//   migration 035's index found a broad word's matches in every brand, and the list then read each of them to keep
//   its own brand's. It replaces 035's, which nothing else reads.
//
// Outside a transaction, as 035: the indexes are built CONCURRENTLY, so product registration and issuance go on
// while they build; each step may run again after a failure half-way.
import type { Knex } from "knex";

export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.passports ADD COLUMN IF NOT EXISTS brand_id integer REFERENCES app.brands (id)");
  await knex.raw("UPDATE app.passports x SET brand_id = p.brand_id FROM app.products p WHERE p.id = x.product_id AND x.brand_id IS NULL");
  await knex.raw("ALTER TABLE app.passports ALTER COLUMN brand_id SET NOT NULL");
  await knex.raw("DROP INDEX CONCURRENTLY IF EXISTS app.passports_brand_status");
  await knex.raw("CREATE INDEX CONCURRENTLY passports_brand_status ON app.passports (brand_id, status)");

  await knex.raw("CREATE EXTENSION IF NOT EXISTS btree_gin");
  await knex.raw("DROP INDEX CONCURRENTLY IF EXISTS app.products_brand_search");
  await knex.raw(
    "CREATE INDEX CONCURRENTLY products_brand_search ON app.products USING gin (brand_id, uid gin_trgm_ops, sku gin_trgm_ops, name gin_trgm_ops)",
  );
  await knex.raw("DROP INDEX CONCURRENTLY IF EXISTS app.products_search");
}

export async function down(knex: Knex): Promise<void> {
  // The extension stays: something else may use it by now.
  await knex.raw("CREATE INDEX CONCURRENTLY IF NOT EXISTS products_search ON app.products USING gin (uid gin_trgm_ops, sku gin_trgm_ops, name gin_trgm_ops)");
  await knex.raw("DROP INDEX CONCURRENTLY IF EXISTS app.products_brand_search");
  await knex.raw("DROP INDEX CONCURRENTLY IF EXISTS app.passports_brand_status");
  await knex.raw("ALTER TABLE app.passports DROP COLUMN IF EXISTS brand_id");
}
