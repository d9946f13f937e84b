// The dashboard's Domain screen (/api/dashboard/domain): the brand's subdomain, and its custom domain (Growth and
// above): add it, see the DNS records to create and each verification step, check now, remove it.
import type Router from "@koa/router";
import type { BrandContext } from "../../../brands/service";
import type { AppDeps, AppState } from "../../../deps";
import { addCustomDomain, checkCustomDomainNow, customDomainOf, MANUAL_CHECK_INTERVAL_SECONDS, removeCustomDomain } from "../../../domains/service";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { actorOf } from "../../../team/service";
import { defineRoute, mountRoutes } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentDomainOverview } from "./presenter";
import { addDomainBody, DOMAIN_OVERVIEW_EXAMPLE, domainOverviewSchema } from "./schemas";

const OVERVIEW = { schema: envelopeSchema(domainOverviewSchema), example: { success: true, data: DOMAIN_OVERVIEW_EXAMPLE } };
const NO_DOMAIN = errorResponse("the brand has no custom domain (NOT_FOUND)");

export function dashboardDomainsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const overview = async (brand: BrandContext) => presentDomainOverview(deps.config, brand, await customDomainOf(deps.db, brand));
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/dashboard/domain",
      operationId: "dashboardDomain",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The brand's addresses: its subdomain, and its custom domain with the DNS records to create and each step's last check",
      responses: { "200": { description: "the brand's addresses", ...OVERVIEW } },
      handler: async (ctx) => ok(ctx, await overview(ctx.state.brand)),
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/domain/custom",
      operationId: "dashboardAddCustomDomain",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "branding.write",
      summary: "Add the brand's custom domain (Growth and above; one per brand): answers the CNAME and TXT records to create",
      description:
        "The hostname is lower-cased and a trailing dot dropped; it must be a DNS name (no address, scheme or path), not under " +
        "BASE_DOMAIN and not this service's own host. The checker then looks for both records with back-off (1 minute, doubling " +
        `to an hour) for DOMAIN_VERIFY_WINDOW_HOURS (24), then marks the domain failed with the reason. Audited (domain.added).`,
      body: addDomainBody,
      bodyExample: { hostname: "shop.example.com" },
      responses: {
        "201": { description: "added, pending verification", ...OVERVIEW },
        "403": errorResponse("the plan has no custom domain (PLAN_FEATURE), the role may not change branding (FORBIDDEN), or CSRF_FAILED"),
        "409": errorResponse("the hostname is in use (DOMAIN_TAKEN, without saying by whom), or the brand has a domain already (CONFLICT)"),
        "422": errorResponse("not a usable hostname (VALIDATION_ERROR, field hostname)"),
      },
      handler: async (ctx) => {
        await addCustomDomain(deps, ctx.state.brand, actorOf(ctx.state.user), ctx.state.input.hostname);
        ok(ctx, await overview(ctx.state.brand), 201);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/domain/custom/check",
      operationId: "dashboardCheckCustomDomain",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "branding.write",
      summary: "Check the custom domain's DNS records now (a failed domain gets a new verification window)",
      description: `At most once every ${MANUAL_CHECK_INTERVAL_SECONDS} seconds per domain. Waits for the DNS answers (each query bounded by DNS_TIMEOUT_MS).`,
      responses: {
        "200": { description: "the result, recorded", ...OVERVIEW },
        "404": NO_DOMAIN,
        "409": errorResponse("the domain is verified already (CONFLICT)"),
        "429": errorResponse(`checked less than ${MANUAL_CHECK_INTERVAL_SECONDS} seconds ago (RATE_LIMIT, Retry-After)`),
      },
      handler: async (ctx) => {
        await checkCustomDomainNow(deps, ctx.state.brand);
        ok(ctx, await overview(ctx.state.brand));
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/dashboard/domain/custom",
      operationId: "dashboardRemoveCustomDomain",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "branding.write",
      summary: "Remove the custom domain: it stops being served at once (on other API processes within seconds)",
      description: "Audited (domain.removed). The brand's pages stay on its subdomain and the main site.",
      responses: { "200": { description: "removed", ...OVERVIEW }, "404": NO_DOMAIN },
      handler: async (ctx) => {
        await removeCustomDomain(deps, ctx.state.brand, actorOf(ctx.state.user));
        ok(ctx, await overview(ctx.state.brand));
      },
    }),
  ]);
}
