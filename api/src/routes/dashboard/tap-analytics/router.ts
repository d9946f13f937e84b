// The dashboard's tap analytics (/api/dashboard/taps/analytics): taps per day by verdict, per product, the verdict
// mix and the tags with clone signals. Every role may read it.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { tapAnalytics } from "../../../tags/analytics";
import { defineRoute, mountRoutes } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentTapAnalytics } from "./presenter";
import { SIGNAL_RULES, tapAnalyticsQuery, tapAnalyticsSchema } from "./schemas";

export function dashboardTapAnalyticsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/dashboard/taps/analytics",
      operationId: "dashboardTapAnalytics",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "NFC taps per day by verdict and per product, the verdict mix, and the tags showing clone signals",
      description: `Days are UTC. Clone signals: ${SIGNAL_RULES}.`,
      query: tapAnalyticsQuery,
      responses: {
        "200": { description: "the analytics", schema: envelopeSchema(tapAnalyticsSchema) },
        "404": errorResponse("no product with that UID in this brand"),
        "422": errorResponse("a malformed parameter, named in details"),
      },
      handler: async (ctx) => {
        const analytics = await tapAnalytics(deps, ctx.state.brand.id, { uid: ctx.query.uid, days: Number(ctx.query.days ?? 30) });
        ok(ctx, presentTapAnalytics(analytics));
      },
    }),
  ]);
}
