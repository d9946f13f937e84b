// Brute-force throttle for credentials (operator logins, API keys), kept in Postgres so all replicas share it.
// Failures within a window first slow the answer down, then refuse the key until the lock expires. Logins reserve
// their attempt before the password is checked (reserveAttempt), so parallel guesses cannot outrun the count.
import type { Knex } from "../db/knex";
import { RateLimitError } from "../errors";
import { countAttempt, countFailure, deleteFailures, giveBackAttempt, latestLock } from "./throttle.repo";

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
  const until = await latestLock(db, keys);
  if (until) {
    const seconds = Math.max(1, Math.ceil((new Date(until).getTime() - Date.now()) / 1000));
    throw new RateLimitError(seconds, "Too many failed attempts; try again later.");
  }
}

/** Counts a failure for each key (atomically), locks keys past their limit, and returns the delay to apply. */
export async function recordFailure(db: Knex, keys: ThrottledKey[]): Promise<number> {
  let delayMs = 0;
  for (const { key, policy } of keys) {
    const failures = await countFailure(db, key, policy);
    delayMs = Math.max(delayMs, delayFor(failures, policy.slowAfter));
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
    const row = await countAttempt(db, key, policy, { lockAfter, lockSeconds, cap: (lockAfter ?? policy.slowAfter) + COUNT_HEADROOM });
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
    await giveBackAttempt(db, key, policy.lockAfter);
  }
}

export async function clearFailures(db: Knex, keys: string[]): Promise<void> {
  await deleteFailures(db, keys);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
