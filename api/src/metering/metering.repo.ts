// SQL for usage meters. Limits are enforced by one conditional upsert per counter, so Postgres, not the process,
// decides who gets the last unit: concurrent requests past a limit are admitted exactly up to the limit.
import { compiledOnce, type Knex } from "../db/knex";
import type { EffectiveLimits } from "../plans/catalogue";

export type MonthlyMeter = "api_calls" | "certs" | "scans" | "carbon_ratings";

type CountRow = { n: number };

/**
 * Adds one to a brand's monthly meter when it is below `limit` (null: no limit) and returns the new count, or
 * undefined when the limit is reached. The row stays locked until the caller's transaction ends.
 */
export async function incrementMonthly(
  db: Knex,
  brandId: number,
  period: string,
  meter: MonthlyMeter,
  limit: number | null,
): Promise<number | undefined> {
  if (limit !== null && limit <= 0) return undefined;
  const { rows } = await db.raw<{ rows: CountRow[] }>(
    `INSERT INTO app.usage_monthly AS u (brand_id, period, meter, count) VALUES (?, ?, ?, 1)
     ON CONFLICT (brand_id, period, meter) DO UPDATE SET count = u.count + 1
     WHERE ?::int IS NULL OR u.count < ?::int
     RETURNING count AS n`,
    [brandId, period, meter, limit, limit],
  );
  return rows[0]?.n;
}

/** Gives one unit back (work that was counted and then failed); never goes below zero. */
export async function decrementMonthly(db: Knex, brandId: number, period: string, meter: MonthlyMeter): Promise<void> {
  await db("app.usage_monthly").where({ brand_id: brandId, period, meter }).where("count", ">", 0).decrement("count", 1);
}

export type CallOutcome = { outcome: "admitted" | "hourly_limit" | "monthly_limit"; calls: number; requests: number };

/**
 * Meters one API call through app.meter_call (migration 004): monthly then hourly counter, the endpoint's count,
 * all in one statement. Returns the outcome with the monthly call count and this hour's request count after it.
 *
 * Every request of a brand updates the same counter rows, and a row stays locked until its transaction commits: with
 * a synchronous commit each request would hold the lock through a WAL flush, serialising a brand's traffic on the
 * disk. This statement's own implicit transaction commits asynchronously instead (set_config(..., true)): a crash can
 * lose the last fraction of a second of call counts, never corrupt them. Must not run inside a caller's transaction.
 */
export async function meterCallRow(
  db: Knex,
  call: { brandId: number; period: string; hour: Date; endpoint: string; monthlyLimit: number; hourlyLimit: number; pruneBefore: Date },
): Promise<CallOutcome> {
  const { rows } = await db.raw<{ rows: CallOutcome[] }>(
    `SELECT m.outcome, m.calls, m.requests, set_config('synchronous_commit', 'off', true) AS async_commit
     FROM app.meter_call(?, ?, ?, ?, ?, ?, ?) AS m`,
    [call.brandId, call.period, call.hour, call.endpoint, call.monthlyLimit, call.hourlyLimit, call.pruneBefore],
  );
  return rows[0]!;
}

/**
 * The brand's counters of a month and its calls per endpoint, busiest first, in one statement: the usage read asks
 * for both, and a second round trip cost more than either read.
 */
export async function readUsage(db: Knex, brandId: number, period: string): Promise<{ counts: Record<MonthlyMeter, number>; endpoints: Array<{ endpoint: string; calls: number }> }> {
  const [row] = await usageOf(db, { brandId, period });
  return { counts: { api_calls: 0, certs: 0, scans: 0, carbon_ratings: 0, ...row!.counts }, endpoints: row!.endpoints };
}

/** Built once (compiledOnce): every usage read runs it. */
const usageOf = compiledOnce<{ counts: Partial<Record<MonthlyMeter, number>>; endpoints: Array<{ endpoint: string; calls: number }> }, "brandId" | "period">((db, param) =>
  db.select(
    db.raw("(SELECT coalesce(json_object_agg(m.meter, m.count), '{}') FROM app.usage_monthly m WHERE m.brand_id = ? AND m.period = ?) AS counts", [param("brandId"), param("period")]),
    db.raw(
      `(SELECT coalesce(json_agg(json_build_object('endpoint', e.endpoint, 'calls', e.calls) ORDER BY e.calls DESC, e.endpoint), '[]')
        FROM app.usage_endpoints e WHERE e.brand_id = ? AND e.period = ?) AS endpoints`,
      [param("brandId"), param("period")],
    ),
  ),
);

/** Gives a lease's unused calls back (app.release_calls, migration 008), committed asynchronously as leases are. */
export async function releaseCalls(db: Knex, brandId: number, period: string, hour: Date, unused: number): Promise<void> {
  await db.raw("SELECT app.release_calls(?, ?, ?, ?), set_config('synchronous_commit', 'off', true)", [brandId, period, hour, unused]);
}

/** Adds calls to the per-endpoint counts of the month, one row per brand, month and endpoint. */
export async function addEndpointCalls(db: Knex, rows: Array<Record<string, unknown>>): Promise<void> {
  await db("app.usage_endpoints")
    .insert(rows)
    .onConflict(["brand_id", "period", "endpoint"])
    .merge({ calls: db.raw("app.usage_endpoints.calls + excluded.calls") });
}

/**
 * Grants up to `size` calls to a lease (app.lease_calls, migration 008) within the brand's monthly and hourly
 * limits; hourly rows before `pruneBefore` go. Its own implicit transaction, committed asynchronously, as
 * meterCallRow's.
 */
export async function leaseCalls(
  db: Knex,
  lease: { brandId: number; period: string; hour: Date; size: number; limits: EffectiveLimits; pruneBefore: Date },
): Promise<{ granted: number; calls: number; requests: number }> {
  const { rows } = await db.raw<{ rows: Array<{ granted: number; calls: number; requests: number }> }>(
    `SELECT l.granted, l.calls, l.requests, set_config('synchronous_commit', 'off', true) AS async_commit
     FROM app.lease_calls(?, ?, ?, ?, ?, ?, ?) AS l`,
    [lease.brandId, lease.period, lease.hour, lease.size, lease.limits.apiCallsPerMonth, lease.limits.requestsPerHour, lease.pruneBefore],
  );
  return rows[0]!;
}

/**
 * Adds up to `wanted` units to a brand's monthly meter, as many as `limit` (null: no limit) leaves, and returns how
 * many it added. The row stays locked until the caller's transaction ends, so concurrent takers never pass the limit.
 */
export async function incrementMonthlyUpTo(
  db: Knex,
  brandId: number,
  period: string,
  meter: MonthlyMeter,
  limit: number | null,
  wanted: number,
): Promise<number> {
  if (wanted <= 0) return 0;
  await db.raw("INSERT INTO app.usage_monthly (brand_id, period, meter, count) VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING", [brandId, period, meter]);
  const row = await db("app.usage_monthly").where({ brand_id: brandId, period, meter }).forUpdate().first<{ count: number }>("count");
  const granted = limit === null ? wanted : Math.max(0, Math.min(wanted, limit - Number(row!.count)));
  if (granted > 0) await db("app.usage_monthly").where({ brand_id: brandId, period, meter }).increment("count", granted);
  return granted;
}
