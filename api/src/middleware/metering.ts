// Meters every authenticated v1 call against the brand's hourly and monthly limits and reports them in headers.
import type { Context, Middleware } from "koa";
import type { AppDeps, AppState } from "../deps";
import { MonthlyLimitError, RateLimitError } from "../errors";
import { meterCall, type CallMeterReading } from "../metering/service";

/**
 * Runs after requireBrand and before validation, so a call is every request that passed authentication, whatever
 * its outcome (a 422 or a 404 costs a call; a 401, a 403 BRAND_INACTIVE or a 429 refusal does not). The headers are
 * set before the handler runs, so error responses carry them too.
 */
export function meterApiCall(deps: AppDeps): Middleware<AppState> {
  return async (ctx, next) => {
    const brand = ctx.state.brand;
    if (!brand) throw new Error("meterApiCall must run after requireBrand");
    const endpoint = endpointOf(ctx);
    const reading = deps.callMeter
      ? await deps.callMeter.admit(brand.id, brand.limits, endpoint)
      : await meterCall(deps.db, brand.id, brand.limits, endpoint);
    setUsageHeaders(ctx, reading);
    if (reading.outcome === "monthly_limit") throw new MonthlyLimitError("API call", reading.retryAfterSeconds);
    if (reading.outcome === "hourly_limit") {
      throw new RateLimitError(reading.retryAfterSeconds, `Hourly rate limit of ${reading.hourlyLimit} requests exceeded.`);
    }
    await next();
  };
}

function setUsageHeaders(ctx: Context, reading: CallMeterReading): void {
  ctx.set("X-Plan-API-Used", String(reading.callsThisMonth));
  ctx.set("X-Plan-API-Limit", String(reading.callsLimit));
  ctx.set("X-RateLimit-Limit", String(reading.hourlyLimit));
  ctx.set("X-RateLimit-Remaining", String(reading.hourlyRemaining));
  ctx.set("X-RateLimit-Reset", String(reading.secondsToHourReset));
}

type MatchedLayer = { path: string | RegExp; methods: string[] };

/** The route pattern that matched ("GET /api/v1/products/:uid"), so the breakdown has one line per endpoint. */
function endpointOf(ctx: Context): string {
  const matched = (ctx as unknown as { matched?: MatchedLayer[] }).matched ?? [];
  const route = matched.filter((layer) => layer.methods.includes(ctx.method)).at(-1);
  const method = ctx.method === "HEAD" ? "GET" : ctx.method;
  return `${method} ${route && typeof route.path === "string" ? route.path : "/api/v1/*"}`;
}
