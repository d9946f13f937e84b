// What a product registered with only spec 4.8's fields reads back with: the brand's default country of manufacture
// and care texts by category, and each product's record of which values were declared and which filled in.
//
// Columns without a default, or with a constant one: adding them rewrites neither table. Each statement re-runnable.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.brands ADD COLUMN IF NOT EXISTS default_country_of_manufacture char(2)");
  await knex.raw("ALTER TABLE app.brands DROP CONSTRAINT IF EXISTS brands_default_country_check");
  await knex.raw("ALTER TABLE app.brands ADD CONSTRAINT brands_default_country_check CHECK (default_country_of_manufacture ~ '^[A-Z]{2}$')");
  // {"shirt": "Machine wash …", "*": "for every other category"}
  await knex.raw("ALTER TABLE app.brands ADD COLUMN IF NOT EXISTS care_by_category jsonb NOT NULL DEFAULT '{}'::jsonb");
  // Null for products registered before: their anchored content has no provenance and must keep its hash.
  await knex.raw("ALTER TABLE app.products ADD COLUMN IF NOT EXISTS provenance jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.products DROP COLUMN IF EXISTS provenance");
  await knex.raw("ALTER TABLE app.brands DROP COLUMN IF EXISTS care_by_category");
  await knex.raw("ALTER TABLE app.brands DROP COLUMN IF EXISTS default_country_of_manufacture");
}
