// Counts shoppers' scans off the response path, so an anonymous page view can neither burn a brand's quota nor hold
// the database pool: a bounded queue, a few writers, repeats dropped in process before they reach Postgres.
//
// A view counts once per client and product in a window, and a client counts at most a bounded number of scans an
// hour across products (app.admit_scan decides, so replicas agree). Each counted scan is one scan row, one unit of
// the brand's monthly scans and its webhook events (recordScan); a view that does not count writes nothing else.
// When the queue is full, views are not counted rather than waited for: the page never depends on this.
//
// A view carries its tap verdict (tags/verification.ts). An authentic tap counts even inside the client's window for
// the product: each one is a new physical read of the tag (its counter moved on), and it is the scan that sends
// `scan.verified`; the hourly bound per client and the monthly quota still apply. A plain view that counts is also
// recorded as an `unverified` tap.
import { isIPv4, isIPv6 } from "node:net";
import type { CoreDeps } from "../deps";
import { PeriodicJob } from "../jobs/periodic-job";
import { admitScan, pruneScanAdmissions } from "./scans.repo";
import type { PassportPage } from "../passports/passport-page";
import { recordScan } from "./service";
import { recordUnverifiedTap } from "../tags/verification";
import type { TapVerdict } from "../tags/verdicts";

export const SCAN_COUNTING = Object.freeze({
  /** A client's repeated views of one product inside this window are one scan. */
  windowSeconds: 30 * 60,
  /** Scans one client (address, or IPv6 /64) can add in an hour, across products; views beyond it are not counted. */
  perClientPerHour: 20,
  /** Views waiting to be counted; beyond it they are dropped. */
  queueMax: 200,
  /** Concurrent counting writes: the most pool connections scans ever take. */
  writers: 2,
  /** (client, product) pairs this process remembers having seen, so repeats cost no statement. */
  recentMax: 10_000,
  pruneEveryMs: 5 * 60_000,
});

export type ScanOffer = "queued" | "repeat" | "dropped";

/** The verdict of the view's tap and the client's coarse region, as the route learnt them. */
export type ViewTap = { verdict: TapVerdict; region: string | null };

const PLAIN_VIEW: ViewTap = Object.freeze({ verdict: "unverified", region: null });

type PendingScan = { key: string; client: string; view: PassportPage; tap: ViewTap };

export class ScanRecorder {
  private readonly queue: PendingScan[] = [];
  /** "client\tproductId" → when it was last offered (ms), oldest first. */
  private readonly recent = new Map<string, number>();
  private writing = 0;
  private saturated = false;
  private drained: Array<() => void> = [];
  /** Deletes admissions past their window every few minutes; run by the process's JobRunner (assemble.ts). */
  readonly pruneJob: PeriodicJob<void>;

  constructor(private readonly deps: CoreDeps) {
    const every = SCAN_COUNTING.pruneEveryMs;
    this.pruneJob = new PeriodicJob({ name: "scan-admissions-prune", intervalMs: every, firstRunAfterMs: every, logger: deps.logger, run: () => this.prune() });
  }

  /** Offers one view of the scan page by `client` (clientKeyOf); never waits and never throws. */
  offer(client: string, view: PassportPage, tap: ViewTap = PLAIN_VIEW, now = Date.now()): ScanOffer {
    const key = `${client}\t${view.passport.product.id}`;
    const seen = this.recent.get(key);
    if (tap.verdict !== "authentic" && seen !== undefined && now - seen < SCAN_COUNTING.windowSeconds * 1000) return "repeat";
    if (this.queue.length >= SCAN_COUNTING.queueMax) {
      if (!this.saturated) this.deps.logger.warn({ queued: this.queue.length }, "scan counting saturated: views are shown but not counted");
      this.saturated = true;
      return "dropped";
    }
    this.remember(key, now);
    this.queue.push({ key, client, view, tap });
    this.pump();
    return "queued";
  }

  /** Resolves once every offered view has been counted or refused. */
  drain(): Promise<void> {
    if (this.queue.length === 0 && this.writing === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  async close(): Promise<void> {
    await this.pruneJob.stop();
    await this.drain();
  }

  private pump(): void {
    while (this.writing < SCAN_COUNTING.writers && this.queue.length > 0) {
      const scan = this.queue.shift()!;
      this.writing += 1;
      void this.count(scan).finally(() => {
        this.writing -= 1;
        this.pump();
        if (this.queue.length === 0 && this.writing === 0) {
          this.saturated = false;
          for (const resolve of this.drained.splice(0)) resolve();
        }
      });
    }
  }

  private async count({ key, client, view, tap }: PendingScan): Promise<void> {
    const { logger, db } = this.deps;
    const uid = view.record.uid;
    try {
      // A window of 0 admits an authentic tap whenever the client's hourly bound allows (and restarts the window).
      const window = tap.verdict === "authentic" ? 0 : SCAN_COUNTING.windowSeconds;
      const admitted = await admitScan(db, client, view.passport.product.id, window, SCAN_COUNTING.perClientPerHour);
      if (!admitted) return;
      if (tap.verdict === "unverified") await recordUnverifiedTap(db, { brandId: view.brandRow.id, productId: view.passport.product.id, region: tap.region });
      const outcome = await recordScan(this.deps, view, tap.verdict);
      if (!outcome.recorded) logger.warn({ brandId: view.brandRow.id, uid }, "scan not recorded: monthly scan quota exhausted");
    } catch (error) {
      // A lost count is logged, not retried; the next view of the pair may count.
      this.recent.delete(key);
      logger.error({ err: error, uid }, "scan could not be recorded");
    }
  }

  private remember(key: string, now: number): void {
    this.recent.delete(key);
    this.recent.set(key, now);
    if (this.recent.size > SCAN_COUNTING.recentMax) this.recent.delete(this.recent.keys().next().value!);
  }

  private async prune(): Promise<void> {
    await pruneScanAdmissions(this.deps.db, SCAN_COUNTING.windowSeconds);
  }
}

/**
 * Who is scanning, as counted: the client address, with IPv4-mapped IPv6 as IPv4 and IPv6 cut to its /64 (one
 * subscriber's network hands out a whole /64, so a finer key would not bound anyone).
 */
export function clientKeyOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip.slice(0, 64);
  const [head = "", tail] = ip.toLowerCase().split("%")[0]!.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const front = groups(head);
  const back = groups(tail);
  // An embedded IPv4 address (64:ff9b::192.0.2.1) is two groups wide.
  const width = (part: string[]) => part.reduce((n, group) => n + (group.includes(".") ? 2 : 1), 0);
  const full = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - width(front) - width(back))).fill("0"), ...back];
  return `${full.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
