// The webhook dispatcher: claims due deliveries from the outbox, signs and POSTs them, records the outcome, retries.
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import type { Job, JobHealth } from "../jobs/job";
import { PeriodicJob } from "../jobs/periodic-job";
import type { Logger } from "../logger";
import {
  abandonDelivery,
  claimDueDeliveries,
  disableEndpoint,
  recordDelivered,
  recordFailed,
  releaseClaim,
  type ClaimedDelivery,
  type Delivered,
} from "./deliveries.repo";
import { OUTBOX_CHANNEL } from "./outbox";
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, retryDelayMs } from "./schedule";
import { decryptSecret, signatureHeaders } from "./secrets";
import { WebhookSender, type SendOutcome } from "./sender";
import type { HostResolver } from "./ssrf";
import { WebhookRetention } from "./retention";
import { ConfirmationWatcher } from "./watcher";

export type DispatcherOptions = {
  config: Config;
  db: Knex;
  logger: Logger;
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** Of those, at most this many to one endpoint, and to all of one brand's endpoints together. */
  endpointConcurrency?: number;
  brandConcurrency?: number;
  /** Fallback poll when no notification arrives (retries come due without one). */
  pollIntervalMs?: number;
  /** Per-attempt bound, DNS included. */
  timeoutMs?: number;
  /** Tests inject a resolver that answers with hostile addresses. */
  resolver?: HostResolver;
  /**
   * Run the confirmation watcher (product.certified, tag.assigned) with this dispatcher; default true. The service
   * (assemble.ts) runs it as a job of its own instead, so /readyz shows it apart.
   */
  watch?: boolean;
  watchIntervalMs?: number;
  /** Prune delivery history older than WEBHOOK_RETENTION_DAYS with this dispatcher; default true (assemble.ts: its own job). */
  prune?: boolean;
};

type Flight = { abort?: (reason: Error) => void; done: Promise<void>; endpointId: number; startedAt: number };

/**
 * The dispatch job: each run claims what the free slots can take (fairly: per endpoint and per brand) and starts it;
 * a run follows every notification and finished attempt, else the poll interval.
 */
export class Dispatcher implements Job {
  readonly name = "webhook-dispatch";
  private readonly job: PeriodicJob<void>;
  private readonly sender: WebhookSender;
  private readonly concurrency: number;
  private readonly endpointSlots: number;
  private readonly brandSlots: number;
  // Attempts in flight per endpoint and per brand: a slow receiver holds its own slots only, never all of them.
  private readonly busyEndpoints = new Map<number, number>();
  private readonly busyBrands = new Map<number, number>();
  /** Recent attempt duration per endpoint (moving average): receivers proven fast may use slots nobody else needs. */
  private readonly endpointPace = new Map<number, number>();
  private readonly fastMs: number;
  private readonly pollIntervalMs: number;
  private readonly timeoutMs: number;
  /** A claim outlives the slowest attempt by a wide margin, so a live dispatcher never loses one mid-send. */
  private readonly leaseMs: number;
  /** Recent attempt duration (moving average): how deep it is safe to claim ahead. */
  private attemptMs = 100;
  private readonly inFlight = new Map<string, Flight>();
  // Claimed deliveries waiting for a free slot: claiming ahead keeps slots busy while the next claim runs, and big
  // claims cost fewer round trips per delivery. How many wait depends on how fast attempts finish (see aheadLimit).
  private readonly queue: Array<{ delivery: ClaimedDelivery; token: string; claimedAt: number }> = [];
  // Outcome writes that outlive their slot (successes are recorded in groups after the slot is free).
  private readonly background = new Set<Promise<void>>();
  private readonly watcher: ConfirmationWatcher | undefined;
  private readonly retention: WebhookRetention | undefined;
  private running = false;
  // When the last claim got less than it asked for (caps, or nothing more due), claiming again at every finished
  // attempt would mostly come back empty: the next claim waits until attempts have freed half a brand's claims,
  // for new deliveries (a notification), or for the poll interval.
  private lastClaim = { at: 0, full: true };
  private finishedSinceClaim = 0;
  private notified = false;
  private listener: pg.Client | undefined;
  private listenerRetryAt = 0;
  /** Deliveries this process finished (any outcome), for benchmarks and logs. */
  completed = 0;
  // Successes wait here while the previous batch is being written: one statement records many (group commit).
  private successes: Array<Delivered & { done: () => void }> = [];
  private writing: Promise<void> | undefined;
  private readonly secrets = new Map<string, string>();

