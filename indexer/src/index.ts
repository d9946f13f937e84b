// Event handlers: each contract event becomes rows. Handlers only insert or upsert; they never read the chain.
import { ponder, type Context } from "ponder:registry";
import {
  chainTotals,
  dataHashUpdate,
  factory,
  factoryPassport,
  factoryStats,
  factoryVerification,
  passport,
  passportOwner,
  statusChange,
  supplyChainEvent,
  tagAssignment,
} from "ponder:schema";
import { mintCallOf } from "./mint-call";

type Activity = { events?: number; passportsMinted?: number; supplyChainEvents?: number; verificationEvents?: number };
type BlockRef = { number: bigint; timestamp: bigint };
type EventRef = { block: BlockRef; transaction: { hash: `0x${string}` } };

/** Where a history row came from: its block, time and transaction. */
const origin = (event: EventRef) => ({
  blockNumber: event.block.number,
  timestamp: event.block.timestamp,
  txHash: event.transaction.hash,
});

/** The last change to a current-state row. */
const touched = (event: EventRef) => ({ updatedBlock: event.block.number, updatedTxHash: event.transaction.hash });

/** Counts on-chain events for a factory (one unless `activity.events` says more), plus the kind-specific counters. */
async function recordFactoryActivity(db: Context["db"], factoryId: bigint, block: BlockRef, activity: Activity) {
  const events = activity.events ?? 1;
  const passportsMinted = activity.passportsMinted ?? 0;
  const supplyChainEvents = activity.supplyChainEvents ?? 0;
  const verificationEvents = activity.verificationEvents ?? 0;
  await db
    .insert(factoryStats)
    .values({
      factoryId,
      onChainEvents: events,
      passportsMinted,
      supplyChainEvents,
      verificationEvents,
      lastActivityBlock: block.number,
      lastActivityAt: block.timestamp,
    })
    .onConflictDoUpdate((row) => ({
      onChainEvents: row.onChainEvents + events,
      passportsMinted: row.passportsMinted + passportsMinted,
      supplyChainEvents: row.supplyChainEvents + supplyChainEvents,
      verificationEvents: row.verificationEvents + verificationEvents,
      lastActivityBlock: block.number,
      lastActivityAt: block.timestamp,
    }));
}

/** Adds to the chain's totals (chain_totals' one row). */
async function addToTotals(db: Context["db"], added: { passports?: bigint; tagsAssigned?: bigint; supplyChainEvents?: bigint }) {
  const { passports = 0n, tagsAssigned = 0n, supplyChainEvents = 0n } = added;
  await db
    .insert(chainTotals)
    .values({ id: 0, passports, tagsAssigned, supplyChainEvents })
    .onConflictDoUpdate((row) => ({
      passports: row.passports + passports,
      tagsAssigned: row.tagsAssigned + tagsAssigned,
      supplyChainEvents: row.supplyChainEvents + supplyChainEvents,
    }));
}

ponder.on("ProductPassport:Transfer", async ({ event, context }) => {
  await context.db
    .insert(passportOwner)
    .values({ tokenId: event.args.tokenId, owner: event.args.to, updatedBlock: event.block.number })
    .onConflictDoUpdate({ owner: event.args.to, updatedBlock: event.block.number });
});

ponder.on("ProductPassport:PassportsMinted", async ({ event, context }) => {
  const { factoryId, passports } = mintCallOf(event);
  await context.db.insert(passport).values(
    passports.map(({ tokenId, dataHash }) => ({
      tokenId,
      factoryId,
      dataHash,
      dataHashVersion: 1,
      status: 0,
      mintedBlock: event.block.number,
      mintedAt: event.block.timestamp,
      mintTxHash: event.transaction.hash,
      ...touched(event),
    })),
  );
  await addToTotals(context.db, { passports: BigInt(passports.length) });
  // Factory 0 means "manufacturer not declared": no factory earns reputation from it. Each passport counts as one
  // on-chain event, as when every passport had its own mint log, so a factory's score does not depend on batching.
  if (factoryId !== 0n) {
    const minted = passports.length;
    await recordFactoryActivity(context.db, factoryId, event.block, { events: minted, passportsMinted: minted });
  }
});

