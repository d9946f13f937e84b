// JSON Schemas of the v1 product routes (spec 4.8, 2.4, 2.5, 2.7).
import type { JsonSchema } from "../../../validation";
import { translationsOutput } from "../../../i18n/translation-schema";

export { createProductBody } from "../../../products/product-schema";

export { uidParam } from "../../dpp/schemas";

export const registrationResult: JsonSchema = {
  type: "object",
  required: ["uid", "product_id", "sku", "name", "dpp_url", "certificate_url", "scan_url", "embed_snippet", "carbon_rating", "carbon_kg"],
  properties: {
    uid: { type: "string" },
    product_id: { type: "integer" },
    sku: { type: "string" },
    name: { type: "string" },
    dpp_url: { type: "string", format: "uri" },
    certificate_url: { type: "string", format: "uri" },
    scan_url: { type: "string", format: "uri" },
    embed_snippet: { type: "string" },
    carbon_rating: { enum: ["A", "B", "C", "D"] },
    carbon_kg: { type: "number" },
  },
};

const provenanceSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  description: "where each value came from: declared by the brand, or filled in at registration (unknown: neither)",
  required: ["fiber_composition", "care_instructions", "country_of_manufacture"],
  properties: {
    fiber_composition: { enum: ["declared", "derived_from_fabric_type", "unknown"] },
    care_instructions: { enum: ["declared", "brand_default", "category_default", "unknown"] },
    country_of_manufacture: { enum: ["declared", "factory", "brand_default", "unknown"] },
  },
};

/** Spec 2.5 and every field the record adds to it, each declared: the OpenAPI example is checked against this. */
export const certificateRecord: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "product", "dpp_url", "blockchain", "carbon_footprint_kg", "certifications", "fiber_composition", "care_instructions", "country_of_manufacture", "provenance"],
  properties: {
    uid: { type: "string" },
    product: {
      type: "object",
      additionalProperties: false,
      required: ["id", "title", "sku", "price", "currency", "category", "fabric_type", "description", "factory_id", "created_at"],
      properties: {
        id: { type: "integer" },
        title: { type: "string" },
        sku: { type: "string" },
        price: { type: "number" },
        currency: { type: "string", pattern: "^[A-Z]{3}$" },
        category: { type: "string" },
        fabric_type: { type: ["string", "null"] },
        description: { type: ["string", "null"] },
        factory_id: { type: ["integer", "null"] },
        created_at: { type: "string", format: "date-time" },
        gtin: { type: ["string", "null"], pattern: "^[0-9]{14}$", description: "GTIN-14" },
        lot: { type: ["string", "null"] },
        serial: { type: ["string", "null"] },
        translations: translationsOutput,
      },
    },
    dpp_url: { type: "string", format: "uri" },
    blockchain: {
      type: "object",
      additionalProperties: false,
      required: ["verified", "tx_hash", "network", "status", "token_id", "contract", "explorer_url"],
      properties: {
        verified: { type: "boolean" },
        tx_hash: { type: ["string", "null"] },
        network: { type: "string" },
        status: { enum: ["unissued", "pending", "confirming", "verified"] },
        token_id: { type: "string" },
        contract: { type: ["string", "null"] },
        explorer_url: { type: ["string", "null"] },
      },
    },
    carbon_footprint_kg: { type: "number" },
    certifications: {
      type: "array",
      description: "the certificates the brand declared, as it declared them",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["code", "issuer", "number", "valid_until"],
        properties: {
          code: { type: "string", description: "the certification scheme (GOTS, OEKO-TEX, …)" },
          issuer: { type: "string" },
          number: { type: "string" },
          valid_until: { type: "string", format: "date" },
          evidence_url: { type: "string", format: "uri" },
        },
      },
    },
    fiber_composition: { type: "string", minLength: 1, description: '"60% cotton, 40% polyester"; "not declared" when unknown' },
    care_instructions: { type: "string", minLength: 1, description: '"not declared" only for products registered before defaults existed' },
    country_of_manufacture: { type: "string", pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2; ZZ (unknown region) when nobody gave one" },
    provenance: provenanceSchema,
  },
};

export const enrichmentRecord: JsonSchema = {
  type: "object",
  required: ["uid", "carbon_kg", "carbon_rating", "warranty_months", "warranty_type", "warranty_terms_en", "dpp_url"],
  properties: {
    uid: { type: "string" },
    carbon_kg: { type: "number" },
    carbon_rating: { enum: ["A", "B", "C", "D"] },
    warranty_months: { type: "integer" },
    warranty_type: { type: "string" },
    warranty_terms_en: { type: "string" },
    dpp_url: { type: "string", format: "uri" },
  },
};
