// Reads how far the indexer has got, from the checkpoint view Ponder publishes next to its tables.
import type { Knex } from "../db/knex";

// Ponder checkpoints are fixed-width decimal strings: timestamp(10) chainId(16) blockNumber(16) ...
const BLOCK_NUMBER_START = 10 + 16;
const BLOCK_NUMBER_DIGITS = 16;

export type IndexerState = { indexedBlock: number; indexedBlockTimestamp: number } | undefined;

export async function indexerState(db: Knex, onchainSchema: string): Promise<IndexerState> {
  const exists = await db.raw<{ rows: Array<{ present: boolean }> }>(
    "SELECT to_regclass(?) IS NOT NULL AS present",
    [`"${onchainSchema}"."_ponder_checkpoint"`],
  );
  if (!exists.rows[0]?.present) return undefined;
  const row = await db.withSchema(onchainSchema).table("_ponder_checkpoint").first<{ latest_checkpoint: string }>(
    "latest_checkpoint",
  );
  if (!row) return undefined;
  return decodeCheckpoint(row.latest_checkpoint);
}

export function decodeCheckpoint(checkpoint: string): { indexedBlock: number; indexedBlockTimestamp: number } {
  return {
    indexedBlockTimestamp: Number(checkpoint.slice(0, 10)),
    indexedBlock: Number(checkpoint.slice(BLOCK_NUMBER_START, BLOCK_NUMBER_START + BLOCK_NUMBER_DIGITS)),
  };
}

const UNDEFINED_TABLE = "42P01";

/**
 * The indexer's state in one round trip, for hot read paths: undefined until the views exist. Not for use inside a
 * transaction, where the failed read of a missing view would abort it (indexerState checks first instead).
 */
export async function latestIndexerState(db: Knex, onchainSchema: string): Promise<IndexerState> {
  try {
    const result = await db.raw<{ rows: Array<{ latest_checkpoint: string }> }>(latestCheckpointSql(onchainSchema));
    const row = result.rows[0];
    return row ? decodeCheckpoint(row.latest_checkpoint) : undefined;
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return undefined;
    throw error;
  }
}

// The statement is built once per schema: hot read paths run it for every burst of requests, and the query builder
// cost more than the query. The schema name is a checked identifier (config.ts); it is quoted all the same.
const checkpointSql = new Map<string, string>();
function latestCheckpointSql(onchainSchema: string): string {
  let sql = checkpointSql.get(onchainSchema);
  if (sql === undefined) {
    sql = `SELECT latest_checkpoint FROM "${onchainSchema.replaceAll('"', '""')}"."_ponder_checkpoint" LIMIT 1`;
    checkpointSql.set(onchainSchema, sql);
  }
  return sql;
}
