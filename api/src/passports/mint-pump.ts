// The mint pump: turns pending issuance claims into mint transactions through the ledger, in every process. Inside
// the ledger's transaction it locks the oldest unlinked claims (SKIP LOCKED, one factory id, as many as a batch
// holds: see batchSizeFor), builds one
// mint or mintBatch and links them to the ledger row, so a claim made on any replica rides in exactly one
// transaction. Woken at once by a local claim, and by a slow poll for claims of other (or crashed) processes. Also
// what happens to claims when their transaction is mined, final, reverted, reorganised away or superseded.
import { ZeroAddress, type TransactionReceipt } from "ethers";
import type { AppDeps } from "../deps";
import type { Knex } from "../db/knex";
import { isFinal } from "../chain/finality";
import { LedgerSuperseded, LedgerWaitTimeout, type LedgerHandler, type LedgerRow } from "../chain/ledger";
import { LedgerMonitor } from "../chain/ledger-monitor";
import type { Job, JobHealth } from "../jobs/job";
import { PeriodicJob } from "../jobs/periodic-job";
import { JobRunner } from "../jobs/runner";
import { brandAddress } from "../domains/service";
import { certificatePageUrl, certificatePdfUrl, explorerTxUrl } from "../links";
import { refundQuota } from "../metering/service";
import { certIssuedPayload } from "../webhooks/events";
import { enqueueEvents } from "../webhooks/outbox";
import {
  claimsOfTransaction,
  claimsToRecheck,
  clearRecheck,
  hasUnlinkedClaims,
  failClaim,
  findIssuedProduct,
  linkClaims,
  lockMintClaims,
  markClaimsMinted,
  markClaimsUnminted,
  markEventsSent,
  markMintedRow,
  unlinkClaims,
  type IssuanceRow,
} from "./issuance.repo";

/** Claims looked at again per run (those that may be on chain already). */
const RECHECK_BATCH = 50;
/**
 * Gas limits of the mint calls. A single mint to the custodian uses ~57,000; a batch ~28,000 per passport plus a
 * fixed part for the transaction, the role check and the one balance write (.gas-snapshot: 50 for 1,395,435). The
 * limit per passport is kept close to that (not a generous 40,000) because a node fills a block by the gas limits of
 * the transactions it packs: with 31,000, five batches of 200 (6.28M each, 5.6M used) share a 30M-gas block.
 */
const SINGLE_MINT_GAS = 120_000n;
const BATCH_BASE_GAS = 80_000n;
const BATCH_GAS_PER_PASSPORT = 31_000n;

/**
 * Passports per mintBatch: as many as the contract takes (MAX_BATCH, 200) while the transaction's gas limit stays
 * within half a block, so a batch never waits for an empty block and at least two share one.
 */
export function batchSizeFor(blockGasLimit: bigint, contractMax: bigint): number {
  const fits = (blockGasLimit / 2n - BATCH_BASE_GAS) / BATCH_GAS_PER_PASSPORT;
  return Number(fits < 1n ? 1n : fits < contractMax ? fits : contractMax);
}
/** A claim carried by this many reverted transactions fails for good (its quota unit is refunded). */
const MAX_MINT_ATTEMPTS = 3;
/** How long the sending process follows its own transaction before leaving it to the monitor. */
const FOLLOW_MS = 120_000;

export const MINT_PURPOSES = ["mint", "mint_batch"] as const;

export class MintPump implements Job {
  readonly name = "mint-pump";
  /** Started, it polls every CHAIN_MONITOR_INTERVAL_MS for claims of other (or crashed) processes. */
  private readonly job: PeriodicJob<void>;
  private readonly following = new Set<Promise<unknown>>();
  private readonly waiters = new Set<() => void>();
  /** Counts settlements in this process, so a waiter that read its row before one does not sleep through it. */
  private settlements = 0;
  /** Passports per batch, from the contract's cap and the chain's block gas limit, read once (again after a failure). */
  private batchSize: Promise<number> | undefined;

  constructor(private readonly deps: AppDeps) {
    deps.chain.ledger.register(issuanceHandler(deps, () => this.notify()));
    this.job = new PeriodicJob({ name: this.name, intervalMs: deps.config.chainLedger.monitorIntervalMs, logger: deps.logger, run: () => this.run() });
  }

  /** Sends what is claimed now (coalesced: a wake during a run makes one more run), started or not. */
  wake(): void {
    this.job.wake();
  }

  start(): void {
    this.job.start();
  }

  async stop(): Promise<void> {
    await this.job.stop();
    await Promise.allSettled([...this.following]);
  }

  health(): JobHealth {
    return this.job.health();
  }

  /** The settlement count now: pass it to `settledOrTimeout` after reading a row. */
  get generation(): number {
    return this.settlements;
  }

