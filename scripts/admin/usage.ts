// Operator command showing a brand's metered usage for a month, the same figures as GET /api/v1/usage.
import { getBrand } from "../../api/src/brands/service";
import { monthlyUsage, periodOf } from "../../api/src/metering/service";
import { effectiveLimits, presentLimits } from "../../api/src/plans/catalogue";
import { brandOption, limitText, requiredOption, stringOption, table, UsageError, type AdminCommand } from "./command";

const showUsageCommand: AdminCommand = {
  name: "show-usage",
  summary: "a brand's usage for a month (UTC): calls, certificates, scans, carbon ratings, calls per endpoint",
  options: { ...brandOption, period: { type: "string", description: "YYYY-MM (default: this month)" } },
  async run(context) {
    const period = stringOption(context, "period") ?? periodOf(new Date());
    if (!/^[0-9]{4}-(?:0[1-9]|1[0-2])$/.test(period)) throw new UsageError("--period must be YYYY-MM");
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const limits = presentLimits(effectiveLimits({ plan: brand.plan, limit_overrides: brand.limitOverrides }));
    const usage = await monthlyUsage(context.db, brand.id, period);
    const meters = [
      ["api calls", usage.callsThisMonth, limits.api_calls_per_month],
      ["certificates", usage.certsIssued, limits.certs_per_month],
      ["scans", usage.scans, limits.scans_per_month],
      ["carbon ratings", usage.carbonRatings, limits.carbon_ratings_per_month],
    ] as const;
    const lines = [
      `${brand.slug}, ${period} (plan ${brand.plan})`,
      table(["METER", "USED", "LIMIT"], meters.map(([name, used, limit]) => [name, String(used), limitText(limit)])),
      "",
      usage.endpointBreakdown.length === 0 ? "No calls." : table(["ENDPOINT", "CALLS"], usage.endpointBreakdown.map((e) => [e.endpoint, String(e.calls)])),
    ];
    return {
      text: lines.join("\n"),
      json: {
        brand: brand.slug,
        period,
        plan: brand.plan,
        api_calls: usage.callsThisMonth,
        certs: usage.certsIssued,
        scans: usage.scans,
        carbon_ratings: usage.carbonRatings,
        limits,
        endpoint_breakdown: usage.endpointBreakdown,
      },
    };
  },
};

export const commands: AdminCommand[] = [showUsageCommand];
