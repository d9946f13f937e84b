// The confirmation watcher: turns chain facts the indexer holds at the configured depth into outbox events.
import { PeriodicJobBase } from "../jobs/periodic-job";
import { finalBlockUpTo } from "../chain/finality";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import type { Logger } from "../logger";
import { brandAddress } from "../domains/service";
import { certificatePageUrl } from "../links";
import { indexerState } from "../onchain/indexer-state.repo";
import { productCertifiedPayload, tagAssignedPayload } from "./events";
import { enqueueEvent } from "./outbox";
import { findEventIdByDedupeKey } from "./outbox.repo";
import {
  attributableFacts,
  dropFact,
  dropStaleFacts,
  ledgerOriginOf,
  parkMints,
  parkTagAssignments,
  readCursor,
  tryWatcherLock,
  viewsFingerprint,
  writeCursor,
  type AttributableFact,
} from "./watcher.repo";

const UNDEFINED_TABLE = "42P01";
const BATCH = 500;
const STALE_FACT_DAYS = 30;

export type WatcherOptions = { db: Knex; config: Config; logger: Logger; intervalMs: number };

export class ConfirmationWatcher extends PeriodicJobBase<number> {
  constructor(private readonly options: WatcherOptions) {
    super({ name: "confirmation-watcher", intervalMs: options.intervalMs, logger: options.logger });
  }

  protected run(): Promise<number> {
    return this.tick();
  }

  /** One pass; returns how many events it enqueued. Exposed so tests and tools can drive the watcher directly. */
  async tick(): Promise<number> {
    const { db, config } = this.options;
    try {
      // The indexer's checkpoint is read on its own, before the transaction, so no lock on it is held while the scans
      // wait for Ponder's tables: Ponder's reorganisation locks its tables first and the checkpoint last, and a
      // transaction holding the checkpoint while it waited for a table made each wait on the other until the
      // statement time-out (30 s), every read of those tables queued behind them.
      const state = await indexerState(db, config.onchainSchema);
      if (!state) return 0;
      return await db.transaction(async (trx) => {
        if (!(await tryWatcherLock(trx))) return 0;
        // Depth as the public record counts it: a block's own inclusion is its first confirmation.
        const safeBlock = finalBlockUpTo(state.indexedBlock, config.confirmations);
        const source = await viewsFingerprint(trx, config.onchainSchema);
        await this.scan(trx, "product.certified", source, safeBlock, state.indexedBlock, (after, upTo) => parkMints(trx, config.onchainSchema, after, upTo));
        await this.scan(trx, "tag.assigned", source, safeBlock, state.indexedBlock, (after, upTo) => parkTagAssignments(trx, config.onchainSchema, after, upTo));
        let enqueued = 0;
        for (const fact of await attributableFacts(trx, BATCH)) {
          const sentBefore = fact.kind === "tag" && (await findEventIdByDedupeKey(trx, legacyTagKey(fact))) !== undefined;
          if (!sentBefore) {
            await enqueueEvent(trx, await this.eventFor(trx, fact));
            enqueued += 1;
          }
          await dropFact(trx, fact.kind, fact.ref);
        }
        const stale = await dropStaleFacts(trx, STALE_FACT_DAYS);
        if (stale > 0) this.options.logger.warn({ stale }, "dropped chain facts that no product claimed");
        return enqueued;
      });
    } catch (error) {
      // The indexer has not published its views yet.
      if ((error as { code?: string }).code === UNDEFINED_TABLE) return 0;
      throw error;
    }
  }

  private async scan(
    trx: Knex,
    name: string,
    source: string,
    safeBlock: number,
    indexedBlock: number,
    park: (after: number, upTo: number) => Promise<number>,
  ) {
    const cursor = await readCursor(trx, name);
    // New views (a new local chain, a re-index) or an indexer behind the cursor: rescan from the start; the dedupe
    // keys keep facts already sent from being sent again.
    const after = cursor && cursor.source === source && cursor.lastBlock <= indexedBlock ? cursor.lastBlock : -1;
    if (safeBlock <= after) return;
    await park(after, safeBlock);
    await writeCursor(trx, name, { lastBlock: safeBlock, source });
  }

  private async eventFor(trx: Knex, fact: AttributableFact) {
    const at = new Date(fact.detail.at * 1000);
    if (fact.kind === "mint") {
      // The certificate on the brand's own address, where it has one.
      const brand = await brandAddress(trx, fact.brandId);
      return {
        brandId: fact.brandId,
        type: "product.certified" as const,
        dedupeKey: `product.certified:${fact.uid}`,
        payload: productCertifiedPayload({
          uid: fact.uid,
          txHash: fact.txHash,
          certificateUrl: certificatePageUrl(this.options.config, fact.uid, brand),
          at,
        }),
      };
    }
    return {
      brandId: fact.brandId,
      type: "tag.assigned" as const,
      // Not the indexer's event id (it names the block), nor the hash alone: a reorg that re-mines the transaction
      // elsewhere, or under the new hash of a fee bump, is the same assignment, sent once.
      dedupeKey: `tag.assigned:${await assignmentSentAs(trx, fact.txHash)}:${fact.tokenId}:${fact.detail.tag_hash}`,
      payload: tagAssignedPayload({
        uid: fact.uid,
        tokenId: fact.tokenId,
        tagHash: fact.detail.tag_hash!,
        previousTagHash: fact.detail.previous_tag_hash!,
        txHash: fact.txHash,
        blockNumber: fact.blockNumber,
        at,
      }),
    };
  }
}

/** What identifies the transaction of an assignment: its ledger line when the shared wallet sent it, else its hash. */
async function assignmentSentAs(trx: Knex, txHash: string): Promise<string> {
  const origin = await ledgerOriginOf(trx, txHash);
  return origin === undefined ? txHash : `ledger-${origin}`;
}

/** The key tag.assigned had before the ledger (hash and indexer event id): an assignment sent under it is not sent again. */
function legacyTagKey(fact: AttributableFact): string {
  return `tag.assigned:${fact.txHash}:${fact.ref}`;
}
