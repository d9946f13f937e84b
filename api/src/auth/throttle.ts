// Brute-force throttle for credentials (operator logins, API keys), kept in Postgres so all replicas share it.
// Failures within a window first slow the answer down, then refuse the key until the lock expires. Logins reserve
// their attempt before the password is checked (reserveAttempt), so parallel guesses cannot outrun the count.
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

/** A policy that only slows down, never locks. */
export type SlowdownPolicy = Pick<ThrottlePolicy, "windowSeconds" | "slowAfter">;

/** One account from one client address: a few failures are typos, ten in 15 minutes is guessing. */
export const PAIR_POLICY: ThrottlePolicy = { windowSeconds: 900, slowAfter: 3, lockAfter: 10, lockSeconds: 900 };
/**
 * One account from every address together: only slowed, never locked. Anyone who knows an operator's email can
 * fail logins for it, so an account-wide lock would let them keep the operator out for as long as they liked.
 */
export const ACCOUNT_POLICY: SlowdownPolicy = { windowSeconds: 900, slowAfter: 3 };
/** One client address: many people can share it (NAT), so it locks only at a rate no person types. */
export const CLIENT_POLICY: ThrottlePolicy = { windowSeconds: 900, slowAfter: 20, lockAfter: 100, lockSeconds: 900 };

export type ThrottledKey = { key: string; policy: ThrottlePolicy };
export type AttemptKey = { key: string; policy: ThrottlePolicy | SlowdownPolicy };
const MAX_DELAY_MS = 2000;
/** Counts past a limit mean nothing more; a key's count stops this far beyond it, so it cannot grow without end. */
const COUNT_HEADROOM = 64;

function delayFor(failures: number, slowAfter: number): number {
  return failures > slowAfter ? Math.min(MAX_DELAY_MS, 250 * 2 ** Math.min(16, failures - slowAfter - 1)) : 0;
}

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
    delayMs = Math.max(delayMs, delayFor(rows[0]?.failures ?? 0, policy.slowAfter));
  }
  return delayMs;
}

/**
 * Reserves one attempt under each key, in order, before the credential is checked. The count goes up first, in one
 * statement per key, so parallel attempts cannot all pass a check made before any of them had failed: of N racing
 * attempts at most `lockAfter` are let through. Refuses with 429 RATE_LIMIT, nothing checked, when a key is locked
 * or this attempt would pass its limit; the keys after it are then left alone, since a refused attempt tries no
 * credential and should not spend budgets that protect others. Returns the delay to apply before checking.
 * The attempt stays counted, as a failure, unless settleSuccess is called.
 */
export async function reserveAttempt(db: Knex, keys: AttemptKey[]): Promise<number> {
  let delayMs = 0;
  for (const { key, policy } of keys) {
    const lockAfter = "lockAfter" in policy ? policy.lockAfter : null;
    const lockSeconds = "lockSeconds" in policy ? policy.lockSeconds : null;
    // A live lock keeps its window (it is not reset under the lock); a stale window starts again at this attempt.
    // With no lockAfter (a slowdown policy) the comparisons are NULL, so no lock is ever set.
    const { rows } = await db.raw<{ rows: Array<{ failures: number; retry_after: number | null }> }>(
      `WITH p AS (SELECT now() - make_interval(secs => :windowSeconds) AS stale_before,
                         now() + make_interval(secs => :lockSeconds) AS lock_until)
       INSERT INTO app.auth_failures AS f (key, failures, window_started_at, locked_until)
       SELECT :key, 1, now(), CASE WHEN 1 >= :lockAfter THEN p.lock_until END FROM p
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN (f.locked_until > now()) IS NOT TRUE AND f.window_started_at < (SELECT stale_before FROM p)
                         THEN 1 ELSE LEAST(f.failures + 1, :cap) END,
         window_started_at = CASE WHEN (f.locked_until > now()) IS NOT TRUE AND f.window_started_at < (SELECT stale_before FROM p)
                                  THEN now() ELSE f.window_started_at END,
         locked_until = CASE WHEN f.locked_until > now() THEN f.locked_until
                             WHEN f.window_started_at < (SELECT stale_before FROM p)
                               THEN CASE WHEN 1 >= :lockAfter THEN (SELECT lock_until FROM p) END
                             WHEN f.failures + 1 >= :lockAfter THEN (SELECT lock_until FROM p)
                        END
       RETURNING failures, CAST(ceil(extract(epoch FROM locked_until - now())) AS integer) AS retry_after`,
      { key, windowSeconds: policy.windowSeconds, lockSeconds: lockSeconds ?? 0, lockAfter, cap: (lockAfter ?? policy.slowAfter) + COUNT_HEADROOM },
    );
    const row = rows[0]!;
    if (lockAfter !== null && row.failures > lockAfter) {
      throw new RateLimitError(Math.max(1, row.retry_after ?? 1), "Too many failed attempts; try again later.");
    }
    delayMs = Math.max(delayMs, delayFor(row.failures, policy.slowAfter));
  }
  return delayMs;
}

/**
 * After a credential checked out: `clear` keys start again from nothing; `giveBack` keys (shared ones, like a
 * client address) return the one attempt reserved for it, and unlock if that takes them back under their limit.
 */
export async function settleSuccess(db: Knex, clear: string[], giveBack: ThrottledKey[]): Promise<void> {
  if (clear.length > 0) await clearFailures(db, clear);
  for (const { key, policy } of giveBack) {
    await db("app.auth_failures")
      .where({ key })
      .update({
        failures: db.raw("greatest(failures - 1, 0)"),
        locked_until: db.raw("CASE WHEN failures - 1 < ? THEN NULL ELSE locked_until END", [policy.lockAfter]),
      });
  }
}

export async function clearFailures(db: Knex, keys: string[]): Promise<void> {
  await db("app.auth_failures").whereIn("key", keys).del();
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
