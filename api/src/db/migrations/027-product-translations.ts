// Issue 16: brand-provided translations of product names and descriptions (Bengali and English). Presentation
// only: the anchored passport content keeps the product's own name and description.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // Limits as products.name (200) and products.description (2000); an empty description means "none given".
  await knex.raw(`
    CREATE TABLE app.product_translations (
      product_id integer NOT NULL REFERENCES app.products (id) ON DELETE CASCADE,
      lang text NOT NULL CHECK (lang IN ('bn', 'en')),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
      description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (product_id, lang)
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE IF EXISTS app.product_translations");
}
