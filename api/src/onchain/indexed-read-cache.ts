// A short-lived, bounded, in-process cache of public reads derived from the indexer (rendered DPP records, reputations).
//
// An entry serves only while the indexer stays at the block it was rendered at, so a read that follows the indexer
// catching up always sees the new chain state; and for at most `ttlMs`, since rows of schema app (product text, the
// issuance state) change without a block. Concurrent misses for one key share a single render. Each replica keeps
// its own entries: nothing here is shared state, only a way to answer a burst of reads of the same record once.
import type { Knex } from "../db/knex";
import { latestIndexerState, type IndexerState } from "./indexer-state.repo";

type Entry<V> = { block: number | undefined; expiresAt: number; value: Promise<V> };

export class IndexedReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly options: { ttlMs: number; maxEntries: number }) {}

  /** The value of `key` rendered at indexed `block`, or the one `render` produces (and that failures never stay). */
  read(key: string, block: number | undefined, render: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const held = this.entries.get(key);
    if (held && held.block === block && held.expiresAt > now) return held.value;
    // Re-inserted at the end: the Map's order is then the order of age, and the oldest is evicted first.
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const entry: Entry<V> = { block, expiresAt: now + this.options.ttlMs, value: render() };
    this.entries.set(key, entry);
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value;
  }
}

/**
 * Reads the indexer's state in one query, shared by the requests that arrive while it is in flight: under load one
 * read serves a burst. A request may so see the state of a moment (one query) before it arrived, never older.
 */
export function sharedIndexerState(db: Knex, onchainSchema: string): () => Promise<IndexerState> {
  let inFlight: Promise<IndexerState> | undefined;
  return () =>
    (inFlight ??= latestIndexerState(db, onchainSchema).finally(() => {
      inFlight = undefined;
    }));
}
