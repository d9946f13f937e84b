// GET /api/stats (spec 4.4): live aggregate counts of the platform; fields documented in the README.
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../app";
import { indexerState } from "../../onchain/indexer-state.repo";
import { fromViews } from "../../onchain/views";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { appCounts, chainCounts } from "./repo";

export function statsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();

  router.get("/api/stats", async (ctx) => {
    const schema = deps.config.onchainSchema;
    const [app, chain, indexer, head] = await Promise.all([
      appCounts(deps.db),
      fromViews(() => chainCounts(deps.db, schema)),
      indexerState(deps.db, schema),
      deps.provider.getBlockNumber().catch(() => null),
    ]);
    ctx.set("Cache-Control", "public, max-age=5");
    ctx.body = {
      ...app,
      ...chain,
      network: deps.config.networkName,
      chain_id: deps.config.chainId,
      indexed_block: indexer?.indexedBlock ?? null,
      chain_head_block: head,
      indexer_lag_blocks: head !== null && indexer ? Math.max(0, head - indexer.indexedBlock) : null,
      generated_at: new Date().toISOString(),
    };
  });

  openapi.add({
    method: "get",
    path: "/api/stats",
    tag: "Public",
    summary: "Live aggregate counts of the platform",
    responses: {
      "200": {
        description: "counts",
        example: {
          brands: 1, brands_active: 1, products: 6, certificates_issued: 4, scans: 0, passports_minted: 4, factories: 24,
          factories_verified: 16, supply_chain_events: 24, tags_assigned: 4, network: "hardhat-local", chain_id: 31337,
          indexed_block: 120, chain_head_block: 120, indexer_lag_blocks: 0, generated_at: "2026-11-22T09:00:00.000Z",
        },
      },
      "503": errorResponse("the chain indexer has not published its data yet"),
    },
  });
  return router;
}