  constructor(private readonly options: DispatcherOptions) {
    const { config } = options;
    this.concurrency = options.concurrency ?? config.webhooks.concurrency;
    this.brandSlots = Math.min(this.concurrency, options.brandConcurrency ?? config.webhooks.brandConcurrency);
    this.endpointSlots = Math.min(this.brandSlots, options.endpointConcurrency ?? config.webhooks.endpointConcurrency);
    this.pollIntervalMs = options.pollIntervalMs ?? config.webhooks.pollIntervalMs;
    this.timeoutMs = options.timeoutMs ?? config.webhooks.timeoutMs;
    this.leaseMs = 3 * this.timeoutMs + 5000;
    this.fastMs = Math.min(250, this.timeoutMs / 10);
    this.sender = new WebhookSender({
      policy: { httpsOnly: config.mode === "production", allowLoopback: config.allowLoopbackWebhooks },
      timeoutMs: this.timeoutMs,
      resolver: options.resolver,
    });
    if (options.watch ?? true) {
      this.watcher = new ConfirmationWatcher({
        db: options.db,
        config,
        logger: options.logger,
        intervalMs: options.watchIntervalMs ?? Math.max(1000, this.pollIntervalMs),
      });
    }
    if (options.prune ?? true) this.retention = new WebhookRetention(options.db, config.webhooks.retentionDays, options.logger);
    this.job = new PeriodicJob({ name: this.name, intervalMs: this.pollIntervalMs, logger: options.logger, run: () => this.round() });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.job.start();
    this.watcher?.start();
    this.retention?.start();
  }

  health(): JobHealth {
    return this.job.health();
  }

