// Brute-force throttle for credentials (operator logins, API keys), kept in Postgres so all replicas share it.
// Failures within a window first slow the answer down, then refuse the key until the lock expires.
import type { Knex } from "../db/knex";
import { RateLimitError } from "../errors";

export type ThrottlePolicy = {
  /** Failures counted within this window. */
  windowSeconds: number;
  /** From this many failures on, each further failure is answered after a growing delay. */
  slowAfter: number;
  /** At this many failures the key is locked for `lockSeconds`. */
  lockAfter: number;
  lockSeconds: number;
};

/** One account: a few failures are typos, ten in 15 minutes is guessing. */
export const ACCOUNT_POLICY: ThrottlePolicy = { windowSeconds: 900, slowAfter: 3, lockAfter: 10, lockSeconds: 900 };
/** One client address: many people can share it (NAT), so it locks only at a rate no person types. */
export const CLIENT_POLICY: ThrottlePolicy = { windowSeconds: 900, slowAfter: 20, lockAfter: 100, lockSeconds: 900 };

export type ThrottledKey = { key: string; policy: ThrottlePolicy };
const MAX_DELAY_MS = 2000;

/** Refuses with 429 RATE_LIMIT if any of `keys` is locked. */
export async function assertNotLocked(db: Knex, keys: string[]): Promise<void> {
  const locked = await db("app.auth_failures")
    .whereIn("key", keys)
    .where("locked_until", ">", db.fn.now())
    .max<{ until: Date | null }>("locked_until as until")
    .first();
  if (locked?.until) {
    const seconds = Math.max(1, Math.ceil((new Date(locked.until).getTime() - Date.now()) / 1000));
    throw new RateLimitError(seconds, "Too many failed attempts; try again later.");
  }
}

/** Counts a failure for each key (atomically), locks keys past their limit, and returns the delay to apply. */
export async function recordFailure(db: Knex, keys: ThrottledKey[]): Promise<number> {
  let delayMs = 0;
  for (const { key, policy } of keys) {
    const { rows } = await db.raw<{ rows: Array<{ failures: number }> }>(
      `INSERT INTO app.auth_failures (key, failures, window_started_at) VALUES (?, 1, now())
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN app.auth_failures.window_started_at < now() - make_interval(secs => ?)
                         THEN 1 ELSE app.auth_failures.failures + 1 END,
         window_started_at = CASE WHEN app.auth_failures.window_started_at < now() - make_interval(secs => ?)
                                  THEN now() ELSE app.auth_failures.window_started_at END,
         locked_until = CASE WHEN app.auth_failures.failures + 1 >= ? AND app.auth_failures.window_started_at >= now() - make_interval(secs => ?)
                             THEN now() + make_interval(secs => ?) ELSE app.auth_failures.locked_until END
       RETURNING failures`,
      [key, policy.windowSeconds, policy.windowSeconds, policy.lockAfter, policy.windowSeconds, policy.lockSeconds],
    );
    const failures = rows[0]?.failures ?? 0;
    if (failures > policy.slowAfter) delayMs = Math.max(delayMs, Math.min(MAX_DELAY_MS, 250 * 2 ** (failures - policy.slowAfter - 1)));
  }
  return delayMs;
}

export async function clearFailures(db: Knex, keys: string[]): Promise<void> {
  await db("app.auth_failures").whereIn("key", keys).del();
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
