// Liveness and readiness: /healthz says the process is alive; /readyz says Postgres, the chain and the indexer are.
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { readiness } from "../../health/readiness";
import type { OpenApiRegistry } from "../../openapi/registry";

export function healthRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();

  router.get("/healthz", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok" };
  });

  router.get("/readyz", async (ctx) => {
    const { ready, checks } = await readiness(deps);
    ctx.set("Cache-Control", "no-store");
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? "ready" : "not_ready", checks };
  });

  openapi.add({
    method: "get",
    path: "/healthz",
    tag: "Operations",
    summary: "Liveness: the process is up",
    responses: { "200": { description: "alive", example: { status: "ok" } } },
  });
  openapi.add({
    method: "get",
    path: "/readyz",
    tag: "Operations",
    summary: "Readiness: Postgres answers, the chain answers and the indexer has caught up with the chain head",
    responses: {
      "200": {
        description: "ready",
        example: {
          status: "ready",
          checks: {
            database: { ok: true },
            chain: { ok: true, head_block: 42 },
            indexer: { ok: true, indexed_block: 42, lag_blocks: 0 },
          },
        },
      },
      "503": { description: "not ready; each failing check says what is missing" },
    },
  });
  return router;
}
