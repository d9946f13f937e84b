// Liveness and readiness: /healthz says the process is alive; /readyz says Postgres, the chain and the indexer are.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { readiness } from "../../health/readiness";
import type { OpenApiRegistry } from "../../openapi/registry";
import { defineRoute, mountRoutes } from "../define-route";
import { livenessSchema, readinessSchema } from "./schemas";

export function healthRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/healthz",
      operationId: "getLiveness",
      tag: "Operations",
      auth: "public",
      summary: "Liveness: the process is up",
      responses: { "200": { description: "alive", schema: livenessSchema, example: { status: "ok" } } },
      handler: (ctx) => {
        ctx.set("Cache-Control", "no-store");
        ctx.body = { status: "ok" };
      },
    }),
    defineRoute({
      method: "get",
      path: "/readyz",
      operationId: "getReadiness",
      tag: "Operations",
      auth: "public",
      summary: "Readiness: Postgres answers, the chain answers and the indexer has caught up with the chain head; the health of each background job",
      responses: {
        "200": {
          description: "ready",
          schema: readinessSchema,
          example: {
            status: "ready",
            checks: {
              database: { ok: true },
              chain: { ok: true, head_block: 42, deep_reorgs_last_day: 0 },
              indexer: { ok: true, indexed_block: 42, lag_blocks: 0 },
            },
            jobs: {
              "mint-pump": {
                ok: true,
                running: true,
                runs: 120,
                consecutive_failures: 0,
                last_success_at: "2026-01-01T12:00:00.000Z",
                last_failure_at: null,
                last_error: null,
              },
            },
          },
        },
        "503": {
          description: "not ready; each failing check says what is missing",
          schema: readinessSchema,
          example: {
            status: "not_ready",
            checks: {
              database: { ok: true },
              chain: { ok: true, head_block: 42, deep_reorgs_last_day: 0 },
              indexer: { ok: false, detail: "the indexer has not published its views yet" },
            },
            jobs: {},
          },
        },
      },
      handler: async (ctx) => {
        const { ready, checks, jobs } = await readiness(deps);
        ctx.set("Cache-Control", "no-store");
        ctx.status = ready ? 200 : 503;
        ctx.body = { status: ready ? "ready" : "not_ready", checks, jobs };
      },
    }),
  ]);
}
