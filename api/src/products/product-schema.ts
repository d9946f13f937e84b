// The JSON Schema of a product's fields as a brand sends them (spec 4.8 and its extensions): the v1 registration body,
// and what the EN 18222 API checks a merge patch's new values against. Here, in the domain, so both use one.
import { EU_FIBRE_NAMES } from "../passports/fibres";
import { CERTIFICATION_CODES } from "../factories/reputation";
import { translationsInput } from "../i18n/translation-schema";
import { textileSchema } from "../passports/textile";

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
    // The textile section (content version 4, docs/textile.md): anchored with the rest.
    textile: textileSchema,
    // Presentation only (docs/languages.md): saved beside the product, never anchored.
    translations: translationsInput,
  },
} as const;

