// A facility's confirmation of its own processing stage of a passport's textile section (issue 26;
// factories/stage-confirmation.ts): an attestation beside the anchored content, whose proof is a supply-chain event on
// the passport's token. One row per passport and stage as declared (`stage_hash`), so a stage is confirmed once; a
// row without `tx_hash` is a confirmation being sent.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE app.stage_confirmations (
      id bigserial PRIMARY KEY,
      product_id integer NOT NULL REFERENCES app.products(id) ON DELETE CASCADE,
      stage_hash text NOT NULL,
      stage text NOT NULL,
      factory_id integer NOT NULL,
      confirmed_by text NOT NULL CHECK (confirmed_by IN ('factory_operator', 'admin')),
      details_hash text NOT NULL,
      tx_hash text,
      block_number bigint,
      claimed_at timestamptz NOT NULL DEFAULT now(),
      confirmed_at timestamptz,
      UNIQUE (product_id, stage_hash)
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.stage_confirmations");
}
