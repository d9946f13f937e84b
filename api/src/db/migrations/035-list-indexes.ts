// Indexes in the order the dashboard's product list reads, found by `npm run bench:volume` (a million products):
// newest first (created_at, then id) for a brand, and for a brand's category. Each replaces an index of the same
// leading columns that lacked the rest: the tie-break on id then cost a sort of the brand's matching products, and the
// rows a deep page's OFFSET skips could not be counted off an index alone.
//
// And a trigram index for the list's search (a part of a UID, SKU or name, case-insensitive: ILIKE '%…%'), which no
// b-tree serves: without it a search read every product of the brand. pg_trgm ships with Postgres (contrib) and is a
// trusted extension, so the database's owner may create it.
//
// Built CONCURRENTLY, outside a transaction, as in 010 and 028: products is the largest table of a deployment, and a
// plain CREATE INDEX would block product registration and imports while it builds. An old index is dropped only once
// its replacement is built.
import type { Knex } from "knex";

export const config = { transaction: false };

const INDEXES: Array<{ name: string; definition: string; replaces: { name: string; definition: string } }> = [
  {
    name: "products_brand_newest",
    definition: "app.products (brand_id, created_at, id)",
    replaces: { name: "products_brand_id_created_at_index", definition: "app.products (brand_id, created_at)" },
  },
  {
    name: "products_brand_category_newest",
    definition: "app.products (brand_id, category, created_at, id)",
    replaces: { name: "products_brand_category", definition: "app.products (brand_id, category)" },
  },
];

const SEARCH = "products_search";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE EXTENSION IF NOT EXISTS pg_trgm");
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${SEARCH}`);
  await knex.raw(`CREATE INDEX CONCURRENTLY ${SEARCH} ON app.products USING gin (uid gin_trgm_ops, sku gin_trgm_ops, name gin_trgm_ops)`);
  for (const index of INDEXES) {
    // A build that failed half-way leaves an invalid index behind: drop it, so a re-run builds it again.
    await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${index.name}`);
    await knex.raw(`CREATE INDEX CONCURRENTLY ${index.name} ON ${index.definition}`);
    await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${index.replaces.name}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  // The extension stays: something else may use it by now.
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${SEARCH}`);
  for (const index of INDEXES) {
    await knex.raw(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index.replaces.name} ON ${index.replaces.definition}`);
    await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${index.name}`);
  }
}
