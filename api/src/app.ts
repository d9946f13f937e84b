// Builds the Koa application from its dependencies; it does not listen (server.ts does), so tests can mount it.
import Router from "@koa/router";
import Koa from "koa";
import type { AppDeps, AppState } from "./deps";
import { accessLog } from "./middleware/access-log";
import { errorHandler } from "./middleware/error-handler";
import { requestId } from "./middleware/request-id";
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

export function buildApp(deps: AppDeps): Koa<AppState> {
  // With N trusted proxies, ctx.ip is the N-th X-Forwarded-For entry from the right: the one our own proxy wrote,
  // not one a client made up (Koa would otherwise take the leftmost).
  const hops = deps.config.trustedProxyHops;
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  const openapi = new OpenApiRegistry();

  app.use(requestId());
  app.use(accessLog(deps.logger));
  app.use(errorHandler(deps.logger));

  const routers = [
    healthRouter(deps, openapi),
    dppRouter(deps, openapi),
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
    pagesRouter(deps, openapi),
    badgeRouter(deps, openapi),
    docsRouter(deps, openapi),
  ];

  const docs = new Router<AppState>();
  docs.get("/api/openapi.json", (ctx) => {
    ctx.body = openapi.document(deps.config.publicBaseUrl);
  });
  openapi.add({
    method: "get",
    path: "/api/openapi.json",
    tag: "Operations",
    summary: "This OpenAPI 3.1 document",
    responses: { "200": { description: "the document" } },
  });
  routers.push(docs);

  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  // Errors are rendered by errorHandler; Koa's default handler would only log them twice.
  app.silent = true;
  return app;
}
