// GET /api/dpp/:uid (spec 4.1): the public passport of an NFC tag UID.
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { renderJson, sendRendered, type RenderedJson } from "../../middleware/etag";
import { validateParams } from "../../middleware/validate-params";
import { IndexedReadCache, sharedIndexerState } from "../../onchain/indexed-read-cache";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { buildPublicRecord } from "../../passports/public-record";
import { UID_PATTERN, uidParam } from "./schemas";
import { publicPassport } from "../../passports/public-passport";
import { passportPageHandler } from "../pages/router";

export function dppRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();
  // A scanned tag is read in bursts: the rendered record (JSON and ETag) serves them for up to a second, and never
  // once the indexer has moved on (indexed-read-cache.ts says what may be stale).
  const records = new IndexedReadCache<RenderedJson>({ ttlMs: 1000, maxEntries: 1000 });
  const indexer = sharedIndexerState(deps.db, deps.config.onchainSchema);

  const page = passportPageHandler(deps);

  router.get("/api/dpp/:uid", async (ctx, next) => {
    // The same address is the passport as data and, for a browser (dpp_url opened by a person), as a page.
    ctx.vary("Accept");
    if (ctx.accepts("application/json", "text/html") === "text/html") return page(ctx, next);
    return next();
  }, validateParams(uidParam), async (ctx) => {
    const uid = ctx.params.uid!.toUpperCase();
    const state = await indexer().catch(() => undefined);
    const record = await records.read(uid, state?.indexedBlock, async () =>
      renderJson(buildPublicRecord(deps.config, await publicPassport(deps, uid, state))),
    );
    sendRendered(ctx, record, 5);
  });

  openapi.add({
    method: "get",
    path: "/api/dpp/:uid",
    tag: "Public",
    summary: "The public Digital Product Passport of an NFC tag UID",
    description:
      "Case-insensitive UID. `content` is the anchored part: keccak256 of its RFC 8785 canonical JSON must equal " +
      "`blockchain.data_hash` on chain. Supports If-None-Match (weak ETag). A client that prefers text/html to " +
      "application/json (a browser opening a product's dpp_url) gets the passport as an HTML page instead; " +
      "responses vary on Accept.",
    parameters: [{ name: "uid", in: "path", required: true, schema: { type: "string", pattern: UID_PATTERN } }],
    responses: {
      "200": { description: "the passport record" },
      "304": { description: "not modified since the ETag the caller holds" },
      "404": errorResponse("no passport for that UID"),
      "422": errorResponse("the UID is not of the form <PREFIX>-<CODE>"),
    },
  });
  return router;
}
