// The platform's counts for GET /api/stats, taken at most once per STATS_TTL_MS per process: every caller in that
// time, and every caller while a count is running, shares one snapshot, so the count(*) and the chain head read cost
// the same for one caller as for thousands. Once a snapshot has expired, callers get it while its successor is
// taken (counting whole tables takes tens of milliseconds at volume, and every caller waited for it).
import type { AppDeps } from "../deps";
import { indexerState } from "../onchain/indexer-state.repo";
import { fromViews } from "../onchain/views";
import { appCounts, chainCounts } from "./stats.repo";

export const STATS_TTL_MS = 5_000;
/** An expired snapshot older than this is not served while the next is taken: the caller waits for the new one. */
const STALE_SERVED_MS = 60_000;

export type StatsSnapshot = {
  app: Record<string, number>;
  chain: Record<string, number>;
  indexedBlock: number | null;
  headBlock: number | null;
  takenAt: Date;
};

export class StatsSnapshots {
  private latest?: { snapshot: StatsSnapshot; until: number };
  private taking?: Promise<StatsSnapshot>;

  constructor(private readonly deps: Pick<AppDeps, "db" | "provider" | "config">) {}

  current(): Promise<StatsSnapshot> {
    const now = Date.now();
    if (this.latest && this.latest.until > now) return Promise.resolve(this.latest.snapshot);
    if (!this.taking) {
      this.taking = this.take().finally(() => (this.taking = undefined));
    }
    if (this.latest && this.latest.until + STALE_SERVED_MS > now) {
      // A failed count keeps the expired snapshot; the next caller tries again.
      this.taking.catch(() => undefined);
      return Promise.resolve(this.latest.snapshot);
    }
    return this.taking;
  }

  private async take(): Promise<StatsSnapshot> {
    const { db, provider, config } = this.deps;
    const schema = config.onchainSchema;
    const [app, chain, indexer, head] = await Promise.all([
      appCounts(db),
      fromViews(() => chainCounts(db, schema)),
      indexerState(db, schema),
      provider.getBlockNumber().catch(() => null),
    ]);
    // A failure (the indexer not published yet) is not kept: the next caller tries again.
    const snapshot = { app, chain, indexedBlock: indexer?.indexedBlock ?? null, headBlock: head, takenAt: new Date() };
    this.latest = { snapshot, until: Date.now() + STATS_TTL_MS };
    return snapshot;
  }
}
