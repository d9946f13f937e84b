// Meters every authenticated v1 call against the brand's hourly and monthly limits and reports them in headers.
import type { Context, Middleware } from "koa";
import type { AppDeps, AppState } from "../deps";
import { MonthlyLimitError, RateLimitError } from "../errors";
import type { CallMeterReading } from "../metering/service";

/**
 * Runs after requireBrand and before validation, so a call is every request that passed authentication, whatever
 * its outcome (a 422 or a 404 costs a call; a 401, a 403 BRAND_INACTIVE or a 429 refusal does not). The headers are
 * set before the handler runs, so error responses carry them too.
 */
export function meterApiCall(deps: AppDeps): Middleware<AppState> {
  const meter = deps.callMeter;
  return (ctx, next) => {
    const brand = ctx.state.brand;
    if (!brand) throw new Error("meterApiCall must run after requireBrand");
    const endpoint = endpointOf(ctx);
    // A call the brand's lease covers is admitted on the spot; only a grant or a refusal waits on Postgres.
    const leased = meter.admitLeased(brand.id, brand.limits, endpoint);
    if (leased) {
      setUsageHeaders(ctx, leased);
      return next();
    }
    const reading = meter.admit(brand.id, brand.limits, endpoint);
    return reading.then((read) => {
      setUsageHeaders(ctx, read);
      if (read.outcome === "monthly_limit") throw new MonthlyLimitError("API call", read.retryAfterSeconds);
      if (read.outcome === "hourly_limit") {
        throw new RateLimitError(read.retryAfterSeconds, `Hourly rate limit of ${read.hourlyLimit} requests exceeded.`);
      }
      return next();
    });
  };
}

function setUsageHeaders(ctx: Context, reading: CallMeterReading): void {
  const res = ctx.res;
  res.setHeader("X-Plan-API-Used", String(reading.callsThisMonth));
  res.setHeader("X-Plan-API-Limit", String(reading.callsLimit));
  res.setHeader("X-RateLimit-Limit", String(reading.hourlyLimit));
  res.setHeader("X-RateLimit-Remaining", String(reading.hourlyRemaining));
  res.setHeader("X-RateLimit-Reset", String(reading.secondsToHourReset));
}

type MatchedLayer = { path: string | RegExp; methods: string[] };

/** The route pattern that matched ("GET /api/v1/products/:uid"), so the breakdown has one line per endpoint. */
function endpointOf(ctx: Context): string {
  const matched = (ctx as unknown as { matched?: MatchedLayer[] }).matched ?? [];
  const method = ctx.method;
  let route: MatchedLayer | undefined;
  for (let i = matched.length - 1; i >= 0 && !route; i--) if (matched[i]!.methods.includes(method)) route = matched[i];
  return `${method === "HEAD" ? "GET" : method} ${route && typeof route.path === "string" ? route.path : "/api/v1/*"}`;
}