  /**
   * Resolves when this process settles a transaction (at once if it did since `generation`), or after `ms`: a waiter
   * then re-reads its row.
   */
  settledOrTimeout(ms: number, generation: number): Promise<void> {
    if (this.settlements !== generation) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private notify(): void {
    this.settlements += 1;
    for (const waiter of [...this.waiters]) waiter();
  }

  /** One run; a failure is logged by the job and retried at the next wake or poll. */
  private async run(): Promise<void> {
    await this.recheck();
    while ((await hasUnlinkedClaims(this.deps.db)) && (await this.sendBatch()));
  }

  /**
   * Claims that may be on chain already are adopted from the chain, or released to be minted. One that cannot be
   * looked at now (the node refuses its log query) stays for the next run and does not hold up the other claims.
   */
  private async recheck(): Promise<void> {
    const rows = await claimsToRecheck(this.deps.db, RECHECK_BATCH);
    if (rows.length === 0) return;
    const { passport } = this.deps.chain.contracts();
    const head = await this.deps.provider.getBlockNumber();
    for (const row of rows) {
      try {
        if (await passport.exists(row.token_id)) await settleFromChain(this.deps, row, head);
        else await clearRecheck(this.deps.db, row.product_id);
      } catch (error) {
        this.deps.logger.warn({ err: error, tokenId: row.token_id }, "could not look at a claim on chain; the next run retries");
      }
    }
    this.notify();
  }

  /** Passports per mintBatch on this chain (see batchSizeFor). */
  maxBatch(): Promise<number> {
    this.batchSize ??= (async () => {
      const { passport } = this.deps.chain.contracts();
      const [contractMax, block] = await Promise.all([passport.MAX_BATCH(), this.deps.provider.getBlock("latest")]);
      if (!block) throw new Error("the node returned no latest block");
      return batchSizeFor(block.gasLimit, contractMax);
    })().catch((error: unknown) => {
      this.batchSize = undefined;
      throw error;
    });
    return this.batchSize;
  }

  /** One batch: true when a transaction was sent (there may be more claims), false when none was waiting. */
  private async sendBatch(): Promise<boolean> {
    const { passport } = this.deps.chain.contracts();
    const custodian = this.deps.chain.ledger.address;
    const batch = await this.maxBatch();
    const row = await this.deps.chain.ledger.send(async (trx) => {
      const claims = await lockMintClaims(trx, batch);
      if (claims.length === 0) return undefined;
      const factoryId = claims[0]!.factory_id;
      const to = await passport.getAddress();
      const call =
        claims.length === 1
          ? {
              purpose: "mint",
              to,
              data: passport.interface.encodeFunctionData("mint", [custodian, claims[0]!.token_id, factoryId, claims[0]!.data_hash]),
              gasLimit: SINGLE_MINT_GAS,
            }
          : {
              purpose: "mint_batch",
              to,
              data: passport.interface.encodeFunctionData("mintBatch", [custodian, factoryId, claims.map((c) => c.token_id), claims.map((c) => c.data_hash)]),
              gasLimit: BATCH_BASE_GAS + BATCH_GAS_PER_PASSPORT * BigInt(claims.length),
            };
      return { call, link: (t: Knex, sent: LedgerRow) => linkClaims(t, claims.map((c) => c.product_id), sent) };
    });
    if (!row) return false;
    const follow = this.follow(row).finally(() => this.following.delete(follow));
    this.following.add(follow);
    return true;
  }

  /** The sending process records its own receipt at once (the monitor would, a tick later). */
  private async follow(row: LedgerRow): Promise<void> {
    const { ledger } = this.deps.chain;
    try {
      const receipt = await ledger.wait(row.id, { timeoutMs: FOLLOW_MS, pollMs: 50 });
      // When the receipt's own block is deep enough (one confirmation), there is no need to ask for the head.
      const head = isFinal(receipt.blockNumber, receipt.blockNumber, ledger.confirmations) ? receipt.blockNumber : await this.deps.provider.getBlockNumber();
      await ledger.recordReceipt(row, receipt, Math.max(head, receipt.blockNumber));
    } catch (error) {
      if (error instanceof LedgerWaitTimeout || error instanceof LedgerSuperseded) return;
      this.deps.logger.warn({ err: error, txHash: row.tx_hash }, "following a mint failed; the ledger monitor settles it");
    }
  }
}

const pumps = new WeakMap<object, MintPump>();

/** This process's pump for the deps' chain (one per ChainAccess); it registers the issuance handler with the ledger. */
export function mintPumpOf(deps: AppDeps): MintPump {
  let pump = pumps.get(deps.chain);
  if (!pump) {
    pump = new MintPump(deps);
    pumps.set(deps.chain, pump);
  }
  return pump;
}

/** What a mint transaction's fate does to the claims it carries. */
function issuanceHandler(deps: AppDeps, notify: () => void): LedgerHandler {
  // Set when a revert or a supersession put claims back: the pump then mints them again once that commits.
  let released = false;
  return {
    purposes: MINT_PURPOSES,
    mined: async (trx, row, receipt: TransactionReceipt) => {
      await markClaimsMinted(trx, row.id, { txHash: receipt.hash.toLowerCase(), blockNumber: receipt.blockNumber });
    },
    // Chain-derived events go out only at the confirmation depth, and once: a reorg deeper than it does not resend.
    // A batch's hundreds of events are written in a few statements, not a few per passport.
    final: async (trx, row) => {
      const due = (await claimsOfTransaction(trx, row.id)).filter((claim) => claim.status === "minted" && !claim.events_sent);
      await enqueueCertsIssued(trx, deps, due.map((claim) => ({ product: claim, minted: claim })));
      await markEventsSent(trx, due.map((claim) => claim.product_id));
    },
    // A reverted mint (a duplicate in the batch, a factory the contract refuses): its claims go back to the pump,
    // which looks at the chain first; after a few reverts a claim fails for good and its quota unit is refunded.
    reverted: async (trx, row) => {
      for (const claim of await claimsOfTransaction(trx, row.id)) {
        if (claim.status !== "pending") continue;
        if (claim.mint_attempts + 1 >= MAX_MINT_ATTEMPTS) {
          const period = await failClaim(trx, claim.product_id, `mint transaction ${row.mined_hash ?? row.tx_hash} reverted`);
          if (period) await refundQuota(trx, claim.brand_id, "certs", period);
        } else {
          await unlinkClaims(trx, [claim.product_id], `mint transaction ${row.mined_hash ?? row.tx_hash} reverted`);
          released = true;
        }
      }
    },
    unmined: async (trx, row) => {
      await markClaimsUnminted(trx, row.id);
    },
    superseded: async (trx, row) => {
      const claims = await claimsOfTransaction(trx, row.id);
      await unlinkClaims(
        trx,
        claims.filter((c) => c.status === "pending").map((c) => c.product_id),
        null,
      );
      released = true;
    },
    settled: () => {
      notify();
      if (!released) return;
      released = false;
      mintPumpOf(deps).wake();
    },
  };
}

/** `cert.issued` for minted claims, with the same payload and dedupe key as ever: sent once per UID. */
async function enqueueCertsIssued(trx: Knex, deps: AppDeps, claims: Array<{ product: { uid: string; brand_id: number }; minted: IssuanceRow }>): Promise<void> {
  const { config } = deps;
  const brands = new Map<number, Awaited<ReturnType<typeof brandAddress>>>();
  for (const { product } of claims) if (!brands.has(product.brand_id)) brands.set(product.brand_id, await brandAddress(trx, product.brand_id));
  const at = new Date();
  await enqueueEvents(
    trx,
    claims.map(({ product, minted }) => ({
      brandId: product.brand_id,
      type: "cert.issued" as const,
      dedupeKey: `cert.issued:${product.uid}`,
      payload: certIssuedPayload({
        uid: product.uid,
        txHash: minted.tx_hash!,
        tokenId: minted.token_id,
        networkUrl: explorerTxUrl(config, minted.tx_hash!),
        certificateUrl: certificatePageUrl(config, product.uid, brands.get(product.brand_id) ?? null),
        certificatePdfUrl: certificatePdfUrl(config, product.uid, brands.get(product.brand_id) ?? null),
        at,
      }),
    })),
  );
}

/**
 * Marks a claim minted from what the chain says (its token's Transfer from zero), with its event; only once that
 * log is CONFIRMATIONS deep, as cert.issued of a mint this service sent goes out at the depth. Until then the claim
 * stays pending, to be looked at again on the pump's next run.
 */
async function settleFromChain(deps: AppDeps, row: IssuanceRow, head: number): Promise<void> {
  const { passport, deployment } = deps.chain.contracts();
  const logs = await passport.queryFilter(passport.filters.Transfer(ZeroAddress, undefined, row.token_id), deployment.startBlock);
  const log = logs[0];
  if (!log) throw new Error(`passport ${row.token_id} exists but its mint (Transfer from zero) was not found`);
  if (!isFinal(log.blockNumber, head, deps.config.confirmations)) return;
  const onChainHash = await passport.dataHashOf(row.token_id);
  const product = (await findIssuedProduct(deps.db, row.product_id))!;
  await deps.db.transaction(async (trx) => {
    const minted = await markMintedRow(trx, row.product_id, {
      tx_hash: log.transactionHash,
      block_number: log.blockNumber,
      data_hash: onChainHash,
      recheck_chain: false,
      events_sent: true,
    });
    await enqueueCertsIssued(trx, deps, [{ product, minted }]);
  });
  deps.logger.info({ tokenId: row.token_id }, "claim settled from the chain: minted already");
}

export type LedgerWork = { pump: MintPump; monitor: LedgerMonitor; stop: () => Promise<void> };

/**
 * What every API process runs for the shared wallet: its mint pump (polling for claims of other processes) and a
 * candidate ledger monitor (one process wins each tick), here on a runner of their own for tests that want only
 * these; assemble.ts runs them with the process's other jobs. Nothing is kept in memory that a restart would need.
 */
export function startLedgerWork(deps: AppDeps): LedgerWork {
  const pump = mintPumpOf(deps);
  const monitor = new LedgerMonitor({ ledger: deps.chain.ledger, settings: deps.config.chainLedger, logger: deps.logger });
  const runner = new JobRunner([pump, monitor]);
  runner.start();
  return { pump, monitor, stop: () => runner.stop() };
}
