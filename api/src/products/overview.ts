// The dashboard's overview: this month's meters against the brand's plan, scans and certificates per day for the
// last 30 days, how many products are certified, and the latest entries of the audit log.
import type { AppDeps } from "../deps";
import { auditLog, type AuditPage } from "../audit/service";
import type { BrandContext } from "../brands/service";
import { monthlyUsage } from "../metering/service";
import { isPlanName, PLANS, type Plan } from "../plans/catalogue";
import { fillDays, lastDays } from "../scans/scan-history";
import { scansPerDay } from "../scans/scan-history.repo";
import { certificatesPerDay, countBrandProducts } from "./product-list.repo";

export const OVERVIEW_DAYS = 30;
const RECENT_ACTIVITY = 10;

export type Meter = { used: number; limit: number | null };

export type Overview = {
  period: string;
  plan: { name: string; tier: number | null; title: string };
  meters: { api_calls: Meter; certs: Meter; scans: Meter; carbon_ratings: Meter };
  daily: Array<{ date: string; scans: number; certificates: number }>;
  products: { total: number; certified: number };
  recentActivity: AuditPage["entries"];
};

export async function brandOverview(deps: AppDeps, brand: BrandContext): Promise<Overview> {
  const dates = lastDays(OVERVIEW_DAYS);
  const since = new Date(`${dates[0]}T00:00:00Z`);
  const [usage, scans, certificates, products, audit] = await Promise.all([
    monthlyUsage(deps.db, brand.id),
    scansPerDay(deps.db, { brandId: brand.id, since }),
    certificatesPerDay(deps.db, brand.id, since),
    countBrandProducts(deps.db, brand.id),
    auditLog(deps.db, brand.id, { limit: RECENT_ACTIVITY }),
  ]);
  const plan: Plan | undefined = isPlanName(brand.plan) ? PLANS[brand.plan] : undefined;
  const scanDays = fillDays(dates, scans);
  const certificateDays = fillDays(dates, certificates);
  const { limits } = brand;
  return {
    period: usage.period,
    plan: { name: brand.plan, tier: plan?.tier ?? null, title: plan?.title ?? brand.plan },
    meters: {
      api_calls: { used: usage.callsThisMonth, limit: limits.apiCallsPerMonth },
      certs: { used: usage.certsIssued, limit: limits.certsPerMonth },
      scans: { used: usage.scans, limit: limits.scansPerMonth },
      carbon_ratings: { used: usage.carbonRatings, limit: limits.carbonRatingsPerMonth },
    },
    daily: dates.map((date, i) => ({ date, scans: scanDays[i]!.count, certificates: certificateDays[i]!.count })),
    products,
    recentActivity: audit.entries,
  };
}
