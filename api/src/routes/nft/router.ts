// GET /api/nft/:tokenId: the ERC-721 metadata JSON that ProductPassport.tokenURI points at.
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../app";
import { NotFoundError } from "../../errors";
import { sendWithEtag } from "../../middleware/etag";
import { validateParams } from "../../middleware/validate-params";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { productLinks } from "../dpp/presenter";

const tokenIdParam = {
  type: "object",
  required: ["tokenId"],
  additionalProperties: false,
  properties: { tokenId: { type: "string", pattern: "^[0-9]{1,78}$", maxLength: 78 } },
};

export function nftRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();

  router.get("/api/nft/:tokenId", validateParams(tokenIdParam), async (ctx) => {
    const row = await deps.db("app.passports as x")
      .join("app.products as p", "p.id", "x.product_id")
      .join("app.brands as b", "b.id", "p.brand_id")
      .where("x.token_id", ctx.params.tokenId)
      .first<{ uid: string; name: string; category: string; carbon_rating: string; carbon_kg: string; brand_name: string; data_hash: string } | undefined>(
        "p.uid", "p.name", "p.category", "p.carbon_rating", "p.carbon_kg", "b.name as brand_name", "x.data_hash",
      );
    if (!row) throw new NotFoundError("Token");
    const links = productLinks(deps.config, row.uid);
    sendWithEtag(ctx, {
      name: `${row.name} (${row.uid})`,
      description: `Digital Product Passport of ${row.name} by ${row.brand_name}.`,
      external_url: links.certificate_url,
      attributes: [
        { trait_type: "UID", value: row.uid },
        { trait_type: "Brand", value: row.brand_name },
        { trait_type: "Category", value: row.category },
        { trait_type: "Carbon rating", value: row.carbon_rating.trim() },
        { trait_type: "Carbon kg CO2e", value: Number(row.carbon_kg), display_type: "number" },
        { trait_type: "Data hash", value: row.data_hash },
      ],
      passport: links.dpp_url,
    }, 60);
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