  /**
   * Stops claiming, lets in-flight attempts finish within `graceMs`, then aborts the rest and gives their claims
   * back so another dispatcher retries them at once.
   */
  async stop(graceMs = this.timeoutMs + 2000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.watcher?.stop();
    await this.retention?.stop();
    await this.job.stop();
    for (const queued of this.queue.splice(0)) this.track(releaseClaim(this.options.db, queued.delivery.id, queued.token));
    const all = Promise.all([...this.inFlight.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    for (const flight of this.inFlight.values()) flight.abort?.(new Error("dispatcher stopping"));
    await all;
    await Promise.all([...this.background]);
    this.sender.close();
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  /** One round: claims for the free slots (when worth a round trip) and starts what the slots can take. */
  private async round(): Promise<void> {
    if (!this.running) return;
    await this.ensureListener();
    const ahead = this.aheadLimit();
    const room = this.concurrency + ahead - this.inFlight.size - this.queue.length;
    const idle = this.inFlight.size === 0 && this.queue.length === 0;
    // An endpoint (a brand) may hold claims for its own slots and as many queued per slot as everyone else, so
    // its share of what this dispatcher holds never exceeds its share of the slots.
    const perSlot = 1 + ahead / this.concurrency;
    const worthClaiming =
      this.lastClaim.full ||
      this.notified ||
      this.finishedSinceClaim >= Math.max(1, (this.brandSlots * perSlot) / 2) ||
      Date.now() - this.lastClaim.at >= this.pollIntervalMs;
    // Under load, claim in groups rather than one slot at a time: a claim is a database round trip.
    if (!((room >= Math.max(1, ahead / 2) || (room > 0 && idle)) && worthClaiming)) return;
    const token = randomUUID();
    const claimedAt = Date.now();
    this.notified = false;
    this.finishedSinceClaim = 0;
    this.lastClaim = { at: claimedAt, full: false };
    const endpoints = new Map(this.busyEndpoints);
    const brands = new Map(this.busyBrands);
    for (const { delivery } of this.queue) {
      endpoints.set(delivery.endpointId, (endpoints.get(delivery.endpointId) ?? 0) + 1);
      brands.set(delivery.brandId, (brands.get(delivery.brandId) ?? 0) + 1);
    }
    try {
      const claimed = await claimDueDeliveries(this.options.db, {
        limit: room,
        leaseMs: this.leaseMs,
        claimToken: token,
        perEndpoint: this.endpointSlots * perSlot,
        perBrand: this.brandSlots * perSlot,
        held: { endpoints: [...endpoints], brands: [...brands] },
        fastEndpoints: this.fastEndpoints(),
      });
      for (const delivery of claimed) this.queue.push({ delivery, token, claimedAt });
      this.lastClaim = { at: claimedAt, full: claimed.length >= room };
    } finally {
      // A failed claim (logged by the job, which backs off) still lets what is queued go out.
      this.pump();
    }
  }

  /**
   * How many claimed deliveries may wait for a slot: as many as the slots get through in half the time a queued
   * claim may wait (the lease minus one attempt and a margin), at least one per slot, at most eight. Fast receivers
   * get big claims; slow ones small, so nothing waits long enough to need giving back.
   */
  private aheadLimit(): number {
    const budgetMs = (this.leaseMs - this.timeoutMs - 2000) / 2;
    const perSlot = Math.floor(budgetMs / Math.max(1, this.attemptMs));
    return this.concurrency * Math.min(8, Math.max(1, perSlot));
  }

  /**
   * Starts queued deliveries, in claim order (brands in turns), while slots are free; a delivery whose endpoint or
   * brand has all its slots busy waits, and the ones behind it go first.
   */
  private pump(): void {
    const stale = Date.now() - (this.leaseMs - this.timeoutMs - 2000);
    let kept = 0;
    for (const queued of this.queue) {
      const { delivery, token, claimedAt } = queued;
      // Too little of the lease left for a whole attempt (the process stalled, or its endpoint's slots stayed busy):
      // give it back rather than risk a second dispatcher taking it over while this one is still sending.
      if (claimedAt < stale) {
        this.track(releaseClaim(this.options.db, delivery.id, token));
      } else if (this.running && this.inFlight.size < this.concurrency && this.hasSlot(delivery)) {
        this.launch(delivery, token, claimedAt);
      } else {
        this.queue[kept++] = queued;
      }
    }
    this.queue.length = kept;
    this.lend();
  }

  /**
   * Slots that no delivery within its caps can use go to endpoints whose receivers answer fast, in claim order, so a
   * single busy brand is not held to its share when nobody else is waiting. Never the last `endpointSlots` slots:
   * should a fast receiver start to hang, the others keep those until its attempts time out.
   */
  private lend(): void {
    const limit = this.concurrency - this.endpointSlots;
    if (!this.running || this.inFlight.size >= limit || this.queue.length === 0) return;
    // An attempt running longer than a fast one takes means the receiver may have turned slow.
    const slowNow = new Set<number>();
    const since = Date.now() - this.fastMs;
    for (const flight of this.inFlight.values()) if (flight.startedAt < since) slowNow.add(flight.endpointId);
    let kept = 0;
    for (const queued of this.queue) {
      const { delivery, token, claimedAt } = queued;
      const pace = this.endpointPace.get(delivery.endpointId);
      if (this.inFlight.size < limit && pace !== undefined && pace <= this.fastMs && !slowNow.has(delivery.endpointId)) {
        this.launch(delivery, token, claimedAt);
      } else {
        this.queue[kept++] = queued;
      }
    }
    this.queue.length = kept;
  }

  /** Endpoints whose recent attempts were fast (at most 100, enough for the slots): they may claim further ahead. */
  private fastEndpoints(): number[] {
    const fast: number[] = [];
    for (const [endpointId, pace] of this.endpointPace) {
      if (pace <= this.fastMs) fast.push(endpointId);
      if (fast.length >= 100) break;
    }
    return fast;
  }

  private hasSlot(delivery: ClaimedDelivery): boolean {
    return (
      (this.busyEndpoints.get(delivery.endpointId) ?? 0) < this.endpointSlots &&
      (this.busyBrands.get(delivery.brandId) ?? 0) < this.brandSlots
    );
  }

  private occupy(delivery: ClaimedDelivery, change: 1 | -1): void {
    for (const [counts, key] of [[this.busyEndpoints, delivery.endpointId], [this.busyBrands, delivery.brandId]] as const) {
      const next = (counts.get(key) ?? 0) + change;
      if (next > 0) counts.set(key, next);
      else counts.delete(key);
    }
  }

  private launch(delivery: ClaimedDelivery, token: string, claimedAt: number): void {
    const flight: Flight = { done: Promise.resolve(), endpointId: delivery.endpointId, startedAt: Date.now() };
    this.occupy(delivery, 1);
    flight.done = this.deliver(delivery, token, claimedAt, flight)
      .catch((error: unknown) => this.options.logger.error({ err: error, delivery: delivery.id }, "webhook delivery crashed"))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.occupy(delivery, -1);
        this.completed += 1;
        this.finishedSinceClaim += 1;
        this.pump();
        this.wake();
      });
    this.inFlight.set(delivery.id, flight);
  }

  private track(write: Promise<unknown>): void {
    const tracked = write.then(
      () => undefined,
      (error: unknown) => this.options.logger.error({ err: error }, "webhook outcome write failed"),
    );
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  private async deliver(delivery: ClaimedDelivery, token: string, claimedAt: number, flight: { abort?: (reason: Error) => void }): Promise<void> {
    const { db, logger } = this.options;
    if (!delivery.endpointActive) {
      await abandonDelivery(db, delivery.id, token, "not sent: endpoint disabled");
      return;
    }
    let outcome: SendOutcome;
    let stopped = false;
    const started = Date.now();
    try {
      outcome = await this.sender.post(delivery.url, delivery.body, this.headersFor(delivery), (abort) => {
        flight.abort = (reason) => {
          stopped = true;
          abort(reason);
        };
      });
    } catch (error) {
      outcome = { kind: "failed", status: null, error: `not sent: ${error instanceof Error ? error.message : String(error)}` };
    }
    const tookMs = Date.now() - started;
    this.attemptMs += 0.1 * (tookMs - this.attemptMs);
    const pace = this.endpointPace.get(delivery.endpointId);
    if (pace === undefined && this.endpointPace.size >= 10_000) this.endpointPace.clear();
    this.endpointPace.set(delivery.endpointId, pace === undefined ? tookMs : pace + 0.2 * (tookMs - pace));
    if (stopped) {
      // Shutdown cut the attempt short: whether the receiver got it is unknown, and a retry is what webhook-id is for.
      await releaseClaim(db, delivery.id, token);
      return;
    }
    if (Date.now() - claimedAt > this.leaseMs) {
      outcome = { kind: "failed", status: null, error: "attempt outlived its claim" };
    }

    if (outcome.kind === "delivered") {
      // The slot frees now; the success is written with others. Should this process die first, the claim lapses
      // and the delivery is sent again under the same webhook-id.
      this.track(this.recordSuccess({ id: delivery.id, claimToken: token, status: outcome.status }));
      return;
    }
    const gone = outcome.kind === "gone";
    const error = outcome.kind === "gone" ? "HTTP 410: the receiver is gone" : outcome.error;
    const retryInMs = gone ? null : retryDelayMs(delivery.attempts);
    const run = await recordFailed(db, delivery.id, token, { status: outcome.status, error, retryInMs });
    logger.info({ delivery: delivery.id, endpoint: delivery.endpointId, attempt: delivery.attempts, status: outcome.status, error, retryInMs }, "webhook attempt failed");
    if (!run) return;
    if (gone) {
      await disableEndpoint(db, delivery.endpointId, "the receiver answered 410 Gone");
    } else if (retryInMs === null && Date.now() - run.failingSinceMs >= DISABLE_AFTER_FAILING_MS) {
      const days = ((Date.now() - run.failingSinceMs) / 86_400_000).toFixed(1);
      await disableEndpoint(
        db,
        delivery.endpointId,
        `no delivery accepted for ${days} days; delivery ${delivery.id} failed all ${MAX_ATTEMPTS} attempts, last: ${error}`,
      );
    }
  }

  private recordSuccess(delivered: Delivered): Promise<void> {
    return new Promise((resolve) => {
      this.successes.push({ ...delivered, done: resolve });
      this.writing ??= this.writeSuccesses();
    });
  }

  private async writeSuccesses(): Promise<void> {
    while (this.successes.length > 0) {
      const batch = this.successes.splice(0, 500);
      try {
        const recorded = await recordDelivered(this.options.db, batch.map(({ id, claimToken, status }) => ({ id, claimToken, status })));
        for (const item of batch) if (!recorded.has(item.id)) this.options.logger.warn({ delivery: item.id }, "webhook claim lost before recording success");
      } catch (error) {
        // The claims lapse and the deliveries are sent again: at least once, never silently dropped.
        this.options.logger.error({ err: error, deliveries: batch.length }, "recording webhook successes failed");
      }
      for (const item of batch) item.done();
    }
    this.writing = undefined;
  }

  /** Decrypting costs more than signing; an endpoint's deliveries come in runs, so its secret is kept at hand. */
  private secret(ciphertext: string): string {
    let secret = this.secrets.get(ciphertext);
    if (secret === undefined) {
      try {
        secret = decryptSecret(this.options.config.secretsKey, ciphertext);
      } catch {
        throw new Error("the signing secret cannot be decrypted (was SECRETS_KEY changed?)");
      }
      if (this.secrets.size >= 1000) this.secrets.clear();
      this.secrets.set(ciphertext, secret);
    }
    return secret;
  }

  private headersFor(delivery: ClaimedDelivery): Record<string, string> {
    const secrets = [this.secret(delivery.secretCiphertext)];
    if (delivery.previousSecretCiphertext) secrets.push(this.secret(delivery.previousSecretCiphertext));
    return {
      ...signatureHeaders(secrets, delivery.id, Math.floor(Date.now() / 1000), delivery.body),
      "x-service-event": delivery.eventType,
      "x-service-event-id": delivery.eventId,
    };
  }

  /** A new round as soon as the one in progress ends (woken by a notification or a finished attempt). */
  private wake(): void {
    if (this.running) this.job.wake();
  }

  /** LISTEN for new outbox rows so deliveries start at once instead of at the next poll; polling covers gaps. */
  private async ensureListener(): Promise<void> {
    if (this.listener || Date.now() < this.listenerRetryAt) return;
    const client = new pg.Client({ connectionString: this.options.config.databaseUrl, application_name: "passport-registry-dispatcher" });
    client.on("error", () => {
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
    });
    client.on("notification", () => {
      this.notified = true;
      this.wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
    } catch (error) {
      this.listenerRetryAt = Date.now() + 5000;
      this.options.logger.warn({ err: error }, "webhook dispatcher cannot LISTEN; polling only");
      await client.end().catch(() => undefined);
    }
  }
}
