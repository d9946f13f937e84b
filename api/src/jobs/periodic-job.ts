// A periodic job: runs `run` now (or after `firstRunAfterMs`) and again `intervalMs` after each run ends, never two
// at once, until stopped. A failed run is logged and the next one waits longer (doubling, bounded); `wake` runs it
// again at once (work arrived: a notification, a local claim, a free slot). `stop` waits for a run in progress, whose
// signal is aborted so a long run can end after the item in hand.
import type { Logger } from "../logger";
import { redactUrls } from "../redact";
import { FAILING_AFTER, type Job, type JobHealth } from "./job";

export type RunContext = { signal: AbortSignal };

export type PeriodicJobOptions<T> = {
  name: string;
  run: (context: RunContext) => Promise<T>;
  intervalMs: number;
  logger: Logger;
  /** Delay of the first run after start; 0 (now) by default. */
  firstRunAfterMs?: number;
  /** Longest wait after failures: by default 16 intervals, at most a minute (never less than one interval). */
  maxBackoffMs?: number;
};

export class PeriodicJob<T = unknown> implements Job {
  readonly name: string;
  private running = false;
  private loop: Promise<void> | undefined;
  private current: Promise<T> | undefined;
  private controller = new AbortController();
  private wakeSleeper: (() => void) | undefined;
  private wakeRequested = false;
  private readonly maxBackoffMs: number;
  private figures = { runs: 0, failures: 0, lastSuccessAt: 0, lastFailureAt: 0, lastError: null as string | null };

  constructor(private readonly options: PeriodicJobOptions<T>) {
    this.name = options.name;
    this.maxBackoffMs = Math.max(options.intervalMs, options.maxBackoffMs ?? Math.min(60_000, 16 * options.intervalMs));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.controller.signal.aborted) this.controller = new AbortController();
    this.loop = this.cycle();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.controller.abort();
    const sleeper = this.wakeSleeper;
    this.wakeSleeper = undefined;
    sleeper?.();
    await this.loop;
    await this.current?.catch(() => undefined);
    this.wakeRequested = false;
  }

  /**
   * Runs again as soon as the run in progress (if any) ends. Not started, it runs once by itself (coalesced with a
   * run in progress), so a process that runs no jobs still serves its own work.
   */
  wake(): void {
    if (!this.running && this.loop === undefined) {
      if (this.current) this.wakeRequested = true;
      else void this.runOnce().catch(() => undefined);
      return;
    }
    const sleeper = this.wakeSleeper;
    if (sleeper) {
      this.wakeSleeper = undefined;
      sleeper();
    } else {
      this.wakeRequested = true;
    }
  }

  /**
   * One run now, or the one in progress; its outcome goes into the health figures and its error is logged, then
   * rethrown to the caller. Tests and tools drive jobs with it.
   */
  runOnce(): Promise<T> {
    this.current ??= this.measured().finally(() => {
      this.current = undefined;
      if (!this.running && this.loop === undefined && this.wakeRequested) {
        this.wakeRequested = false;
        void this.runOnce().catch(() => undefined);
      }
    });
    return this.current;
  }

  health(): JobHealth {
    const { runs, failures, lastSuccessAt, lastFailureAt, lastError } = this.figures;
    const at = (ms: number) => (ms === 0 ? null : new Date(ms).toISOString());
    return {
      ok: failures < FAILING_AFTER,
      running: this.running,
      runs,
      consecutive_failures: failures,
      last_success_at: at(lastSuccessAt),
      last_failure_at: at(lastFailureAt),
      last_error: lastError,
    };
  }

  /** The wait after a run: the interval, or after `failures` failures in a row, twice as long per failure, bounded. */
  delayAfter(failures: number): number {
    if (failures === 0) return this.options.intervalMs;
    return Math.min(this.options.intervalMs * 2 ** Math.min(failures, 30), this.maxBackoffMs);
  }

  private async cycle(): Promise<void> {
    try {
      if (this.options.firstRunAfterMs) await this.sleep(this.options.firstRunAfterMs);
      while (this.running) {
        await this.runOnce().catch(() => undefined);
        if (!this.running) break;
        await this.sleep(this.delayAfter(this.figures.failures));
      }
    } finally {
      this.loop = undefined;
    }
  }

  private async measured(): Promise<T> {
    try {
      const result = await this.options.run({ signal: this.controller.signal });
      this.figures.runs += 1;
      this.figures.failures = 0;
      this.figures.lastSuccessAt = Date.now();
      return result;
    } catch (error) {
      this.figures.runs += 1;
      this.figures.failures += 1;
      this.figures.lastFailureAt = Date.now();
      const message = error instanceof Error ? error.message : String(error);
      this.figures.lastError = redactUrls(message.split("\n")[0]!).slice(0, 500);
      const retryInMs = this.running ? this.delayAfter(this.figures.failures) : undefined;
      this.options.logger.error({ err: error, job: this.name, consecutiveFailures: this.figures.failures, retryInMs }, `${this.name} run failed`);
      throw error;
    }
  }

  /** Sleeps until `ms` pass, wake() is called, or the job stops. */
  private sleep(ms: number): Promise<void> {
    if (!this.running || this.wakeRequested) {
      this.wakeRequested = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeSleeper = undefined;
        resolve();
      }, ms);
      this.wakeSleeper = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/**
 * The base of a job class whose work is one periodic run: the subclass writes `run`, and start, stop, wake, health and
 * runOnce are its PeriodicJob's, rather than a wrapper of them written again in each job class.
 */
export abstract class PeriodicJobBase<T = unknown> implements Job {
  readonly name: string;
  private readonly periodic: PeriodicJob<T>;

  constructor(options: Omit<PeriodicJobOptions<T>, "run">) {
    this.name = options.name;
    this.periodic = new PeriodicJob<T>({ ...options, run: (context) => this.run(context) });
  }

  /** One run of the job's work; `context.signal` is aborted when the job stops. */
  protected abstract run(context: RunContext): Promise<T>;

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** See PeriodicJob.wake: run again at once (or once, in a process that does not run the job). */
  wake(): void {
    this.periodic.wake();
  }

  health(): JobHealth {
    return this.periodic.health();
  }

  /** One run now, or the one in progress, for tests and tools (its error is logged, then rethrown). */
  runOnce(): Promise<T> {
    return this.periodic.runOnce();
  }
}
