// GET /api/stats (spec 4.4): aggregate counts of the platform, a few seconds old at most; fields documented in docs/public-api.md.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { STATS_TTL_MS, StatsSnapshots } from "../../stats/service";
import { defineRoute, mountRoutes } from "../define-route";
import { statsSchema } from "./schemas";

export function statsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const stats = new StatsSnapshots(deps);

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/stats",
      operationId: "getStats",
      tag: "Public",
      auth: "public",
      summary: "Aggregate counts of the platform, at most a few seconds old (generated_at says when they were taken)",
      responses: {
        "200": {
          description: "counts",
          schema: statsSchema,
          example: {
            brands: 1, brands_active: 1, products: 6, certificates_issued: 4, scans: 0, passports_minted: 4, factories: 24,
            factories_verified: 16, supply_chain_events: 24, tags_assigned: 4, network: "hardhat-local", chain_id: 31337,
            indexed_block: 120, chain_head_block: 120, indexer_lag_blocks: 0, generated_at: "2026-11-22T09:00:00.000Z",
          },
        },
        "503": errorResponse("the chain indexer has not published its data yet"),
      },
      handler: async (ctx) => {
        const { app, chain, indexedBlock, headBlock, takenAt } = await stats.current();
        ctx.set("Cache-Control", `public, max-age=${STATS_TTL_MS / 1000}`);
        ctx.body = {
          ...app,
          ...chain,
          network: deps.config.networkName,
          chain_id: deps.config.chainId,
          indexed_block: indexedBlock,
          chain_head_block: headBlock,
          indexer_lag_blocks: headBlock !== null && indexedBlock !== null ? Math.max(0, headBlock - indexedBlock) : null,
          // When the counts were taken: up to a few seconds before this response.
          generated_at: takenAt.toISOString(),
        };
      },
    }),
  ]);
}
