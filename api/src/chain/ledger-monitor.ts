// The ledger monitor: one elected process at a time (a try-lock per tick) follows every open shared-wallet
// transaction to the end: records receipts, re-sends dropped transactions, replaces stuck ones with higher fees,
// redoes superseded ones, finalises at the confirmation depth and heals reorganisations (to the depth it watches).
import { PeriodicJobBase } from "../jobs/periodic-job";
import type { Config } from "../config";
import type { Logger } from "../logger";
import { isFinal } from "./finality";
import { MONITOR_LOCK_CLASS, type ChainLedger, type LedgerRow } from "./ledger";

export type MonitorOptions = {
  ledger: ChainLedger;
  settings: Config["chainLedger"];
  logger: Logger;
};

/** What one tick did; `elected` false when another process holds the monitor this tick. */
export type MonitorTick = {
  elected: boolean;
  receipts: number;
  rebroadcast: number;
  replaced: number;
  superseded: number;
  finalised: number;
  reorgs: Array<{ chainTxId: number; depth: number; deep: boolean }>;
};

const OPEN_BATCH = 500;
const FINAL_BATCH = 2000;

export class LedgerMonitor extends PeriodicJobBase<MonitorTick> {
  /** Rows whose nonce was seen used by something else, by id: how many ticks in a row. */
  private readonly consumed = new Map<number, number>();

  constructor(private readonly options: MonitorOptions) {
    super({ name: "ledger-monitor", intervalMs: options.settings.monitorIntervalMs, logger: options.logger });
  }

  /** A run is a tick. The election (an advisory try-lock per tick, below) stays inside it: a job library would not know it. */
  protected run(): Promise<MonitorTick> {
    return this.tick();
  }

  /** One pass, if this process wins the election for it. Exposed so tests drive the monitor by hand. */
  async tick(): Promise<MonitorTick> {
    const { ledger } = this.options;
    // The lock lives as long as this transaction; the work itself uses other connections, in short transactions.
    return ledger.db.transaction(async (lockTrx) => {
      const result = await lockTrx.raw<{ rows: Array<{ ok: boolean }> }>("SELECT pg_try_advisory_xact_lock(?, hashtext(?)) AS ok", [
        MONITOR_LOCK_CLASS,
        `${ledger.chainId}:${ledger.walletKey}`,
      ]);
      const tick: MonitorTick = { elected: result.rows[0]!.ok, receipts: 0, rebroadcast: 0, replaced: 0, superseded: 0, finalised: 0, reorgs: [] };
      if (tick.elected) await this.pass(tick);
      return tick;
    });
  }

  private async pass(tick: MonitorTick): Promise<void> {
    const { ledger } = this.options;
    const [head, minedCount] = await Promise.all([ledger.provider.getBlockNumber(), ledger.provider.getTransactionCount(ledger.address, "latest")]);
    const open = await ledger
      .db("app.chain_transactions")
      .where({ wallet: ledger.walletKey, chain_id: ledger.chainId })
      .whereIn("status", ["signed", "sent", "mined"])
      .orderBy("nonce")
      .limit(OPEN_BATCH)
      .select<LedgerRow[]>("*");
    // Reverted rows below the depth: their block may still leave the chain, and with it the use of their nonce.
    const reverted = await ledger
      .db("app.chain_transactions")
      .where({ wallet: ledger.walletKey, chain_id: ledger.chainId, status: "failed" })
      .whereNotNull("block_hash")
      .where("checked_depth", "<", ledger.confirmations)
      .orderBy("nonce")
      .limit(OPEN_BATCH)
      .select<LedgerRow[]>("*");
    for (const row of [...open, ...reverted]) {
      try {
        if (row.status === "mined") await this.checkMined(row, head, tick);
        else if (row.status === "failed") await this.checkReverted(row, head, tick);
        else await this.checkSent(row, head, minedCount, tick);
      } catch (error) {
        this.options.logger.warn({ err: error, chainTxId: row.id, txHash: row.tx_hash }, "ledger monitor could not check a transaction");
      }
    }
    await this.checkFinal(head, tick);
  }

