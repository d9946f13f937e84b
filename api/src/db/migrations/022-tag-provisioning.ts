// Tag provisioning (issue 12): which product's scan URL was written to each tag, so a genuine tag whose binding has
// moved since it was encoded is recognised on its old URL (`not_bound`) by one indexed lookup instead of a search.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // url_product_id: the product whose scan URL the encoding station wrote at provisioning (null: none was given).
  // product_id stays the binding that verification trusts; the two differ once a tag is re-assigned.
  await knex.raw("ALTER TABLE app.tags ADD COLUMN url_product_id integer REFERENCES app.products (id) ON DELETE SET NULL");
  await knex.raw("CREATE INDEX tags_url_product ON app.tags (url_product_id) WHERE url_product_id IS NOT NULL");
  // The brand's most recently tapped signing tags: the other bounded set of not_bound candidates.
  await knex.raw("CREATE INDEX tags_brand_last_tap ON app.tags (brand_id, last_tap_at DESC) WHERE chip = 'NTAG424' AND last_tap_at IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS app.tags_brand_last_tap");
  await knex.raw("DROP INDEX IF EXISTS app.tags_url_product");
  await knex.raw("ALTER TABLE app.tags DROP COLUMN url_product_id");
}
