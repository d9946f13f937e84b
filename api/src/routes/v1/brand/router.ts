// GET /api/v1/brand (spec 4.7): the brand the API key belongs to.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { getBrand } from "../../../brands/service";
import type { OpenApiRegistry } from "../../../openapi/registry";
import { defineRoute, mountRoutes } from "../../define-route";
import { envelopeSchema, ok, V1_HEADERS_NOTE, V1_TAG } from "../router-base";
import { presentBrand } from "./presenter";
import { brandSchema } from "./schemas";

export function v1BrandRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/v1/brand",
      operationId: "getBrand",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "The authenticated brand: name, UID prefix, status, plan and the limits in force",
      description:
        "Use it to check a key and slug. limits are the plan's defaults with the brand's own overrides (custom SLA) " +
        "applied; null means unlimited. " + V1_HEADERS_NOTE,
      responses: {
        "200": {
          description: "the brand",
          schema: envelopeSchema(brandSchema),
          example: {
            success: true,
            data: {
              slug: "demo-apparel",
              name: "Demo Apparel Co.",
              uid_prefix: "DEMO",
              status: "active",
              plan: "enterprise",
              plan_tier: 3,
              limits: { api_calls_per_month: 10000, requests_per_hour: 1000, certs_per_month: 500, scans_per_month: null, carbon_ratings_per_month: null, price_usd_per_month: null },
              custom_limits: false,
              created_at: "2026-01-15T09:30:00.000Z",
            },
          },
        },
      },
      handler: async (ctx) => {
        const brand = ctx.state.brand;
        ctx.set("Cache-Control", "no-store");
        ok(ctx, presentBrand(brand, await getBrand(deps.db, brand.slug)));
      },
    }),
  ]);
}