  /** A signed or sent row: mined? dropped? stuck? or its nonce taken by something else? */
  private async checkSent(row: LedgerRow, head: number, minedCount: number, tick: MonitorTick): Promise<void> {
    const { ledger, settings, logger } = this.options;
    const receipt = await ledger.receiptOf(row);
    if (receipt) {
      if (await ledger.recordReceipt(row, receipt, Math.max(head, receipt.blockNumber))) tick.receipts += 1;
      return;
    }
    // The nonce is used on chain (the count was read before the receipts) and none of our hashes was mined. Seen on
    // two ticks in a row before acting: behind a load balancer one node may count a block another has no receipt of.
    if (minedCount > row.nonce) {
      const seen = (this.consumed.get(row.id) ?? 0) + 1;
      this.consumed.set(row.id, seen);
      if (seen < 2) return;
      this.consumed.delete(row.id);
      await this.supersede(row);
      tick.superseded += 1;
      return;
    }
    this.consumed.delete(row.id);
    const known = await ledger.provider.send("eth_getTransactionByHash", [row.tx_hash]);
    if (!known) {
      // Dropped from the node's pool, removed by a reorg, or never broadcast (a process stopped right after signing).
      logger.warn({ txHash: row.tx_hash, nonce: row.nonce }, "transaction unknown to the node: broadcasting it again");
      await ledger.broadcast(row);
      tick.rebroadcast += 1;
    } else if (Date.now() - new Date(row.signed_at).getTime() >= settings.replaceAfterSeconds * 1000) {
      const hash = await ledger.replace(row, settings.feeBumpPercent);
      if (hash) {
        logger.warn({ oldHash: row.tx_hash, newHash: hash, nonce: row.nonce }, "transaction stuck: replaced with higher fees");
        tick.replaced += 1;
      }
    }
    if (row.status === "signed") {
      await ledger
        .db("app.chain_transactions")
        .where({ id: row.id, status: "signed" })
        .update({ status: "sent", first_sent_at: ledger.db.raw("coalesce(first_sent_at, now())"), last_sent_at: ledger.db.fn.now(), updated_at: ledger.db.fn.now() });
    }
  }

  /** A mined row below the confirmation depth: still canonical? deep enough to be final? */
  private async checkMined(row: LedgerRow, head: number, tick: MonitorTick): Promise<void> {
    const { ledger } = this.options;
    const blockNumber = Number(row.block_number);
    const block = await ledger.provider.getBlock(blockNumber);
    if (!block || block.hash?.toLowerCase() !== row.block_hash) {
      await this.unmine(row, false, tick);
      return;
    }
    const depth = head - blockNumber + 1;
    await ledger.db.transaction(async (trx) => {
      await trx("app.chain_transactions").where({ id: row.id, status: "mined" }).update({ checked_depth: depth, updated_at: trx.fn.now() });
      if (isFinal(blockNumber, head, ledger.confirmations)) {
        await ledger.markFinal(trx, row);
        tick.finalised += 1;
      }
    });
  }

  /**
   * A reverted row below the depth. Its revert was acted on when its receipt came (claims put back or failed); if
   * its block leaves the chain, its nonce is free again and every later transaction of the wallet would wait behind
   * the gap, so the same bytes are sent again and their new receipt recorded (its purpose's handlers find nothing
   * left linked to it: a mint the chain now accepts is found by the pump's look at the chain).
   */
  private async checkReverted(row: LedgerRow, head: number, tick: MonitorTick): Promise<void> {
    const { ledger } = this.options;
    const blockNumber = Number(row.block_number);
    const block = await ledger.provider.getBlock(blockNumber);
    if (block && block.hash?.toLowerCase() === row.block_hash) {
      await ledger
        .db("app.chain_transactions")
        .where({ id: row.id, status: "failed" })
        .update({ checked_depth: head - blockNumber + 1, updated_at: ledger.db.fn.now() });
      return;
    }
    await this.unmine(row, false, tick);
  }

