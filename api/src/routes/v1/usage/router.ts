// GET /api/v1/usage (spec 4.13): the brand's metered usage this month, in the body and in headers.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { monthlyUsage } from "../../../metering/service";
import type { OpenApiRegistry } from "../../../openapi/registry";
import { defineRoute, mountRoutes } from "../../define-route";
import { envelopeSchema, ok, V1_HEADERS_NOTE, V1_TAG } from "../router-base";
import { presentUsage, usageHeaders } from "./presenter";
import { usageSchema } from "./schemas";

export function v1UsageRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/v1/usage",
      operationId: "getUsage",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Metered usage of the authenticated brand this month (UTC)",
      description:
        "A call is every v1 request that passed authentication, this one included, whatever its status (a 401, 403 " +
        "or 429 refusal is not counted). certs_issued counts new certificates only; a repeated issue of the same UID " +
        "is not counted. estimated_cost_usd is the plan's monthly price (starter 49, growth 199); enterprise has no " +
        "list price, so it is the price agreed in the brand's custom SLA, or 0. " + V1_HEADERS_NOTE + " This " +
        "response also carries X-Usage-Period, X-Plan-Certs-Used, X-Plan-Certs-Limit (absent when unlimited) and " +
        "X-Plan-Carbon-Ratings-Used.",
      responses: {
        "200": {
          description: "the usage summary (spec 2.10)",
          schema: envelopeSchema(usageSchema),
          example: {
            success: true,
            data: {
              period: "2026-03",
              calls_this_month: 1243,
              plan_api_limit: 10000,
              usage_pct: 12.43,
              certs_issued: 37,
              carbon_ratings: 112,
              monthly_plan: "enterprise",
              estimated_cost_usd: 0,
              endpoint_breakdown: [
                { endpoint: "POST /api/v1/products", calls: 640 },
                { endpoint: "GET /api/v1/products/:uid", calls: 512 },
                { endpoint: "POST /api/v1/certs/issue", calls: 37 },
                { endpoint: "GET /api/v1/usage", calls: 54 },
              ],
            },
          },
        },
      },
      handler: async (ctx) => {
        const brand = ctx.state.brand;
        // Scoped by the authenticated brand only: no parameter can name another brand.
        // Unused leased calls go back and buffered endpoint counts are written first, so the figures are exact.
        await deps.callMeter.settle(brand.id);
        const usage = await monthlyUsage(deps.db, brand.id);
        ctx.set(usageHeaders(brand, usage));
        ctx.set("Cache-Control", "no-store");
        ok(ctx, presentUsage(brand, usage));
      },
    }),
  ]);
}
