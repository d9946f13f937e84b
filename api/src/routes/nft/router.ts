// GET /api/nft/:tokenId: the ERC-721 metadata JSON that ProductPassport.tokenURI points at.
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { sendWithEtag } from "../../middleware/etag";
import { validateParams } from "../../middleware/validate-params";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { nftMetadata } from "../../passports/nft-metadata";

const tokenIdParam = {
  type: "object",
  required: ["tokenId"],
  additionalProperties: false,
  properties: { tokenId: { type: "string", pattern: "^[0-9]{1,78}$", maxLength: 78 } },
};

export function nftRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();

  router.get("/api/nft/:tokenId", validateParams(tokenIdParam), async (ctx) => {
    sendWithEtag(ctx, await nftMetadata(deps, ctx.params.tokenId!), 60);
  });

  openapi.add({
    method: "get",
    path: "/api/nft/:tokenId",
    tag: "Public",
    summary: "ERC-721 metadata of a passport token (the contract's tokenURI)",
    parameters: [{ name: "tokenId", in: "path", required: true, schema: { type: "string", pattern: "^[0-9]{1,78}$" } }],
    responses: { "200": { description: "ERC-721 metadata JSON" }, "404": errorResponse("no issued passport has this token id") },
  });
  return router;
}
