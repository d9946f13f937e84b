// The dashboard's overview (this month against the plan, the last 30 days, recent activity) and scan history.
import type { AppDeps } from "../../../deps";
import { errorResponse } from "../../../openapi/registry";
import { brandOverview } from "../../../products/overview";
import { scanHistory } from "../../../scans/scan-history";
import { defineRoute, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok, pageOf } from "../base";
import { presentOverview, presentScans } from "./presenter";
import { overviewSchema, pageMetaSchema, scansQuery, scansSchema } from "./schemas";

export function insightRoutes(deps: AppDeps): Route[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/dashboard/overview",
      operationId: "dashboardOverview",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "This month's usage against the plan, scans and certificates per day (30 days), products, recent activity",
      description: "Brand-wide: not for a cashier (403), whose overview is GET /api/dashboard/cashier/till.",
      responses: { "200": { description: "the overview", schema: envelopeSchema(overviewSchema) } },
      handler: async (ctx) => ok(ctx, presentOverview(await brandOverview(deps, ctx.state.brand))),
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/scans",
      operationId: "dashboardScans",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "Scans per day and the scans themselves, newest first, for the brand or one product",
      query: scansQuery,
      responses: {
        "200": { description: "the scans", schema: envelopeSchema(scansSchema, pageMetaSchema) },
        "404": errorResponse("no product with that UID in this brand"),
        "422": errorResponse("a malformed parameter, named in details"),
      },
      handler: async (ctx) => {
        const page = pageOf(ctx.query);
        const history = await scanHistory(deps, ctx.state.brand.id, { uid: ctx.query.uid, days: Number(ctx.query.days ?? 30), limit: page.perPage, offset: page.offset });
        ok(ctx, presentScans(history), 200, { page: page.page, per_page: page.perPage, total: history.total });
      },
    }),
  ];
}
