// GET /api/factory/:id/reputation (spec 4.2).
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { factoryReputation } from "../../factories/service";
import { IndexedReadCache, sharedIndexerState } from "../../onchain/indexed-read-cache";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { defineRoute, mountRoutes } from "../define-route";
import { presentReputation } from "./presenter";
import { factoryIdParam, reputationSchema } from "./schemas";

export function factoriesRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  // The score moves with indexed blocks: a burst of reads is answered once per block and second (indexed-read-cache.ts).
  const reputations = new IndexedReadCache<ReturnType<typeof presentReputation>>({ ttlMs: 1000, maxEntries: 1000 });
  const indexer = sharedIndexerState(deps.db, deps.config.onchainSchema);

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/factory/:id/reputation",
      operationId: "getFactoryReputation",
      tag: "Public",
      auth: "public",
      summary: "Reputation of a registry factory, scored from its on-chain activity",
      description: "Score 0-100 and letter grade; the formula is in docs/public-api.md (Factory reputation).",
      params: factoryIdParam,
      responses: {
        "200": {
          description: "the reputation record (spec 2.1)",
          schema: reputationSchema,
          example: { factory_id: 1001, factory_name: "Banani Loomcraft Apparels Ltd.", score: 78, grade: "B", on_chain_events: 42, dpp_issued: 12, certifications: ["OEKO-TEX", "ISO9001", "BCI"], verified: true },
        },
        "404": errorResponse("no factory with that id in the registry"),
        "422": errorResponse("the id is not a positive integer"),
        "503": errorResponse("the chain indexer has not published its data yet"),
      },
      handler: async (ctx) => {
        const factoryId = Number(ctx.params.id);
        const state = await indexer().catch(() => undefined);
        const reputation = await reputations.read(String(factoryId), state?.indexedBlock, async () =>
          presentReputation(await factoryReputation(deps.db, deps.config.onchainSchema, factoryId)),
        );
        ctx.set("Cache-Control", "public, max-age=5");
        ctx.body = reputation;
      },
    }),
  ]);
}