  /**
   * Final rows in the watch window. A block whose hash is unchanged vouches for all its ancestors, so the highest
   * one is checked first; only when it changed are the others looked at.
   */
  private async checkFinal(head: number, tick: MonitorTick): Promise<void> {
    const { ledger, settings } = this.options;
    const rows = await ledger
      .db("app.chain_transactions")
      .where({ wallet: ledger.walletKey, chain_id: ledger.chainId, status: "final" })
      .where("block_number", ">", head - settings.reorgWatchBlocks)
      .orderBy("block_number", "desc")
      .limit(FINAL_BATCH)
      .select<LedgerRow[]>("*");
    const canonical = new Map<number, string | undefined>();
    const hashAt = async (n: number) => {
      if (!canonical.has(n)) canonical.set(n, (await ledger.provider.getBlock(n))?.hash?.toLowerCase());
      return canonical.get(n);
    };
    for (const row of rows) {
      if ((await hashAt(Number(row.block_number))) === row.block_hash) break;
      await this.unmine(row, true, tick);
    }
  }

  /**
   * The row's block left the chain: back to `sent` (its purpose's rows unsettled in the same transaction), the
   * reorganisation recorded, and the transaction broadcast again. A final row means a reorg deeper than the
   * configured depth: an error for the operator (its events went out already and are not sent again). A reverted
   * row's revert was acted on already: it is only sent again, to fill its nonce.
   */
  private async unmine(row: LedgerRow, deep: boolean, tick: MonitorTick): Promise<void> {
    const { ledger, logger } = this.options;
    const depth = Math.max(1, row.checked_depth);
    const changed = await ledger.db.transaction(async (trx) => {
      const [back] = await trx("app.chain_transactions")
        .where({ id: row.id, status: row.status })
        .update({ status: "sent", mined_hash: null, block_number: null, block_hash: null, checked_depth: 0, error: null, signed_at: trx.fn.now(), updated_at: trx.fn.now() })
        .returning<LedgerRow[]>("*");
      if (!back) return undefined;
      await trx("app.chain_reorgs").insert({
        chain_tx_id: row.id,
        chain_id: row.chain_id,
        block_number: row.block_number,
        old_block_hash: row.block_hash,
        depth,
        deep,
      });
      if (row.status !== "failed") await ledger.handlerFor(row.purpose)?.unmined?.(trx, row);
      return back;
    });
    if (!changed) return;
    tick.reorgs.push({ chainTxId: row.id, depth, deep });
    const detail = { txHash: row.mined_hash, nonce: row.nonce, blockNumber: Number(row.block_number), depth, confirmations: ledger.confirmations };
    if (deep) logger.error(detail, "reorganisation deeper than the confirmation depth removed a final transaction; re-sending it");
    else if (row.status === "failed") logger.warn(detail, "reorganisation removed a reverted transaction; re-sending it to fill its nonce");
    else logger.warn(detail, "reorganisation removed a mined transaction; re-sending it");
    ledger.handlerFor(row.purpose)?.settled?.(changed);
    await ledger.broadcast(changed);
  }

  /**
   * The row's nonce was consumed by a transaction that is not one of its hashes. A purpose with a handler (mints)
   * redoes its own work (the claims go back to the pump); any other call is sent again as a new row that waiters follow.
   */
  private async supersede(row: LedgerRow): Promise<void> {
    const { ledger, logger } = this.options;
    const handler = ledger.handlerFor(row.purpose);
    logger.warn({ txHash: row.tx_hash, nonce: row.nonce, purpose: row.purpose }, "nonce consumed by another transaction: superseded");
    if (handler?.superseded) {
      const done = await ledger.db.transaction(async (trx) => {
        const [gone] = await trx("app.chain_transactions")
          .where({ id: row.id })
          .whereIn("status", ["signed", "sent"])
          .update({ status: "superseded", updated_at: trx.fn.now() })
          .returning<LedgerRow[]>("*");
        if (gone) await handler.superseded!(trx, gone);
        return gone;
      });
      if (done) handler.settled?.(done);
      return;
    }
    await ledger.send(async (trx) => {
      const [gone] = await trx("app.chain_transactions")
        .where({ id: row.id })
        .whereIn("status", ["signed", "sent"])
        .update({ status: "superseded", updated_at: trx.fn.now() })
        .returning<LedgerRow[]>("*");
      if (!gone) return undefined;
      return {
        call: { purpose: row.purpose, to: row.to_address, data: row.data, gasLimit: BigInt(row.gas_limit) },
        link: async (t, redo) => void (await t("app.chain_transactions").where({ id: row.id }).update({ superseded_by: redo.id })),
      };
    });
  }
}
