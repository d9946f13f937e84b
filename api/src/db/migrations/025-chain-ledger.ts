// Issue 15: the shared wallet's durable transaction ledger (one nonce authority across replicas), the link from an
// issuance to the transaction that mints it, and the record of reorganisations met.
import type { Knex } from "knex";

const STATUSES = "'signed', 'sent', 'mined', 'final', 'superseded', 'failed'";

export async function up(knex: Knex): Promise<void> {
  // One row per nonce we signed. raw_tx/tx_hash: the transaction as last signed (a fee bump re-signs the same nonce);
  // hashes: every hash ever broadcast for it, so a receipt of any of them settles the row. superseded_by: the row
  // that redoes a generic call whose nonce something else consumed. checked_depth: how deep the row's block was
  // last seen canonical (the depth of a reorg that removes it is at least this). signed_at: when the current signing
  // was made (a fee bump is due replace-after seconds later).
  await knex.raw(`
    CREATE TABLE app.chain_transactions (
      id bigserial PRIMARY KEY,
      wallet text NOT NULL CHECK (wallet ~ '^0x[0-9a-f]{40}$'),
      chain_id integer NOT NULL,
      nonce integer NOT NULL CHECK (nonce >= 0),
      purpose text NOT NULL CHECK (length(purpose) <= 64),
      to_address text NOT NULL,
      data text NOT NULL,
      gas_limit bigint NOT NULL,
      raw_tx text NOT NULL,
      tx_hash text NOT NULL,
      max_fee_per_gas numeric(78, 0),
      max_priority_fee_per_gas numeric(78, 0),
      gas_price numeric(78, 0),
      hashes text[] NOT NULL,
      status text NOT NULL DEFAULT 'signed' CHECK (status IN (${STATUSES})),
      mined_hash text,
      block_number bigint,
      block_hash text,
      checked_depth integer NOT NULL DEFAULT 0,
      first_sent_at timestamptz,
      last_sent_at timestamptz,
      signed_at timestamptz NOT NULL DEFAULT now(),
      replacements integer NOT NULL DEFAULT 0,
      superseded_by bigint REFERENCES app.chain_transactions (id),
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  // A nonce is ours once: only a superseded row (its nonce went to something else) gives it up.
  await knex.raw(
    "CREATE UNIQUE INDEX chain_transactions_nonce ON app.chain_transactions (wallet, chain_id, nonce) WHERE status <> 'superseded'",
  );
  // The monitor's work list (rows not settled yet) and its watch window of final rows.
  await knex.raw("CREATE INDEX chain_transactions_open ON app.chain_transactions (id) WHERE status IN ('signed', 'sent', 'mined')");
  await knex.raw("CREATE INDEX chain_transactions_final ON app.chain_transactions (block_number) WHERE status = 'final'");
  await knex.raw("CREATE INDEX chain_transactions_hashes ON app.chain_transactions USING gin (hashes)");

  // chain_tx_id: the ledger row carrying this mint (null while the claim waits for a pump). quota_period: the month
  // the certificate unit was counted in with the claim (null: nothing to refund). mint_attempts: transactions that
  // carried it and reverted. recheck_chain: a retaken claim may be on chain already; the pump looks first.
  await knex.raw(`
    ALTER TABLE app.passports
      ADD COLUMN chain_tx_id bigint REFERENCES app.chain_transactions (id) ON DELETE SET NULL,
      ADD COLUMN quota_period text CHECK (quota_period ~ '^[0-9]{4}-[0-9]{2}$'),
      ADD COLUMN mint_attempts integer NOT NULL DEFAULT 0,
      ADD COLUMN recheck_chain boolean NOT NULL DEFAULT false,
      ADD COLUMN events_sent boolean NOT NULL DEFAULT false`);
  // Claims left pending by the old in-process signer may be on chain already: the pump looks before minting them.
  await knex.raw("UPDATE app.passports SET recheck_chain = true WHERE status = 'pending'");
  await knex.raw("CREATE INDEX passports_unlinked_claims ON app.passports (requested_at) WHERE status = 'pending' AND chain_tx_id IS NULL");
  await knex.raw("CREATE INDEX passports_chain_tx ON app.passports (chain_tx_id) WHERE chain_tx_id IS NOT NULL");

  // Reorganisations that removed a block holding one of our transactions; deep: deeper than the configured
  // confirmation depth (the transaction was final, its events sent).
  await knex.raw(`
    CREATE TABLE app.chain_reorgs (
      id bigserial PRIMARY KEY,
      chain_tx_id bigint NOT NULL REFERENCES app.chain_transactions (id) ON DELETE CASCADE,
      chain_id integer NOT NULL,
      block_number bigint NOT NULL,
      old_block_hash text NOT NULL,
      depth integer NOT NULL,
      deep boolean NOT NULL,
      detected_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw("CREATE INDEX chain_reorgs_detected ON app.chain_reorgs (detected_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE IF EXISTS app.chain_reorgs");
  await knex.raw(
    "ALTER TABLE app.passports DROP COLUMN IF EXISTS chain_tx_id, DROP COLUMN IF EXISTS quota_period, DROP COLUMN IF EXISTS mint_attempts, DROP COLUMN IF EXISTS recheck_chain, DROP COLUMN IF EXISTS events_sent",
  );
  await knex.raw("DROP TABLE IF EXISTS app.chain_transactions");
}
