// JSON Schemas of the v1 product routes (spec 4.8, 2.4, 2.5, 2.7).
import { EU_FIBRE_NAMES } from "../../../passports/fibres";
import { CERTIFICATION_CODES } from "../../../factories/reputation";
import type { JsonSchema } from "../../../validation";
import { translationsInput, translationsOutput } from "../../../i18n/translation-schema";

const text = (maxLength: number, minLength = 1) => ({ type: "string", minLength, maxLength }) as const;

/** The request body; `as const`, so the handler's input type is read from it. */
export const createProductBody = {
  type: "object",
  additionalProperties: false,
  required: ["sku", "name", "category", "price"],
  properties: {
    sku: { type: "string", minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9][A-Za-z0-9._/-]*$" },
    name: text(200),
    category: { type: "string", minLength: 2, maxLength: 40, pattern: "^[A-Za-z][A-Za-z -]*$" },
    fabric_type: text(60),
    price: { type: "number", minimum: 0, maximum: 1_000_000_000 },
    description: text(2000, 0),
    // ISO 4217 code of the price; BDT when absent (spec 4.8: "in BDT or local currency").
    currency: { type: "string", pattern: "^[A-Za-z]{3}$" },
    // Extensions beyond spec 4.8, all optional.
    factory_id: { type: "integer", minimum: 1, maximum: 999_999_999 },
    fiber_composition: {
      type: "array",
      minItems: 1,
      maxItems: 10,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["fiber", "percent"],
        properties: {
          fiber: { enum: EU_FIBRE_NAMES },
          percent: { type: "number", exclusiveMinimum: 0, maximum: 100 },
        },
      },
    },
    certifications: {
      type: "array",
      maxItems: 10,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["code", "issuer", "number", "valid_until"],
        properties: {
          code: { enum: CERTIFICATION_CODES },
          issuer: text(120),
          number: text(80),
          valid_until: { type: "string", format: "date", maxLength: 10 },
          evidence_url: { type: "string", format: "uri", pattern: "^https?://", maxLength: 500 },
        },
      },
    },
    care_instructions: text(500, 0),
    country_of_manufacture: { type: "string", pattern: "^[A-Z]{2}$", maxLength: 2 },
    // GS1 identifiers (docs/digital-link.md): the check digit and character set are checked by the product rules, so
    // the error says what is wrong. An empty string is none (an edit removing it).
    gtin: { type: "string", maxLength: 14, description: "GTIN-8, -12, -13 or -14 with its check digit; stored as GTIN-14" },
    lot: { type: "string", maxLength: 20, description: "batch or lot number (GS1 AI 10), with a GTIN" },
    serial: { type: "string", maxLength: 20, description: "serial number (GS1 AI 21), with a GTIN; a GTIN and serial are one item, service-wide" },
    // Presentation only (docs/languages.md): saved beside the product, never anchored.
    translations: translationsInput,
  },
} as const;

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
