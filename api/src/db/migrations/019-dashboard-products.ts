// The dashboard's product work: CSV import jobs with their progress and failed rows, the version history of a
// passport's anchored content (edits re-anchored on chain), and NFC tags a brand assigned to its products.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // One CSV upload. The counters move as chunks commit, so a poll sees progress; heartbeat_at moves with them, so a
  // job whose process died is recognised (no heartbeat for a while) and reported failed rather than running forever.
  await knex.raw(`
    CREATE TABLE app.import_jobs (
      id bigserial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      actor_user_id integer REFERENCES app.brand_users (id) ON DELETE SET NULL,
      actor text NOT NULL,
      status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
      header jsonb NOT NULL,
      total integer NOT NULL CHECK (total >= 0),
      processed integer NOT NULL DEFAULT 0,
      imported integer NOT NULL DEFAULT 0,
      failed integer NOT NULL DEFAULT 0,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`);
  await knex.raw("CREATE INDEX import_jobs_brand ON app.import_jobs (brand_id, id DESC)");
  // One running import per brand: a second upload waits its turn (409) instead of doubling the load.
  await knex.raw("CREATE UNIQUE INDEX import_jobs_one_running ON app.import_jobs (brand_id) WHERE status = 'running'");

  // The rows that failed, as uploaded (cells in header order), with why: the downloadable errors CSV.
  await knex.raw(`
    CREATE TABLE app.import_errors (
      job_id bigint NOT NULL REFERENCES app.import_jobs (id) ON DELETE CASCADE,
      row_number integer NOT NULL,
      cells jsonb NOT NULL,
      error text NOT NULL,
      PRIMARY KEY (job_id, row_number)
    )`);

  // Re-anchorings of a minted passport (version 1 is the mint, in app.passports). A version is written pending with
  // the new column values before updateDataHash is sent, and applied to app.products only once the chain confirmed
  // it, so the stored content never runs ahead of the anchored hash. One pending version per product at a time.
  await knex.raw(`
    CREATE TABLE app.product_versions (
      product_id integer NOT NULL REFERENCES app.products (id) ON DELETE CASCADE,
      version integer NOT NULL CHECK (version >= 2),
      status text NOT NULL CHECK (status IN ('pending', 'anchored', 'failed')),
      data_hash text NOT NULL,
      previous_hash text NOT NULL,
      changes jsonb NOT NULL,
      tx_hash text,
      block_number bigint,
      error text,
      actor text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      anchored_at timestamptz,
      PRIMARY KEY (product_id, version)
    )`);
  await knex.raw("CREATE UNIQUE INDEX product_versions_one_pending ON app.product_versions (product_id) WHERE status = 'pending'");

  // NFC tags assigned from the dashboard. The tag UID is kept (the NTAG 424 work derives per-tag keys from it); a
  // tag is on at most one product, and a product has at most one assignment in flight.
  await knex.raw(`
    CREATE TABLE app.product_tags (
      id bigserial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      product_id integer NOT NULL REFERENCES app.products (id) ON DELETE CASCADE,
      tag_uid text NOT NULL,
      tag_hash text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'assigned', 'replaced', 'failed')),
      tx_hash text,
      block_number bigint,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      assigned_at timestamptz
    )`);
  await knex.raw("CREATE UNIQUE INDEX product_tags_live_tag ON app.product_tags (tag_hash) WHERE status IN ('pending', 'assigned')");
  await knex.raw("CREATE UNIQUE INDEX product_tags_one_pending ON app.product_tags (product_id) WHERE status = 'pending'");
  await knex.raw("CREATE INDEX product_tags_product ON app.product_tags (product_id, id DESC)");

  // The dashboard's product list filters by category within a brand.
  await knex.raw("CREATE INDEX IF NOT EXISTS products_brand_category ON app.products (brand_id, category)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS app.products_brand_category");
  await knex.raw("DROP TABLE app.product_tags");
  await knex.raw("DROP TABLE app.product_versions");
  await knex.raw("DROP TABLE app.import_errors");
  await knex.raw("DROP TABLE app.import_jobs");
}
