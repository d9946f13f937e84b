// Transaction lookups for the explorer page, bounded: each hash asks the RPC once however many request it, answers
// (found or not) are kept for a while, and only a few lookups run at once, so random hashes cannot buy RPC calls.
import type { Block, JsonRpcProvider, TransactionReceipt, TransactionResponse } from "ethers";

export const EXPLORER_LOOKUPS = Object.freeze({
  /** Lookups talking to the RPC at once. */
  concurrent: 4,
  /** Lookups waiting for one of those; beyond it a request is answered "busy" at once. */
  waiting: 16,
  /** Hashes remembered, found or not. */
  entries: 2_000,
  /** A mined transaction's page (a reorg can still move it, hence not for ever). */
  minedMs: 60_000,
  /** A hash the chain does not know. */
  missingMs: 30_000,
  /** A pending transaction: it changes with the next block. */
  pendingMs: 2_000,
});

export type FoundTransaction = { tx: TransactionResponse; receipt: TransactionReceipt | null; block: Block | null };
export type LookupResult = { kind: "found"; found: FoundTransaction } | { kind: "missing" } | { kind: "busy" };

type Entry = { result: LookupResult; until: number };

export class TransactionLookup {
  private readonly answers = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<LookupResult>>();
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly provider: JsonRpcProvider) {}

  /** `hash` is 0x and 64 hex digits (checked by the caller); letter case does not matter. */
  get(hash: string): Promise<LookupResult> {
    const key = hash.toLowerCase();
    const known = this.answers.get(key);
    if (known && known.until > Date.now()) return Promise.resolve(known.result);
    if (known) this.answers.delete(key);
    const pending = this.inflight.get(key);
    if (pending) return pending;
    if (this.running >= EXPLORER_LOOKUPS.concurrent && this.queue.length >= EXPLORER_LOOKUPS.waiting) {
      return Promise.resolve({ kind: "busy" });
    }
    const lookup = this.slot(() => this.fetch(key));
    this.inflight.set(key, lookup);
    void lookup.finally(() => this.inflight.delete(key)).catch(() => undefined);
    return lookup;
  }

  private async fetch(hash: string): Promise<LookupResult> {
    // The transaction first: a hash the chain does not know costs one call, not three.
    const tx = await this.provider.getTransaction(hash);
    if (!tx) return this.remember(hash, { kind: "missing" }, EXPLORER_LOOKUPS.missingMs);
    const receipt = await this.provider.getTransactionReceipt(hash);
    const block = receipt ? await this.provider.getBlock(receipt.blockNumber) : null;
    return this.remember(hash, { kind: "found", found: { tx, receipt, block } }, receipt ? EXPLORER_LOOKUPS.minedMs : EXPLORER_LOOKUPS.pendingMs);
  }

  private remember(hash: string, result: LookupResult, forMs: number): LookupResult {
    this.answers.set(hash, { result, until: Date.now() + forMs });
    if (this.answers.size > EXPLORER_LOOKUPS.entries) this.answers.delete(this.answers.keys().next().value!);
    return result;
  }

  /** Runs `work` when one of the concurrent slots is free. */
  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= EXPLORER_LOOKUPS.concurrent) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
