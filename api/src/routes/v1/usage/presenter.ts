// Shapes the usage summary of GET /api/v1/usage (spec 2.10).
import type { BrandContext } from "../../../brands/service";
import type { MonthlyUsage } from "../../../metering/service";

export function presentUsage(brand: BrandContext, usage: MonthlyUsage) {
  const limit = brand.limits.apiCallsPerMonth;
  return {
    period: usage.period,
    calls_this_month: usage.callsThisMonth,
    plan_api_limit: limit,
    usage_pct: limit > 0 ? Math.round((usage.callsThisMonth / limit) * 10_000) / 100 : 100,
    certs_issued: usage.certsIssued,
    carbon_ratings: usage.carbonRatings,
    monthly_plan: brand.plan,
    // Limits are hard (a quota refuses rather than bills), so the month costs the plan's price and nothing more.
    estimated_cost_usd: brand.limits.priceUsdPerMonth ?? 0,
    endpoint_breakdown: usage.endpointBreakdown.map(({ endpoint, calls }) => ({ endpoint, calls })),
  };
}

/** The counters of the summary that the section 8 headers do not carry already. */
export function usageHeaders(brand: BrandContext, usage: MonthlyUsage): Record<string, string> {
  return {
    "X-Usage-Period": usage.period,
    "X-Plan-Certs-Used": String(usage.certsIssued),
    ...(brand.limits.certsPerMonth !== null ? { "X-Plan-Certs-Limit": String(brand.limits.certsPerMonth) } : {}),
    "X-Plan-Carbon-Ratings-Used": String(usage.carbonRatings),
  };
}
