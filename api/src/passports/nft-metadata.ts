// The ERC-721 metadata of a passport token: what ProductPassport.tokenURI points wallets and marketplaces at.
import type { AppDeps } from "../deps";
import { NotFoundError } from "../errors";
import { findTokenProduct } from "./issuance.repo";
import { productLinks } from "../links";

/** NOT_FOUND for a token id no issued passport has. */
export async function nftMetadata(deps: Pick<AppDeps, "db" | "config">, tokenId: string) {
  const row = await findTokenProduct(deps.db, tokenId);
  if (!row) throw new NotFoundError("Token");
  // The token's record in the registry, whatever the brand's own address: the main site.
  const links = productLinks(deps.config, row.uid, null);
  return {
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
  };
}
