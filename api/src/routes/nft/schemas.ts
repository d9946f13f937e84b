// JSON Schemas of GET /api/nft/:tokenId: the token id and the ERC-721 metadata (passports/nft-metadata.ts).
import type { JsonSchema } from "../../validation";

export const tokenIdParam = {
  type: "object",
  required: ["tokenId"],
  additionalProperties: false,
  properties: { tokenId: { type: "string", pattern: "^[0-9]{1,78}$", maxLength: 78, description: "uint256 token id, in decimal" } },
} as const;

export const nftMetadataSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "description", "external_url", "attributes", "passport"],
  properties: {
    name: { type: "string" },
    description: { type: "string" },
    external_url: { type: "string", format: "uri", description: "the certificate page" },
    attributes: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["trait_type", "value"],
        properties: { trait_type: { type: "string" }, value: { type: ["string", "number"] }, display_type: { const: "number" } },
      },
    },
    passport: { type: "string", format: "uri", description: "the public passport record" },
  },
};

export const NFT_METADATA_EXAMPLE = {
  name: "Organic Oxford Shirt (DEMO-7K3M9Q2X)",
  description: "Digital Product Passport of Organic Oxford Shirt by Demo Apparel Co.",
  external_url: "http://127.0.0.1:3000/dpp-certificate/DEMO-7K3M9Q2X",
  attributes: [
    { trait_type: "UID", value: "DEMO-7K3M9Q2X" },
    { trait_type: "Brand", value: "Demo Apparel Co." },
    { trait_type: "Category", value: "shirt" },
    { trait_type: "Carbon rating", value: "A" },
    { trait_type: "Carbon kg CO2e", value: 1.59, display_type: "number" },
    { trait_type: "Data hash", value: `0x${"39".repeat(32)}` },
  ],
  passport: "http://127.0.0.1:3000/api/dpp/DEMO-7K3M9Q2X",
};
