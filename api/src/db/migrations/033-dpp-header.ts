// Passports in EN 18223's shape (issue 25): each passport gets a persistent id (`digitalProductPassportId`), a
// granularity (model, batch or item, with an item's links to its model and batch), a lifecycle status, and its
// versions keep the exact canonical JSON that was hashed, so the version current at any instant reads back byte for
// byte. The brand's economic operator id and a factory's GLN or Open Supply Hub id feed the header.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // `urn:uuid:` + a random UUID: 45 characters (EN 18219 allows 70), self-issued, and independent of any domain,
  // brand or chain, so a back-up operator serves the same id (docs/dpp-api.md says why).
  await knex.raw(`
    ALTER TABLE app.products
      ADD COLUMN dpp_id text NOT NULL DEFAULT ('urn:uuid:' || gen_random_uuid()),
      ADD COLUMN granularity text NOT NULL DEFAULT 'item' CHECK (granularity IN ('model', 'batch', 'item')),
      ADD COLUMN model_id integer REFERENCES app.products (id),
      ADD COLUMN batch_id integer REFERENCES app.products (id),
      ADD COLUMN lineage jsonb,
      ADD COLUMN content_version smallint NOT NULL DEFAULT 3 CHECK (content_version BETWEEN 1 AND 3),
      ADD COLUMN dpp_status text NOT NULL DEFAULT 'active' CHECK (dpp_status IN ('active', 'inactive', 'archived')),
      ADD COLUMN dpp_status_changed_at timestamptz,
      ADD CONSTRAINT products_links_by_granularity CHECK (
        (granularity = 'model' AND model_id IS NULL AND batch_id IS NULL)
        OR (granularity = 'batch' AND batch_id IS NULL)
        OR granularity = 'item')`);
  // Products registered before keep the content shape their anchored hash was computed over.
  await knex.raw("UPDATE app.products SET content_version = CASE WHEN provenance IS NULL THEN 1 ELSE 2 END");
  await knex.raw("CREATE UNIQUE INDEX products_dpp_id ON app.products (dpp_id)");
  await knex.raw("CREATE INDEX products_model_id ON app.products (model_id) WHERE model_id IS NOT NULL");
  await knex.raw("CREATE INDEX products_batch_id ON app.products (batch_id) WHERE batch_id IS NOT NULL");

  // A SKU names one model (or one product without a model): a model's batches and items share its SKU.
  await knex.raw("DROP INDEX app.products_brand_sku_unique");
  await knex.raw(`CREATE UNIQUE INDEX products_brand_sku_unique ON app.products (brand_id, sku)
                   WHERE serial IS NULL AND NOT sku_repeated AND model_id IS NULL AND granularity <> 'batch'`);

  // The canonical JSON each version hashed: version 1 (the mint) on the issuance row, later ones on their version.
  // Null for versions written before this migration (their content was not kept).
  await knex.raw("ALTER TABLE app.passports ADD COLUMN content text");
  await knex.raw("ALTER TABLE app.product_versions ADD COLUMN content text");
  await knex.raw(`
    CREATE VIEW app.passport_version_history AS
      SELECT product_id, 1 AS version, data_hash, content, minted_at AS valid_from, tx_hash, block_number
        FROM app.passports WHERE status = 'minted'
      UNION ALL
      SELECT product_id, version, data_hash, content, anchored_at AS valid_from, tx_hash, block_number
        FROM app.product_versions WHERE status = 'anchored'`);

  // Annex III identifiers: the operator's EORI (or GLN), and a facility's GLN or Open Supply Hub id.
  await knex.raw("ALTER TABLE app.brands ADD COLUMN economic_operator_id text");
  await knex.raw("ALTER TABLE app.factory_profiles ADD COLUMN gln text, ADD COLUMN os_id text");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.factory_profiles DROP COLUMN gln, DROP COLUMN os_id");
  await knex.raw("ALTER TABLE app.brands DROP COLUMN economic_operator_id");
  await knex.raw("DROP VIEW app.passport_version_history");
  await knex.raw("ALTER TABLE app.product_versions DROP COLUMN content");
  await knex.raw("ALTER TABLE app.passports DROP COLUMN content");
  await knex.raw("DROP INDEX app.products_brand_sku_unique");
  await knex.raw("CREATE UNIQUE INDEX products_brand_sku_unique ON app.products (brand_id, sku) WHERE serial IS NULL AND NOT sku_repeated");
  await knex.raw(`ALTER TABLE app.products DROP CONSTRAINT products_links_by_granularity,
                   DROP COLUMN dpp_id, DROP COLUMN granularity, DROP COLUMN model_id, DROP COLUMN batch_id, DROP COLUMN lineage,
                   DROP COLUMN content_version, DROP COLUMN dpp_status, DROP COLUMN dpp_status_changed_at`);
}
