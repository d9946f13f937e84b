// What every background job of the service is: a name, one start/stop lifecycle, and a health figure that /readyz
// shows. Periodic jobs (jobs/periodic-job.ts) and claim-and-work jobs (jobs/claim-and-work.ts) are the two kinds.

/** What /readyz reports for one job. */
export type JobHealth = {
  /** False once the job has failed FAILING_AFTER times in a row; a success sets it back. */
  ok: boolean;
  /** Whether it is started in this process (a stopped job reports its last figures). */
  running: boolean;
  /** Runs finished since start, successful or not. */
  runs: number;
  consecutive_failures: number;
  last_success_at: string | null;
  last_failure_at: string | null;
  /** The last failure's message, first line only; cleared by nothing, so an operator sees what happened last. */
  last_error: string | null;
};

export interface Job {
  readonly name: string;
  start(): void;
  /** Stops scheduling and waits for a run in progress (which is told to finish early through its signal). */
  stop(): Promise<void>;
  health(): JobHealth;
}

/** Consecutive failures after which a job reports `ok: false`. */
export const FAILING_AFTER = 3;