ponder.on("ProductPassport:DataHashUpdated", async ({ event, context }) => {
  const { tokenId, previousHash, newHash } = event.args;
  await context.db.insert(dataHashUpdate).values({
    id: event.id,
    tokenId,
    previousHash,
    newHash,
    ...origin(event),
  });
  await context.db.update(passport, { tokenId }).set((row) => ({
    dataHash: newHash,
    dataHashVersion: row.dataHashVersion + 1,
    ...touched(event),
  }));
});

ponder.on("ProductPassport:PassportStatusChanged", async ({ event, context }) => {
  const { tokenId, previousStatus, newStatus } = event.args;
  await context.db.insert(statusChange).values({
    id: event.id,
    tokenId,
    previousStatus,
    newStatus,
    ...origin(event),
  });
  await context.db.update(passport, { tokenId }).set({
    status: newStatus,
    ...touched(event),
  });
});

ponder.on("ProductPassport:TagAssigned", async ({ event, context }) => {
  const { tokenId, tagHash, previousTagHash } = event.args;
  await context.db.insert(tagAssignment).values({
    id: event.id,
    tokenId,
    tagHash,
    previousTagHash,
    ...origin(event),
  });
  await context.db.update(passport, { tokenId }).set({
    tagHash,
    ...touched(event),
  });
  // The contract never takes a tag away (a tag hash is never zero), so a passport has a tag from its first assignment.
  if (BigInt(previousTagHash) === 0n) await addToTotals(context.db, { tagsAssigned: 1n });
});

ponder.on("ProductPassport:SupplyChainEventRecorded", async ({ event, context }) => {
  const { tokenId, factoryId, stage, detailsHash } = event.args;
  await context.db.insert(supplyChainEvent).values({
    id: event.id,
    tokenId,
    factoryId,
    stage,
    detailsHash,
    ...origin(event),
    logIndex: event.log.logIndex,
  });
  await context.db
    .insert(factoryPassport)
    .values({ factoryId, tokenId, firstBlock: event.block.number })
    .onConflictDoNothing();
  await recordFactoryActivity(context.db, factoryId, event.block, { supplyChainEvents: 1 });
  await addToTotals(context.db, { supplyChainEvents: 1n });
});

ponder.on("FactoryRegistry:FactoryRegistered", async ({ event, context }) => {
  const { factoryId, metadataHash, country } = event.args;
  await context.db.insert(factory).values({
    factoryId,
    metadataHash,
    country: Buffer.from(country.slice(2), "hex").toString("latin1"),
    verified: false,
    certificationsMask: 0,
    registeredBlock: event.block.number,
    registeredAt: event.block.timestamp,
    registeredTxHash: event.transaction.hash,
    updatedBlock: event.block.number,
  });
  await recordFactoryActivity(context.db, factoryId, event.block, {});
});

ponder.on("FactoryRegistry:FactoryMetadataUpdated", async ({ event, context }) => {
  const { factoryId, newHash } = event.args;
  await context.db.update(factory, { factoryId }).set({ metadataHash: newHash, updatedBlock: event.block.number });
  await recordFactoryActivity(context.db, factoryId, event.block, {});
});

async function recordVerification(
  context: Context,
  event: EventRef & { id: string; args: { factoryId: bigint; verifier: `0x${string}` } },
  verified: boolean,
) {
  const { factoryId, verifier } = event.args;
  await context.db.insert(factoryVerification).values({
    id: event.id,
    factoryId,
    verified,
    verifier,
    ...origin(event),
  });
  await context.db.update(factory, { factoryId }).set({
    verified,
    verifiedAt: verified ? event.block.timestamp : null,
    updatedBlock: event.block.number,
  });
  await recordFactoryActivity(context.db, factoryId, event.block, { verificationEvents: 1 });
}

ponder.on("FactoryRegistry:FactoryVerified", async ({ event, context }) => recordVerification(context, event, true));
ponder.on("FactoryRegistry:FactoryUnverified", async ({ event, context }) => recordVerification(context, event, false));

ponder.on("FactoryRegistry:CertificationsUpdated", async ({ event, context }) => {
  const { factoryId, newMask } = event.args;
  await context.db.update(factory, { factoryId }).set({ certificationsMask: newMask, updatedBlock: event.block.number });
  await recordFactoryActivity(context.db, factoryId, event.block, {});
});
