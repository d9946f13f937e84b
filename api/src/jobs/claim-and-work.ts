// Claim-and-work: a job's run claims a batch of due rows (FOR UPDATE SKIP LOCKED with a lease, so replicas share the
// work and a crashed one's claims lapse) and works on them with a bounded pool of workers. The claim and the work are
// the caller's; this is the loop that used to be copied into each such job.
import type { Logger } from "../logger";
import { PeriodicJob, type RunContext } from "./periodic-job";

export type ClaimAndWork<T> = {
  /** Claims at most `limit` due items; an empty answer means nothing is due. */
  claim: (limit: number) => Promise<T[]>;
  work: (item: T) => Promise<unknown>;
  /** An item's failure: logged by the caller's rule, the others go on (its claim lapses and it is retried). */
  failed: (item: T, error: unknown) => void;
  batch: number;
  /** Items worked on at the same time. */
  concurrency: number;
  /** Claim again at once while a batch comes back full; else one batch a run. */
  untilShort?: boolean;
};

/**
 * Claims and works until a batch comes back short (or after one batch), or until `signal` is aborted (the batch in
 * hand is finished first); resolves with how many items were worked on.
 */
export async function claimAndWork<T>(spec: ClaimAndWork<T>, signal?: AbortSignal): Promise<number> {
  let worked = 0;
  for (;;) {
    if (signal?.aborted) return worked;
    const due = await spec.claim(spec.batch);
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const item = due[next++]!;
        await spec.work(item).catch((error: unknown) => spec.failed(item, error));
      }
    };
    await Promise.all(Array.from({ length: Math.min(spec.concurrency, due.length) }, worker));
    worked += due.length;
    if (!spec.untilShort || due.length < spec.batch) return worked;
  }
}

/** A periodic job whose run is one claimAndWork pass (or several specs, one after the other). */
export function claimAndWorkJob(options: {
  name: string;
  intervalMs: number;
  logger: Logger;
  firstRunAfterMs?: number;
  specs: Array<ClaimAndWork<any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}): PeriodicJob<number> {
  return new PeriodicJob<number>({
    name: options.name,
    intervalMs: options.intervalMs,
    logger: options.logger,
    firstRunAfterMs: options.firstRunAfterMs,
    run: async ({ signal }: RunContext) => {
      let worked = 0;
      for (const spec of options.specs) worked += await claimAndWork(spec, signal);
      return worked;
    },
  });
}
