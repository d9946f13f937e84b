// Meters API calls with leases, so a busy brand does not cost a database round trip per request.
//
// A process leases calls from Postgres (app.lease_calls): up to N at once, never more than the monthly and hourly
// limits leave, so every admitted call is inside the limits and N concurrent requests past a limit admit exactly
// the limit. N starts at 1 (one statement per call, as without leases) and doubles, up to MAX_LEASE, while leases are
// taken less than FAST_MS apart. What a process does not use it gives back after IDLE_MS, at an hour or month
// boundary, before answering a usage read, and on shutdown; until then the database counts it as used. A process that
// crashes loses at most one lease per brand (counted, never admitted). Endpoint counts are added up in memory and
// written at the same moments.
import type { Knex } from "../db/knex";
import { PeriodicJob } from "../jobs/periodic-job";
import type { Logger } from "../logger";
import type { EffectiveLimits } from "../plans/catalogue";
import { addEndpointCalls, leaseCalls, releaseCalls } from "./metering.repo";
import { hourOf, periodOf, secondsToNextHour, secondsToNextMonth, type CallMeterReading } from "./service";

const MAX_LEASE = 64;
const FAST_MS = 100;
const SLOW_MS = 1000;
const IDLE_MS = 1000;
const FLUSH_MS = 1000;
const HOURLY_RETENTION_MS = 48 * 3_600_000;

type Outcome = CallMeterReading["outcome"];

type Lease = {
  brandId: number;
  period: string;
  hour: Date;
  /** Calls leased to this process and not used yet. */
  remaining: number;
  /** The brand's monthly and hourly counts in Postgres after the last grant (leased calls included). */
  calls: number;
  requests: number;
  size: number;
  lastGrantAt: number;
  inflight?: Promise<Outcome>;
  idle?: NodeJS.Timeout;
  /** When a call was last admitted from the lease (ms). */
  lastUseAt: number;
};

