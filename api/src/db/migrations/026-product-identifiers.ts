// Issue 16: GS1 identifiers of a product (GTIN, serial, lot) for the Digital Link resolver. The GTIN is stored as
// GTIN-14; a lot (AI 10) and a serial (AI 21) are up to 20 characters of GS1's AI encodable set 82. A GTIN with a
// serial names one item, so (gtin, serial) is unique across the service; the resolver finds products by GTIN.
import type { Knex } from "knex";

/**
 * GS1 General Specifications, figure 7.11-1: the characters AIs 10 and 21 may hold (gs1/digital-link.ts). The quote,
 * apostrophe and question mark are written as escapes (knex reads a bare `?` in raw SQL as a binding), the last one
 * last: Postgres reads as many hex digits as follow `\x`.
 */
const CSET82 = String.raw`^[-!\x22%&\x27()*+,./0-9:;<=>A-Z_a-z\x3F]{1,20}$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE app.products
      ADD COLUMN gtin text CHECK (gtin ~ '^[0-9]{14}$'),
      ADD COLUMN lot text CHECK (lot ~ '${CSET82}'),
      ADD COLUMN serial text CHECK (serial ~ '${CSET82}'),
      ADD CONSTRAINT products_identifiers_need_gtin CHECK (gtin IS NOT NULL OR (lot IS NULL AND serial IS NULL))`);
  await knex.raw("CREATE UNIQUE INDEX products_gtin_serial_unique ON app.products (gtin, serial) WHERE gtin IS NOT NULL AND serial IS NOT NULL");
  await knex.raw("CREATE INDEX products_gtin ON app.products (gtin) WHERE gtin IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX app.products_gtin");
  await knex.raw("DROP INDEX app.products_gtin_serial_unique");
  await knex.raw("ALTER TABLE app.products DROP CONSTRAINT products_identifiers_need_gtin, DROP COLUMN serial, DROP COLUMN lot, DROP COLUMN gtin");
}
