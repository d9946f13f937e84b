// Reverted shared-wallet transactions are watched to the confirmation depth like mined ones (chain/ledger-monitor.ts):
// a reorganisation that drops a reverted transaction's block frees its nonce, and unless it is sent again every later
// transaction of the wallet waits behind the gap. The watch reads reverted rows that have a block on every tick, so
// they get an index of their own; it is built CONCURRENTLY, outside a transaction, as in 010: the ledger grows with
// every transaction and a plain CREATE INDEX would block the senders while it builds.
import type { Knex } from "knex";

export const config = { transaction: false };

const NAME = "chain_transactions_reverted";

export async function up(knex: Knex): Promise<void> {
  // A build that failed half-way leaves an invalid index behind: drop it, so a re-run builds it again.
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${NAME}`);
  await knex.raw(`CREATE INDEX CONCURRENTLY ${NAME} ON app.chain_transactions (nonce) WHERE status = 'failed' AND block_hash IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${NAME}`);
}
