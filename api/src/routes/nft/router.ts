// GET /api/nft/:tokenId: the ERC-721 metadata JSON that ProductPassport.tokenURI points at.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { sendWithEtag } from "../../middleware/etag";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { nftMetadata } from "../../passports/nft-metadata";
import { defineRoute, mountRoutes, NOT_MODIFIED } from "../define-route";
import { NFT_METADATA_EXAMPLE, nftMetadataSchema, tokenIdParam } from "./schemas";

export function nftRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/nft/:tokenId",
      operationId: "getNftMetadata",
      tag: "Public",
      auth: "public",
      summary: "ERC-721 metadata of a passport token (the contract's tokenURI)",
      params: tokenIdParam,
      responses: {
        "200": { description: "ERC-721 metadata JSON", schema: nftMetadataSchema, example: NFT_METADATA_EXAMPLE },
        "304": NOT_MODIFIED,
        "404": errorResponse("no issued passport has this token id"),
        "422": errorResponse("the token id is not a decimal number"),
      },
      handler: async (ctx) => {
        sendWithEtag(ctx, await nftMetadata(deps, ctx.params.tokenId), 60);
      },
    }),
  ]);
}
