// Fault injection for the crash matrix (issue 15): the process kills itself with SIGKILL when it reaches the named
// step of issuance. Off unless CRASH_AT names a step; CRASH_AFTER (default 1) picks the how-many-th time the step
// is reached, so a test can let earlier issuances through. Read from the environment directly, once: it is a test
// hook, not configuration, and config.ts refuses it in production.

export const CRASH_POINTS = ["quota-taken", "signed", "sent", "mined", "recorded"] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];
/** Steps only a bulk issuance reaches (test/e2e/bulk-crash.test.ts): a chunk of its claims committed. */
export const BULK_CRASH_POINTS = ["bulk-claimed"] as const;
export type BulkCrashPoint = (typeof BULK_CRASH_POINTS)[number];

const target = process.env.CRASH_AT as CrashPoint | BulkCrashPoint | undefined;
let remaining = Number(process.env.CRASH_AFTER ?? 1);

/** Kills this process at once (no clean-up, like a power cut) when CRASH_AT names `point`. */
export function crashPoint(point: CrashPoint | BulkCrashPoint): void {
  if (target !== point) return;
  remaining -= 1;
  if (remaining > 0) return;
  process.kill(process.pid, "SIGKILL");
}
