// SQL of the credential throttle (auth/throttle.ts): failure counts, windows and locks per key in app.auth_failures.
import type { Knex } from "../db/knex";

/** The latest lock still in force among `keys`, or null. */
export async function latestLock(db: Knex, keys: string[]): Promise<Date | null> {
  const locked = await db("app.auth_failures")
    .whereIn("key", keys)
    .where("locked_until", ">", db.fn.now())
    .max<{ until: Date | null }>("locked_until as until")
    .first();
  return locked?.until ?? null;
}

/** Counts one failure under `key` in one statement (a stale window starts again); returns the count. */
export async function countFailure(db: Knex, key: string, policy: { windowSeconds: number; lockAfter: number; lockSeconds: number }): Promise<number> {
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
  return rows[0]?.failures ?? 0;
}

/**
 * Counts one attempt under `key` in one statement, capped at `cap`; returns the count and the seconds a lock has to
 * run. A live lock keeps its window (it is not reset under the lock); a stale window starts again at this attempt.
 * With no lockAfter (a slowdown policy) the comparisons are NULL, so no lock is ever set.
 */
export async function countAttempt(
  db: Knex,
  key: string,
  policy: { windowSeconds: number },
  limits: { lockAfter: number | null; lockSeconds: number | null; cap: number },
): Promise<{ failures: number; retry_after: number | null }> {
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
    { key, windowSeconds: policy.windowSeconds, lockSeconds: limits.lockSeconds ?? 0, lockAfter: limits.lockAfter, cap: limits.cap },
  );
  return rows[0]!;
}

/** Returns one reserved attempt to `key`, unlocking it if that takes it back under `lockAfter`. */
export async function giveBackAttempt(db: Knex, key: string, lockAfter: number): Promise<void> {
  await db("app.auth_failures")
    .where({ key })
    .update({
      failures: db.raw("greatest(failures - 1, 0)"),
      locked_until: db.raw("CASE WHEN failures - 1 < ? THEN NULL ELSE locked_until END", [lockAfter]),
    });
}

export async function deleteFailures(db: Knex, keys: string[]): Promise<void> {
  await db("app.auth_failures").whereIn("key", keys).del();
}
