// The brand's minted passports by the block that mined them, for the dashboard's list filtered to verified or pending
// passports (`npm run bench:volume`): its count of a large brand's verified passports joined each to the indexer's
// passport view, a scan of every brand's passports (70 ms for 10,000 at 100,000 passports); the issuance ledger's
// own block number answers it from this index alone (4 ms).
//
// Outside a transaction, as 035 and 041: built CONCURRENTLY, so issuance goes on while it builds.
import type { Knex } from "knex";

export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX CONCURRENTLY IF EXISTS app.passports_brand_minted_block");
  await knex.raw("CREATE INDEX CONCURRENTLY passports_brand_minted_block ON app.passports (brand_id, block_number) WHERE status = 'minted'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX CONCURRENTLY IF EXISTS app.passports_brand_minted_block");
}