export class CallMeter {
  private readonly leases = new Map<number, Lease>();
  /** Calls per "brandId\tperiod\tendpoint" not yet written. */
  private readonly endpoints = new Map<string, number>();
  /** Writes the endpoint counts every FLUSH_MS; run by the process's JobRunner (assemble.ts). */
  readonly flushJob: PeriodicJob<void>;
  private clock: { period: string; hour: Date } | undefined;
  /** Writes under way (endpoint flushes, returned calls): a settle waits for them, so a usage read sees them. */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
  ) {
    this.flushJob = new PeriodicJob({ name: "call-meter-flush", intervalMs: FLUSH_MS, logger, run: () => this.flushEndpoints() });
  }

  /**
   * Admits one call from the brand's lease when it has one to give, without a promise (the common case under load);
   * undefined when only admit() can decide (no lease, none left, a grant under way, a new hour or month).
   */
  admitLeased(brandId: number, limits: EffectiveLimits, endpoint: string, now = new Date()): CallMeterReading | undefined {
    const lease = this.leases.get(brandId);
    if (!lease || lease.remaining === 0 || lease.inflight) return undefined;
    const { period, hour } = this.clockAt(now);
    if (lease.period !== period || lease.hour.getTime() !== hour.getTime()) return undefined;
    return this.take(lease, limits, endpoint, now);
  }

  /** Admits one call of the brand, or says which limit refuses it. */
  async admit(brandId: number, limits: EffectiveLimits, endpoint: string, now = new Date()): Promise<CallMeterReading> {
    const { period, hour } = this.clockAt(now);
    for (;;) {
      let lease = this.leases.get(brandId);
      if (lease && !lease.inflight && (lease.period !== period || lease.hour.getTime() !== hour.getTime())) {
        await this.release(lease);
        lease = undefined;
      }
      if (!lease) {
        lease = { brandId, period, hour, remaining: 0, calls: 0, requests: 0, size: 1, lastGrantAt: 0, lastUseAt: 0 };
        this.leases.set(brandId, lease);
      }
      if (lease.remaining > 0) return this.take(lease, limits, endpoint, now);
      const granting = lease.inflight ?? this.grant(lease, limits);
      const outcome = await granting;
      if (outcome !== "admitted") return this.reading(outcome, lease, limits, now);
    }
  }

  private take(lease: Lease, limits: EffectiveLimits, endpoint: string, now: Date): CallMeterReading {
    lease.remaining -= 1;
    const key = `${lease.brandId}\t${lease.period}\t${endpoint}`;
    this.endpoints.set(key, (this.endpoints.get(key) ?? 0) + 1);
    this.armIdle(lease);
    return this.reading("admitted", lease, limits, now);
  }

  /** The period and hour of `now`, worked out once an hour rather than per call (a UTC month is whole hours). */
  private clockAt(now: Date): { period: string; hour: Date } {
    const ms = now.getTime();
    const clock = this.clock;
    if (clock && ms >= clock.hour.getTime() && ms < clock.hour.getTime() + 3_600_000) return clock;
    return (this.clock = { period: periodOf(now), hour: hourOf(now) });
  }

  /** Gives back the brand's unused calls and writes its endpoint counts, so Postgres holds exact figures. */
  async settle(brandId: number): Promise<void> {
    const lease = this.leases.get(brandId);
    if (lease?.inflight) await lease.inflight.catch(() => undefined);
    await Promise.allSettled([...this.writing]);
    if (lease && !lease.inflight) await this.release(lease);
    await this.flushEndpoints(brandId).catch((error: unknown) => this.logger.warn({ err: error }, "writing endpoint counts failed; retrying"));
  }

  async close(): Promise<void> {
    await this.flushJob.stop();
    for (const brandId of [...this.leases.keys()]) await this.settle(brandId).catch(() => undefined);
    await this.flushEndpoints().catch((error: unknown) => this.logger.warn({ err: error }, "writing endpoint counts failed"));
  }

  private grant(lease: Lease, limits: EffectiveLimits): Promise<Outcome> {
    const sinceLast = Date.now() - lease.lastGrantAt;
    if (sinceLast < FAST_MS) lease.size = Math.min(MAX_LEASE, lease.size * 2);
    else if (sinceLast > SLOW_MS) lease.size = 1;
    const run = (async (): Promise<Outcome> => {
      const row = await leaseCalls(this.db, {
        brandId: lease.brandId,
        period: lease.period,
        hour: lease.hour,
        size: lease.size,
        limits,
        pruneBefore: new Date(lease.hour.getTime() - HOURLY_RETENTION_MS),
      });
      lease.lastGrantAt = Date.now();
      lease.calls = row.calls;
      lease.requests = row.requests;
      lease.remaining += row.granted;
      if (row.granted > 0) return "admitted";
      return row.calls >= limits.apiCallsPerMonth ? "monthly_limit" : "hourly_limit";
    })();
    lease.inflight = run;
    void run.finally(() => {
      if (lease.inflight === run) lease.inflight = undefined;
    }).catch(() => undefined);
    return run;
  }

  private release(lease: Lease): Promise<void> {
    clearTimeout(lease.idle);
    lease.idle = undefined;
    if (this.leases.get(lease.brandId) === lease) this.leases.delete(lease.brandId);
    const unused = lease.remaining;
    lease.remaining = 0;
    if (unused === 0) return Promise.resolve();
    return this.track(async () => {
      await releaseCalls(this.db, lease.brandId, lease.period, lease.hour, unused);
    });
  }

  private track(write: () => Promise<void>): Promise<void> {
    const running = write();
    this.writing.add(running);
    void running.finally(() => this.writing.delete(running)).catch(() => undefined);
    return running;
  }

  /** Returns the lease's unused calls once it has gone IDLE_MS without use: one timer per lease, not per call. */
  private armIdle(lease: Lease): void {
    lease.lastUseAt = Date.now();
    if (lease.idle) return;
    const check = (delay: number) => {
      lease.idle = setTimeout(() => {
        lease.idle = undefined;
        if (this.leases.get(lease.brandId) !== lease) return;
        const quiet = Date.now() - lease.lastUseAt;
        if (quiet < IDLE_MS) return check(IDLE_MS - quiet);
        // A grant under way: look again when it has surely finished rather than spin on it.
        if (lease.inflight) return check(FAST_MS);
        void this.release(lease).catch((error: unknown) => this.logger.warn({ err: error }, "returning unused calls failed"));
      }, delay);
      lease.idle.unref();
    };
    check(IDLE_MS);
  }

  private flushEndpoints(brandId?: number): Promise<void> {
    const batch = [...this.endpoints].filter(([key]) => brandId === undefined || key.startsWith(`${brandId}\t`));
    if (batch.length === 0) return Promise.resolve();
    for (const [key] of batch) this.endpoints.delete(key);
    const values = batch.map(([key, calls]) => {
      const [brand, period, endpoint] = key.split("\t");
      return { brand_id: Number(brand), period, endpoint, calls };
    });
    return this.track(() => this.writeEndpoints(batch, values));
  }

  private async writeEndpoints(batch: Array<[string, number]>, values: Array<Record<string, unknown>>): Promise<void> {
    try {
      await addEndpointCalls(this.db, values);
    } catch (error) {
      // Kept for the next flush rather than lost; the caller (the flush job, or settle) reports the failure.
      for (const [key, calls] of batch) this.endpoints.set(key, (this.endpoints.get(key) ?? 0) + calls);
      throw error;
    }
  }

  private reading(outcome: Outcome, lease: Lease, limits: EffectiveLimits, now: Date): CallMeterReading {
    const requestsUsed = Math.max(0, lease.requests - lease.remaining);
    return {
      outcome,
      callsThisMonth: Math.max(0, lease.calls - lease.remaining),
      callsLimit: limits.apiCallsPerMonth,
      hourlyLimit: limits.requestsPerHour,
      hourlyRemaining: Math.max(0, limits.requestsPerHour - requestsUsed),
      secondsToHourReset: secondsToNextHour(now),
      retryAfterSeconds: outcome === "monthly_limit" ? secondsToNextMonth(now) : outcome === "hourly_limit" ? secondsToNextHour(now) : 0,
    };
  }
}
