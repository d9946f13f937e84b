// Access classes (issue 27; docs/access.md): a brand's restrictions of its passports' elements beyond the defaults,
// the reader keys it hands to partners (legitimate interest), the operator's authority keys and trusted credential
// issuers, and the log of every non-public read.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // An element (a pattern of api/src/access/classes.ts) a brand shows to a narrower class than the default.
  await knex.raw(`
    CREATE TABLE app.access_overrides (
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      element text NOT NULL,
      access_class text NOT NULL CHECK (access_class IN ('legitimate-interest', 'authority')),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (brand_id, element)
    )`);

  // A brand's key for a partner with a legitimate interest (its repairer, a recycler): only the SHA-256 is kept.
  await knex.raw(`
    CREATE TABLE app.reader_keys (
      id bigserial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      key_hash bytea NOT NULL UNIQUE,
      prefix text NOT NULL,
      label text NOT NULL,
      reader_type text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz,
      last_used_at timestamptz
    )`);
  await knex.raw("CREATE INDEX reader_keys_brand ON app.reader_keys (brand_id, id DESC)");

  // An authority's key (market surveillance, customs, the Commission), issued by the operator.
  await knex.raw(`
    CREATE TABLE app.authority_keys (
      id bigserial PRIMARY KEY,
      key_hash bytea NOT NULL UNIQUE,
      prefix text NOT NULL,
      label text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`);

  // An issuer whose role credentials (VC-JOSE) the operator trusts, with one of its public keys.
  await knex.raw(`
    CREATE TABLE app.trusted_issuers (
      id bigserial PRIMARY KEY,
      issuer text NOT NULL,
      public_jwk jsonb NOT NULL,
      label text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (issuer, public_jwk)
    )`);

  // Every read by a reader above the public: who, which passport, which non-public elements it was shown, when.
  await knex.raw(`
    CREATE TABLE app.access_log (
      id bigserial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      product_id integer REFERENCES app.products (id) ON DELETE SET NULL,
      uid text NOT NULL,
      dpp_id text NOT NULL,
      reader_class text NOT NULL CHECK (reader_class IN ('legitimate-interest', 'authority')),
      reader_kind text NOT NULL CHECK (reader_kind IN ('reader_key', 'credential', 'authority_key')),
      reader_id text NOT NULL,
      reader_label text,
      reader_type text,
      operation text NOT NULL,
      elements text[] NOT NULL,
      read_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw("CREATE INDEX access_log_brand ON app.access_log (brand_id, id DESC)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.access_log");
  await knex.raw("DROP TABLE app.trusted_issuers");
  await knex.raw("DROP TABLE app.authority_keys");
  await knex.raw("DROP TABLE app.reader_keys");
  await knex.raw("DROP TABLE app.access_overrides");
}
