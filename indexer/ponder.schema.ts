// Tables the indexer builds from contract events; published as views in a stable schema that the API reads.
import { index, onchainTable, primaryKey } from "ponder";

/** One row per minted passport (ProductPassport:PassportsMinted with its call's arguments), kept current by later events. */
export const passport = onchainTable(
  "passport",
  (t) => ({
    tokenId: t.bigint().primaryKey(),
    factoryId: t.bigint().notNull(),
    dataHash: t.hex().notNull(),
    dataHashVersion: t.integer().notNull(),
    status: t.integer().notNull(),
    tagHash: t.hex(),
    mintedBlock: t.bigint().notNull(),
    mintedAt: t.bigint().notNull(),
    mintTxHash: t.hex().notNull(),
    updatedBlock: t.bigint().notNull(),
    updatedTxHash: t.hex().notNull(),
  }),
  (table) => ({ factoryIdx: index().on(table.factoryId) }),
);

/** Current holder of each token (ERC-721 Transfer); kept apart so mint and transfer handlers never depend on order. */
export const passportOwner = onchainTable("passport_owner", (t) => ({
  tokenId: t.bigint().primaryKey(),
  owner: t.hex().notNull(),
  updatedBlock: t.bigint().notNull(),
}));

/** Every re-anchoring of a passport's content hash (DataHashUpdated). */
export const dataHashUpdate = onchainTable(
  "data_hash_update",
  (t) => ({
    id: t.text().primaryKey(),
    tokenId: t.bigint().notNull(),
    previousHash: t.hex().notNull(),
    newHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (table) => ({ tokenIdx: index().on(table.tokenId) }),
);

/** Lost / stolen / recovered history (PassportStatusChanged). */
export const statusChange = onchainTable(
  "status_change",
  (t) => ({
    id: t.text().primaryKey(),
    tokenId: t.bigint().notNull(),
    previousStatus: t.integer().notNull(),
    newStatus: t.integer().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (table) => ({ tokenIdx: index().on(table.tokenId) }),
);

/** NFC tag assignments (TagAssigned); a tag is the keccak256 of its tag UID. */
export const tagAssignment = onchainTable(
  "tag_assignment",
  (t) => ({
    id: t.text().primaryKey(),
    tokenId: t.bigint().notNull(),
    tagHash: t.hex().notNull(),
    previousTagHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (table) => ({ tokenIdx: index().on(table.tokenId), tagIdx: index().on(table.tagHash) }),
);

/** Supply-chain steps (SupplyChainEventRecorded); `id` is the log id, stable across re-indexing. */
export const supplyChainEvent = onchainTable(
  "supply_chain_event",
  (t) => ({
    id: t.text().primaryKey(),
    tokenId: t.bigint().notNull(),
    factoryId: t.bigint().notNull(),
    stage: t.integer().notNull(),
    detailsHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({ tokenIdx: index().on(table.tokenId), factoryIdx: index().on(table.factoryId) }),
);

/** Registered factories (FactoryRegistry), current state. */
export const factory = onchainTable("factory", (t) => ({
  factoryId: t.bigint().primaryKey(),
  metadataHash: t.hex().notNull(),
  country: t.text().notNull(),
  verified: t.boolean().notNull(),
  certificationsMask: t.integer().notNull(),
  registeredBlock: t.bigint().notNull(),
  registeredAt: t.bigint().notNull(),
  registeredTxHash: t.hex().notNull(),
  verifiedAt: t.bigint(),
  updatedBlock: t.bigint().notNull(),
}));

/** Verification history of factories (FactoryVerified / FactoryUnverified). */
export const factoryVerification = onchainTable(
  "factory_verification",
  (t) => ({
    id: t.text().primaryKey(),
    factoryId: t.bigint().notNull(),
    verified: t.boolean().notNull(),
    verifier: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (table) => ({ factoryIdx: index().on(table.factoryId) }),
);

/**
 * Per-factory on-chain counters that feed the reputation score. A factory can appear here before it is
 * registered (a passport may name a factory id first), so the counters stand on their own.
 */
export const factoryStats = onchainTable("factory_stats", (t) => ({
  factoryId: t.bigint().primaryKey(),
  onChainEvents: t.integer().notNull(),
  passportsMinted: t.integer().notNull(),
  supplyChainEvents: t.integer().notNull(),
  verificationEvents: t.integer().notNull(),
  lastActivityBlock: t.bigint().notNull(),
  lastActivityAt: t.bigint().notNull(),
}));

/**
 * The chain's totals, one row (id 0) kept by the handlers: GET /api/stats reads them instead of counting every
 * passport and step. Passports of an undeclared maker (factory 0) count here, unlike in factory_stats.
 */
export const chainTotals = onchainTable("chain_totals", (t) => ({
  id: t.integer().primaryKey(),
  passports: t.bigint().notNull(),
  tagsAssigned: t.bigint().notNull(),
  supplyChainEvents: t.bigint().notNull(),
}));

/** Distinct (factory, passport) pairs touched by supply-chain events: how many products a factory verifiably handled. */
export const factoryPassport = onchainTable(
  "factory_passport",
  (t) => ({
    factoryId: t.bigint().notNull(),
    tokenId: t.bigint().notNull(),
    firstBlock: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.factoryId, table.tokenId] }) }),
);
