// Metering of brand usage: API calls against the hourly and monthly limits, and quota units (certificates, scans,
// carbon ratings) counted by the routes that produce them. Periods are UTC calendar months and hours.
import type { Knex } from "../db/knex";
import { MonthlyLimitError } from "../errors";
import type { EffectiveLimits } from "../plans/catalogue";
import { decrementMonthly, incrementMonthly, incrementMonthlyUpTo, meterCallRow, readUsage, type MonthlyMeter } from "./metering.repo";

export type QuotaMeter = Exclude<MonthlyMeter, "api_calls">;

/** "YYYY-MM" of the UTC month containing `now`. */
export function periodOf(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export function hourOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
}

export function secondsToNextHour(now: Date): number {
  return Math.max(1, Math.ceil((hourOf(now).getTime() + 3_600_000 - now.getTime()) / 1000));
}

export function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** What the v1 response headers report after a call was metered (or refused). */
export type CallMeterReading = {
  outcome: "admitted" | "hourly_limit" | "monthly_limit";
  callsThisMonth: number;
  callsLimit: number;
  hourlyLimit: number;
  hourlyRemaining: number;
  secondsToHourReset: number;
  /** Seconds to wait when refused: to the next hour or the next month. */
  retryAfterSeconds: number;
};

const HOURLY_RETENTION_MS = 48 * 3_600_000;

/**
 * Counts one API call of the brand, or refuses it, atomically in Postgres. A call refused by either limit counts
 * against neither. The monthly quota is checked first: when both are exhausted, waiting for the next hour would
 * not help, and MONTHLY_LIMIT_REACHED says so.
 */
export async function meterCall(
  db: Knex,
  brandId: number,
  limits: EffectiveLimits,
  endpoint: string,
  now = new Date(),
): Promise<CallMeterReading> {
  const hour = hourOf(now);
  const row = await meterCallRow(db, {
    brandId,
    period: periodOf(now),
    hour,
    endpoint,
    monthlyLimit: limits.apiCallsPerMonth,
    hourlyLimit: limits.requestsPerHour,
    pruneBefore: new Date(hour.getTime() - HOURLY_RETENTION_MS),
  });
  return {
    outcome: row.outcome,
    callsThisMonth: row.calls,
    callsLimit: limits.apiCallsPerMonth,
    hourlyLimit: limits.requestsPerHour,
    hourlyRemaining: Math.max(0, limits.requestsPerHour - row.requests),
    secondsToHourReset: secondsToNextHour(now),
    retryAfterSeconds: row.outcome === "monthly_limit" ? secondsToNextMonth(now) : row.outcome === "hourly_limit" ? secondsToNextHour(now) : 0,
  };
}

const QUOTA_FIELDS: Record<QuotaMeter, { limit: keyof EffectiveLimits; label: string }> = {
  certs: { limit: "certsPerMonth", label: "certificate" },
  scans: { limit: "scansPerMonth", label: "scan" },
  carbon_ratings: { limit: "carbonRatingsPerMonth", label: "carbon rating" },
};

/**
 * Atomically counts one unit of `meter` for the brand this month, or throws MonthlyLimitError (429
 * MONTHLY_LIMIT_REACHED, Retry-After to the next month) when the brand's limit is reached. A null limit counts
 * without refusing. Pass a transaction as `db` to have the count undone if the work it pays for fails, or call
 * refundQuota afterwards.
 */
export async function consumeQuota(
  db: Knex,
  brandId: number,
  meter: QuotaMeter,
  limits: EffectiveLimits,
  now = new Date(),
): Promise<{ used: number; limit: number | null; period: string }> {
  const { limit: field, label } = QUOTA_FIELDS[meter];
  const limit = limits[field];
  const period = periodOf(now);
  const used = await incrementMonthly(db, brandId, period, meter, limit);
  if (used === undefined) throw new MonthlyLimitError(label, secondsToNextMonth(now));
  return { used, limit, period };
}

/**
 * Counts up to `wanted` units of `meter` for the brand this month, as many as its limit leaves (never refusing with an
 * error): a bulk operation takes what it may and reports the rest as refused. Call it with the transaction that does
 * the work, so the units are given back if it rolls back.
 */
export async function consumeQuotaUpTo(
  db: Knex,
  brandId: number,
  meter: QuotaMeter,
  limits: EffectiveLimits,
  wanted: number,
  now = new Date(),
): Promise<{ granted: number; limit: number | null; period: string }> {
  const limit = limits[QUOTA_FIELDS[meter].limit];
  const period = periodOf(now);
  return { granted: await incrementMonthlyUpTo(db, brandId, period, meter, limit, wanted), limit, period };
}

/**
 * Gives back one unit counted by consumeQuota, when the work it paid for did not happen, to the month it was counted
 * in (`period`, as consumeQuota returned it): work that straddles midnight at a month's end refunds the right month.
 */
export async function refundQuota(db: Knex, brandId: number, meter: QuotaMeter, period: string): Promise<void> {
  await decrementMonthly(db, brandId, period, meter);
}

export type MonthlyUsage = {
  period: string;
  callsThisMonth: number;
  certsIssued: number;
  carbonRatings: number;
  scans: number;
  endpointBreakdown: Array<{ endpoint: string; calls: number }>;
};

/** The brand's counters for a UTC month ("YYYY-MM"; the current one by default). */
export async function monthlyUsage(db: Knex, brandId: number, period = periodOf(new Date())): Promise<MonthlyUsage> {
  const { counts, endpoints } = await readUsage(db, brandId, period);
  return {
    period,
    callsThisMonth: counts.api_calls,
    certsIssued: counts.certs,
    carbonRatings: counts.carbon_ratings,
    scans: counts.scans,
    endpointBreakdown: endpoints,
  };
}
