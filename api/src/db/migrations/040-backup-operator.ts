// The back-up operator (ESPR Art. 10(4), issue 27; docs/backup.md): on a back-up, the primaries it copies, their
// passports' headers and every verified version byte for byte, and the versions it refused; on a primary, the
// indexes its changes feed reads by (when each passport last changed).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE app.backup_primaries (
      id serial PRIMARY KEY,
      base_url text NOT NULL UNIQUE,
      -- The latest change of the primary's feed this back-up has fully copied; the next run reads from a little before it.
      high_water timestamptz,
      last_run_at timestamptz,
      last_success_at timestamptz,
      last_error text
    )`);
  await knex.raw(`
    CREATE TABLE app.backup_passports (
      dpp_id text PRIMARY KEY,
      primary_id integer NOT NULL REFERENCES app.backup_primaries (id),
      uid text NOT NULL,
      token_id text NOT NULL,
      granularity text NOT NULL,
      gtin text,
      lot text,
      serial text,
      -- The EN 18223 header as the primary last served it.
      header jsonb NOT NULL,
      -- The elements the primary withheld from the public (docs/access.md): the back-up shows them to authorities only.
      public_withheld text[] NOT NULL DEFAULT '{}',
      synced_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw("CREATE INDEX backup_passports_uid ON app.backup_passports (uid)");
  await knex.raw("CREATE INDEX backup_passports_gtin ON app.backup_passports (gtin) WHERE gtin IS NOT NULL");
  await knex.raw("CREATE INDEX backup_passports_primary ON app.backup_passports (primary_id)");
  await knex.raw(`
    CREATE TABLE app.backup_versions (
      dpp_id text NOT NULL REFERENCES app.backup_passports (dpp_id),
      version integer NOT NULL CHECK (version > 0),
      data_hash text NOT NULL,
      -- The exact bytes the primary served; keccak256 of them is data_hash, which the chain set in tx_hash.
      content text NOT NULL,
      valid_from timestamptz NOT NULL,
      tx_hash text NOT NULL,
      block_number bigint NOT NULL,
      verified_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (dpp_id, version)
    )`);
  await knex.raw(`
    CREATE TABLE app.backup_refusals (
      dpp_id text NOT NULL,
      version integer NOT NULL,
      primary_id integer NOT NULL REFERENCES app.backup_primaries (id),
      reason text NOT NULL,
      computed_hash text,
      chain_hash text,
      first_at timestamptz NOT NULL DEFAULT now(),
      last_at timestamptz NOT NULL DEFAULT now(),
      times integer NOT NULL DEFAULT 1,
      PRIMARY KEY (dpp_id, version)
    )`);

  // A read above the public of a held passport is logged on the back-up too, where the passport has no brand.
  await knex.raw("ALTER TABLE IF EXISTS app.access_log ALTER COLUMN brand_id DROP NOT NULL");

  // The primary's changes feed: passports by the instant they last changed (a mint, a new version, a status change).
  await knex.raw("CREATE INDEX passports_minted_at ON app.passports (minted_at) WHERE status = 'minted'");
  await knex.raw("CREATE INDEX product_versions_anchored_at ON app.product_versions (anchored_at) WHERE status = 'anchored'");
  await knex.raw("CREATE INDEX products_dpp_status_changed_at ON app.products (dpp_status_changed_at) WHERE dpp_status_changed_at IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX app.products_dpp_status_changed_at");
  await knex.raw("DROP INDEX app.product_versions_anchored_at");
  await knex.raw("DROP INDEX app.passports_minted_at");
  await knex.raw("DO $$ BEGIN IF to_regclass('app.access_log') IS NOT NULL THEN DELETE FROM app.access_log WHERE brand_id IS NULL; END IF; END $$");
  await knex.raw("ALTER TABLE IF EXISTS app.access_log ALTER COLUMN brand_id SET NOT NULL");
  await knex.raw("DROP TABLE app.backup_refusals");
  await knex.raw("DROP TABLE app.backup_versions");
  await knex.raw("DROP TABLE app.backup_passports");
  await knex.raw("DROP TABLE app.backup_primaries");
}
