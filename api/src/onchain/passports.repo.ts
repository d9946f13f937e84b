// Reads the indexer's passport views (schema `onchain`). Ponder stores bigints as numeric and hex as lower-case
// text; this module is the one place that turns them into the API's types.
import { prepared, type Knex } from "../db/knex";

export type IndexedPassport = {
  tokenId: string;
  factoryId: number;
  dataHash: string;
  dataHashVersion: number;
  status: number;
  tagHash: string | null;
  owner: string | null;
  mintedBlock: number;
  mintedAt: Date;
  mintTxHash: string;
  updatedTxHash: string;
};

export type IndexedSupplyChainEvent = {
  id: string;
  factoryId: number;
  stage: number;
  detailsHash: string;
  blockNumber: number;
  timestamp: Date;
  txHash: string;
};

type PassportRow = {
  token_id: string;
  factory_id: string;
  data_hash: string;
  data_hash_version: number;
  status: number;
  tag_hash: string | null;
  owner: string | null;
  minted_block: string;
  minted_at: string;
  mint_tx_hash: string;
  updated_tx_hash: string;
};

export async function findIndexedPassport(db: Knex, schema: string, tokenId: string): Promise<IndexedPassport | undefined> {
  const row = await prepared(db.withSchema(schema))
    .from("passport as p")
    .leftJoin("passport_owner as o", "o.token_id", "p.token_id")
    .where("p.token_id", tokenId)
    .first<PassportRow | undefined>(
      "p.token_id",
      "p.factory_id",
      "p.data_hash",
      "p.data_hash_version",
      "p.status",
      "p.tag_hash",
      "o.owner",
      "p.minted_block",
      "p.minted_at",
      "p.mint_tx_hash",
      "p.updated_tx_hash",
    );
  if (!row) return undefined;
  return {
    tokenId: String(row.token_id),
    factoryId: Number(row.factory_id),
    dataHash: row.data_hash,
    dataHashVersion: row.data_hash_version,
    status: row.status,
    tagHash: row.tag_hash,
    owner: row.owner,
    mintedBlock: Number(row.minted_block),
    mintedAt: new Date(Number(row.minted_at) * 1000),
    mintTxHash: row.mint_tx_hash,
    updatedTxHash: row.updated_tx_hash,
  };
}

export async function listSupplyChainEvents(db: Knex, schema: string, tokenId: string): Promise<IndexedSupplyChainEvent[]> {
  const rows = await prepared(db.withSchema(schema))
    .from("supply_chain_event")
    .where("token_id", tokenId)
    .orderBy([{ column: "block_number" }, { column: "log_index" }])
    .select<Array<{ id: string; factory_id: string; stage: number; details_hash: string; block_number: string; timestamp: string; tx_hash: string }>>(
      "id",
      "factory_id",
      "stage",
      "details_hash",
      "block_number",
      "timestamp",
      "tx_hash",
    );
  return rows.map((row) => ({
    id: row.id,
    factoryId: Number(row.factory_id),
    stage: row.stage,
    detailsHash: row.details_hash,
    blockNumber: Number(row.block_number),
    timestamp: new Date(Number(row.timestamp) * 1000),
    txHash: row.tx_hash,
  }));
}
