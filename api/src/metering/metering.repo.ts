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

export async function readMonthly(db: Knex, brandId: number, period: string): Promise<Record<MonthlyMeter, number>> {
  const rows = await monthlyOf(db, { brandId, period });
  const counts: Record<MonthlyMeter, number> = { api_calls: 0, certs: 0, scans: 0, carbon_ratings: 0 };
  for (const row of rows) counts[row.meter] = row.count;
  return counts;
}

/** Calls per endpoint in the period, busiest first. */
export async function readEndpoints(db: Knex, brandId: number, period: string): Promise<Array<{ endpoint: string; calls: number }>> {
  return endpointsOf(db, { brandId, period });
}

// The usage read's statements, built once (compiledOnce).
const monthlyOf = compiledOnce<{ meter: MonthlyMeter; count: number }, "brandId" | "period">((db, param) =>
  db("app.usage_monthly").where({ brand_id: param("brandId"), period: param("period") }).select("meter", "count"),
);
const endpointsOf = compiledOnce<{ endpoint: string; calls: number }, "brandId" | "period">((db, param) =>
  db("app.usage_endpoints")
    .where({ brand_id: param("brandId"), period: param("period") })
    .orderBy([{ column: "calls", order: "desc" }, { column: "endpoint" }])
    .select("endpoint", "calls"),
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
