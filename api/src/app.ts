// Builds the Koa application from its dependencies; it does not listen (server.ts does), so tests can mount it.
import type Router from "@koa/router";
import Koa from "koa";
import type { AppDeps, AppState } from "./deps";
import { accessLog } from "./middleware/access-log";
import { errorHandler } from "./middleware/error-handler";
import { requestId } from "./middleware/request-id";
import { dispatchRouters } from "./middleware/router-dispatch";
import { OpenApiRegistry } from "./openapi/registry";
import { authRouter } from "./routes/auth/router";
import { certificatesRouter } from "./routes/certificates/router";
import { certificatesV1Router } from "./routes/v1/certificates/router";
import { productsRouter } from "./routes/v1/products/router";
import { dppRouter } from "./routes/dpp/router";
import { factoriesRouter } from "./routes/factories/router";
import { explorerRouter } from "./routes/explorer/router";
import { healthRouter } from "./routes/health/router";
import { nftRouter } from "./routes/nft/router";
import { statsRouter } from "./routes/stats/router";
import { operationsRouter } from "./routes/operations/router";
import { marketplaceRouter } from "./routes/marketplace/router";
import { v1BrandRouter } from "./routes/v1/brand/router";
import { v1UsageRouter } from "./routes/v1/usage/router";
import { v1WebhooksRouter } from "./routes/v1/webhooks/router";
import { pagesRouter } from "./routes/pages/router";
import { badgeRouter } from "./routes/badge/router";
import { docsRouter } from "./routes/docs/router";
import { dashboardSessionRouter } from "./routes/dashboard/session/router";
import { dashboardTeamRouter } from "./routes/dashboard/team/router";
import { dashboardProductsRouter } from "./routes/dashboard/products/router";
import { dashboardBrandRouter } from "./routes/dashboard/brand/router";
import { dashboardTapAnalyticsRouter } from "./routes/dashboard/tap-analytics/router";
import { dashboardTagsRouter } from "./routes/dashboard/tags/router";
import { scanRouter } from "./routes/scan/router";
import { dashboardAppRouter } from "./routes/dashboard/app/router";
import { ordersRouter } from "./routes/orders/router";
import { dashboardOrdersRouter } from "./routes/dashboard/orders/router";
import { dashboardDomainsRouter } from "./routes/dashboard/domains/router";
import { tlsAskRouter } from "./routes/tls/router";
import { interopRouter } from "./routes/interop/router";
import { expandCompressedDigitalLinks, gs1Router, refuseUnknownDigitalLinkPaths } from "./routes/gs1/router";
import { dashboardArchiveRouter } from "./routes/dashboard/archive/router";
import { dashboardAccessRouter } from "./routes/dashboard/access/router";
import { hostRouting } from "./middleware/host-routing";
import { dppLifecycleRouter, resultErrors } from "./routes/dpp-lifecycle/router";
import { backupRouter } from "./routes/backup/router";

export function buildApp(deps: AppDeps): Koa<AppState> {
  // With N trusted proxies, ctx.ip is the N-th X-Forwarded-For entry from the right: the one our own proxy wrote,
  // not one a client made up (Koa would otherwise take the leftmost).
  const hops = deps.config.trustedProxyHops;
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });

  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(errorHandler(deps.logger));
  // A compressed GS1 Digital Link becomes its uncompressed URI before a brand's host and the routers look at the path.
  app.use(expandCompressedDigitalLinks);
  app.use(hostRouting(deps));
  // Under /api/dpp-lifecycle/, failures are EN 18222's Result object rather than our envelope.
  app.use(resultErrors(deps.logger));

  const routers = buildRouters(deps, new OpenApiRegistry());

  // Each router with its allowedMethods({ throw: true }), in this order; a request enters only those that match it.
  app.use(dispatchRouters(routers));
  app.use(refuseUnknownDigitalLinkPaths);
  // Errors are rendered by errorHandler; Koa's default handler would only log them twice.
  app.silent = true;
  return app;
}

/**
 * Every router of the app, in the order requests meet them, each route written into `openapi` as it is mounted
 * (test/api/openapi-routes.test.ts compares the two).
 */
export function buildRouters(deps: AppDeps, openapi: OpenApiRegistry): Array<Router<AppState>> {
  return [
    healthRouter(deps, openapi),
    dppRouter(deps, openapi),
    dppLifecycleRouter(deps, openapi),
    backupRouter(deps, openapi),
    factoriesRouter(deps, openapi),
    authRouter(deps, openapi),
    operationsRouter(deps, openapi),
    statsRouter(deps, openapi),
    nftRouter(deps, openapi),
    explorerRouter(deps, openapi),
    marketplaceRouter(deps, openapi),
    v1BrandRouter(deps, openapi),
    v1UsageRouter(deps, openapi),
    v1WebhooksRouter(deps, openapi),
    productsRouter(deps, openapi),
    certificatesV1Router(deps, openapi),
    certificatesRouter(deps, openapi),
    interopRouter(deps, openapi),
    gs1Router(deps, openapi),
    pagesRouter(deps, openapi),
    scanRouter(deps, openapi),
    badgeRouter(deps, openapi),
    docsRouter(deps, openapi),
    dashboardSessionRouter(deps, openapi),
    dashboardTeamRouter(deps, openapi),
    dashboardProductsRouter(deps, openapi),
    dashboardBrandRouter(deps, openapi),
    dashboardTapAnalyticsRouter(deps, openapi),
    dashboardTagsRouter(deps, openapi),
    ordersRouter(deps, openapi),
    dashboardOrdersRouter(deps, openapi),
    dashboardDomainsRouter(deps, openapi),
    dashboardArchiveRouter(deps, openapi),
    dashboardAccessRouter(deps, openapi),
    tlsAskRouter(deps, openapi),
    dashboardAppRouter(deps, openapi),
  ];
}
