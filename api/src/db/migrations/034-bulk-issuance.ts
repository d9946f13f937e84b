// Bulk issuance (issue 28): a job that issues the passports of many products at once (a list of UIDs, or every product
// of a CSV import), its items, and which import registered each product.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // The import that registered the product, so "issue every product of this import" is one indexed read.
  await knex.raw("ALTER TABLE app.products ADD COLUMN import_id bigint REFERENCES app.import_jobs (id) ON DELETE SET NULL");
  await knex.raw("CREATE INDEX products_import ON app.products (import_id) WHERE import_id IS NOT NULL");

  // One bulk issuance. Its progress is read from its items' passports (app.passports), never counted twice; state
  // moves queued -> issuing (its first chunk of items claimed) -> completed (every item claimed and every passport
  // final or failed), and the move to completed enqueues issuance.completed in the same transaction: sent once.
  await knex.raw(`
    CREATE TABLE app.issuance_jobs (
      id bigserial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      import_id bigint REFERENCES app.import_jobs (id) ON DELETE SET NULL,
      state text NOT NULL CHECK (state IN ('queued', 'issuing', 'completed')),
      total integer NOT NULL CHECK (total >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`);
  await knex.raw("CREATE INDEX issuance_jobs_brand ON app.issuance_jobs (brand_id, id DESC)");
  await knex.raw("CREATE INDEX issuance_jobs_open ON app.issuance_jobs (id) WHERE state <> 'completed'");

  // A product of a job: claimed once its issuance claim (and quota unit) is taken, or refused with why (the monthly
  // certificate limit). Claims are taken a chunk of items at a time, each chunk in one transaction with its claims.
  await knex.raw(`
    CREATE TABLE app.issuance_job_items (
      job_id bigint NOT NULL REFERENCES app.issuance_jobs (id) ON DELETE CASCADE,
      product_id integer NOT NULL REFERENCES app.products (id) ON DELETE CASCADE,
      claimed boolean NOT NULL DEFAULT false,
      refused text,
      PRIMARY KEY (job_id, product_id)
    )`);
  await knex.raw("CREATE INDEX issuance_job_items_unclaimed ON app.issuance_job_items (job_id) WHERE NOT claimed");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.issuance_job_items");
  await knex.raw("DROP TABLE app.issuance_jobs");
  await knex.raw("ALTER TABLE app.products DROP COLUMN import_id");
}
