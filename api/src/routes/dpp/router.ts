// GET /api/dpp/:uid (spec 4.1): the public passport of an NFC tag UID.
import type Router from "@koa/router";
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../../deps";
import { accessOfProduct, visiblePublicRecord } from "../../access/reads";
import { markReaderResponse, requestReader } from "../../middleware/reader";
import { renderJson, sendRendered, type RenderedJson } from "../../middleware/etag";
import { IndexedReadCache, sharedIndexerState } from "../../onchain/indexed-read-cache";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { buildPublicRecord } from "../../passports/public-record";
import { publicPassport } from "../../passports/public-passport";
import { defineRoute, mountRoutes, NOT_MODIFIED } from "../define-route";
import { passportPageHandler } from "../pages/router";
import { PUBLIC_RECORD_EXAMPLE, publicRecordSchema, uidParam } from "./schemas";

export function dppRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  // A scanned tag is read in bursts: the rendered record (JSON and ETag) serves them for up to a second, and never
  // once the indexer has moved on (indexed-read-cache.ts says what may be stale).
  const records = new IndexedReadCache<RenderedJson>({ ttlMs: 1000, maxEntries: 1000 });
  const indexer = sharedIndexerState(deps.db, deps.config.onchainSchema);
  const page = passportPageHandler(deps);

  /** The same address is the passport as data and, for a browser (dpp_url opened by a person), as a page. */
  const negotiate: Middleware<AppState> = (ctx, next) => {
    ctx.vary("Accept");
    if (ctx.accepts("application/json", "text/html") === "text/html") return page(ctx, next);
    return next();
  };

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/dpp/:uid",
      operationId: "getPassport",
      tag: "Public",
      auth: "public",
      summary: "The public Digital Product Passport of an NFC tag UID",
      description:
        "Case-insensitive UID. `content` is the anchored part: keccak256 of its RFC 8785 canonical JSON must equal " +
        "`blockchain.data_hash` on chain when `access.withheld` is empty; elements above the reader's access class " +
        "(`Authorization: Bearer` a reader key, role credential or authority key; docs/access.md) are left out and listed there. Supports If-None-Match (weak ETag). A client that prefers text/html to " +
        "application/json (a browser opening a product's dpp_url) gets the passport as an HTML page instead; " +
        "responses vary on Accept.",
      params: uidParam,
      before: [negotiate],
      responses: {
        "200": { description: "the passport record (fields in docs/public-api.md)", schema: publicRecordSchema, example: PUBLIC_RECORD_EXAMPLE },
        "304": NOT_MODIFIED,
        "401": errorResponse("a reader credential that fails: READER_KEY_INVALID, CREDENTIAL_INVALID, CREDENTIAL_EXPIRED, CREDENTIAL_AUDIENCE, CREDENTIAL_UNTRUSTED_ISSUER (docs/access.md)"),
        "404": errorResponse("no passport for that UID"),
        "422": errorResponse("the UID is not of the form <PREFIX>-<CODE>"),
      },
      handler: async (ctx) => {
        const uid = ctx.params.uid.toUpperCase();
        // Each reader sees the elements of its access class (docs/access.md): the public's record is shared and
        // cached; a reader's is rendered for it, logged, and never stored by a shared cache.
        const reader = await requestReader(deps, ctx);
        const state = await indexer().catch(() => undefined);
        const render = async () => {
          const passport = await publicPassport(deps, uid, state);
          return renderJson(await visiblePublicRecord(deps, reader, buildPublicRecord(deps.config, passport), "PublicRecord", accessOfProduct(passport.product)));
        };
        const record = reader.class === "public" ? await records.read(uid, state?.indexedBlock, render) : await render();
        sendRendered(ctx, record, 5);
        markReaderResponse(ctx, reader);
      },
    }),
  ]);
}
