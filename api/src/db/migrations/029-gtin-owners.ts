// A GTIN is allocated to one brand owner (from its GS1 company prefix): the first brand to register products with a
// GTIN holds it, and another brand's products cannot carry it, so no one can issue passports that resolve under a
// GTIN that is not theirs (products/service.ts claimGtin). Existing products hand each GTIN to the brand of its
// oldest product; a brand that shares a GTIN with an older brand keeps its products but can add no more.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE app.gtin_owners (
      gtin text PRIMARY KEY CHECK (gtin ~ '^[0-9]{14}$'),
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw(`
    INSERT INTO app.gtin_owners (gtin, brand_id)
    SELECT DISTINCT ON (gtin) gtin, brand_id FROM app.products WHERE gtin IS NOT NULL ORDER BY gtin, id`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE IF EXISTS app.gtin_owners");
}
