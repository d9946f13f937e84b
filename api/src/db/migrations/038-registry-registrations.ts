// The EU registry (issue 27; registry/): one registration per passport version, queued by RegisterProductDPP or by
// the brand's automatic registration, worked by the "registry-registration" job, with the registry's id and proof.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.brands ADD COLUMN registry_auto boolean NOT NULL DEFAULT false");
  await knex.raw(`
    CREATE TABLE app.registry_registrations (
      id bigserial PRIMARY KEY,
      product_id integer NOT NULL REFERENCES app.products(id) ON DELETE CASCADE,
      version integer NOT NULL,
      brand_id integer NOT NULL REFERENCES app.brands(id) ON DELETE CASCADE,
      state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'registered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      lease_until timestamptz,
      registry_id text,
      data_hash text,
      proof_jwt text,
      proof_timestamp timestamptz,
      registered_at timestamptz,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- A passport version is registered once, however often it is asked for.
      CONSTRAINT registry_registrations_version_unique UNIQUE (product_id, version)
    )`);
  await knex.raw("CREATE INDEX registry_registrations_due ON app.registry_registrations (next_attempt_at) WHERE state = 'queued'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.registry_registrations");
  await knex.raw("ALTER TABLE app.brands DROP COLUMN registry_auto");
}
