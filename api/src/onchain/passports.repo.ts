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

const PASSPORT_COLUMNS = [
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
];

function passportQuery(db: Knex, schema: string, tokenId: string) {
  return prepared(db.withSchema(schema)).from("passport as p").leftJoin("passport_owner as o", "o.token_id", "p.token_id").where("p.token_id", tokenId);
}

export async function findIndexedPassport(db: Knex, schema: string, tokenId: string): Promise<IndexedPassport | undefined> {
  const row = await passportQuery(db, schema, tokenId).first<PassportRow | undefined>(...PASSPORT_COLUMNS);
  return row ? toIndexedPassport(row) : undefined;
}

/** Where a factory is, as the public record names it: its profile's name and city, its country from either side. */
export type FactoryPlace = { name: string | null; city: string | null; country: string | null };

/**
 * A passport with its supply-chain events, oldest first, and the name and place of each event's factory: read with
 * its product (findProductWithChain), as the public record reads all three on every request.
 */
export type PassportWithEvents = { passport: IndexedPassport; events: IndexedSupplyChainEvent[]; factoryPlaces: Map<number, FactoryPlace> };
/** A row of passportWithEventsQuery: its numeric columns as text, so they read the same from a JSON object. */
export type PassportWithEventsRow = PassportRow & { events: EventWithPlaceRow[] };
type EventWithPlaceRow = EventRow & { factory_name: string | null; factory_city: string | null; factory_country: string | null };

export function toPassportWithEvents(row: PassportWithEventsRow): PassportWithEvents {
  const factoryPlaces = new Map(row.events.map((event) => [Number(event.factory_id), { name: event.factory_name, city: event.factory_city, country: event.factory_country?.trim() ?? null }]));
  return { passport: toIndexedPassport(row), events: row.events.map(toSupplyChainEvent), factoryPlaces };
}

/**
 * A passport with its events and their factories' places as one row (at most one), for `tokenId` (a value or a
 * `compiledOnce` parameter). Its numeric columns are cast to text, so the row reads the same whether it arrives as
 * columns or, as a subquery of a product read (products.repo.ts), as one JSON object (a uint256 token id would lose
 * digits as a JSON number). A factory's place is what findFactories gives (profiles in schema app, the registry's
 * country where the profile has none).
 */
export function passportWithEventsQuery(db: Knex, schema: string, tokenId: string) {
  return passportQuery(db, schema, tokenId)
    .select(
      ...PASSPORT_COLUMNS.map((column) => (NUMERIC_COLUMNS.has(column) ? db.raw(`${column}::text AS ${column.slice(2)}`) : column)),
      db.raw(
        `coalesce((SELECT json_agg(json_build_object('id', e.id, 'factory_id', e.factory_id::text, 'stage', e.stage, 'details_hash', e.details_hash,
           'block_number', e.block_number::text, 'timestamp', e.timestamp::text, 'tx_hash', e.tx_hash,
           'factory_name', fp.name, 'factory_city', fp.city, 'factory_country', coalesce(fp.country, f.country)) ORDER BY e.block_number, e.log_index)
         FROM ??.supply_chain_event e
         LEFT JOIN app.factory_profiles fp ON fp.factory_id = e.factory_id
         LEFT JOIN ??.factory f ON f.factory_id = e.factory_id
         WHERE e.token_id = p.token_id), '[]') AS events`,
        [schema, schema],
      ),
    )
    .limit(1);
}

/** The passport's columns Ponder stores as numeric (uint256 and block numbers and times). */
const NUMERIC_COLUMNS = new Set(["p.token_id", "p.factory_id", "p.minted_block", "p.minted_at"]);

function toIndexedPassport(row: PassportRow): IndexedPassport {
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

type EventRow = { id: string; factory_id: string; stage: number; details_hash: string; block_number: string; timestamp: string; tx_hash: string };

export async function listSupplyChainEvents(db: Knex, schema: string, tokenId: string): Promise<IndexedSupplyChainEvent[]> {
  const rows = await prepared(db.withSchema(schema))
    .from("supply_chain_event")
    .where("token_id", tokenId)
    .orderBy([{ column: "block_number" }, { column: "log_index" }])
    .select<EventRow[]>("id", "factory_id", "stage", "details_hash", "block_number", "timestamp", "tx_hash");
  return rows.map(toSupplyChainEvent);
}

function toSupplyChainEvent(row: EventRow): IndexedSupplyChainEvent {
  return {
    id: row.id,
    factoryId: Number(row.factory_id),
    stage: row.stage,
    detailsHash: row.details_hash,
    blockNumber: Number(row.block_number),
    timestamp: new Date(Number(row.timestamp) * 1000),
    txHash: row.tx_hash,
  };
}
