// A brand's scans for the dashboard: per-day counts over the last days (every day present, zeros included, for a
// chart) and the scans themselves, for the whole brand or one of its products.
import type { AppDeps } from "../deps";
import { NotFoundError } from "../errors";
import { findProductByUid } from "../products/products.repo";
import { listScans, scansPerDay, type ScanItemRow } from "./scan-history.repo";

export type DailyCount = { date: string; count: number };

/** The UTC dates of the last `days` days, oldest first, today included. */
export function lastDays(days: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** `counts` (by "YYYY-MM-DD") laid over every date of `dates`, zero where nothing happened. */
export function fillDays(dates: string[], counts: Array<{ day: string; count: number }>): DailyCount[] {
  const byDay = new Map(counts.map((c) => [c.day, c.count]));
  return dates.map((date) => ({ date, count: byDay.get(date) ?? 0 }));
}

export type ScanHistory = { daily: DailyCount[]; items: ScanItemRow[]; total: number };

export async function scanHistory(
  deps: AppDeps,
  brandId: number,
  options: { uid?: string; days: number; limit: number; offset: number },
): Promise<ScanHistory> {
  let productId: number | undefined;
  if (options.uid) {
    const product = await findProductByUid(deps.db, options.uid, brandId);
    if (!product) throw new NotFoundError("Product");
    productId = product.id;
  }
  const dates = lastDays(options.days);
  const filter = { brandId, productId, since: new Date(`${dates[0]}T00:00:00Z`) };
  // One snapshot for both: scans are recorded after their page is answered, and counts read on two connections could
  // each see a different set (a total of 1 beside a day of 0).
  const [perDay, page] = await deps.db.transaction((trx) => Promise.all([scansPerDay(trx, filter), listScans(trx, filter, options)]), {
    isolationLevel: "repeatable read",
    readOnly: true,
  });
  return { daily: fillDays(dates, perDay), items: page.rows, total: page.total };
}
