// GET /api/dpp/:uid (spec 4.1): the public passport of an NFC tag UID.
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../app";
import { sendWithEtag } from "../../middleware/etag";
import { validateParams } from "../../middleware/validate-params";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { presentPublicPassport } from "./presenter";
import { UID_PATTERN, uidParam } from "./schemas";
import { publicPassport } from "./service";

export function dppRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();

  router.get("/api/dpp/:uid", validateParams(uidParam), async (ctx) => {
    const passport = await publicPassport(deps, ctx.params.uid!);
    sendWithEtag(ctx, presentPublicPassport(deps.config, passport), 5);
  });

  openapi.add({
    method: "get",
    path: "/api/dpp/:uid",
    tag: "Public",
    summary: "The public Digital Product Passport of an NFC tag UID",
    description:
      "Case-insensitive UID. `content` is the anchored part: keccak256 of its RFC 8785 canonical JSON must equal " +
      "`blockchain.data_hash` on chain. Supports If-None-Match (weak ETag).",
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
