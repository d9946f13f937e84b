// JSON Schemas of a product's `translations` (v1 and dashboard product routes): the brand's own name and description
// per language, limited as the product's name (200) and description (2000).

const translation = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: 200 },
    description: { type: "string", minLength: 0, maxLength: 2000 },
  },
} as const;

/** In a create or edit: a language's words, or null to remove that language's translation. */
export const translationsInput = {
  type: "object",
  additionalProperties: false,
  description:
    'the brand\'s translations of the name and description shown on the shopper pages and the certificate PDF, e.g. {"bn": {"name": "…", "description": "…"}}; null removes one. Not part of the anchored passport content.',
  properties: {
    bn: { anyOf: [translation, { type: "null" }] },
    en: { anyOf: [translation, { type: "null" }] },
  },
} as const;

const translationOut = {
  type: "object",
  additionalProperties: false,
  required: ["name", "description"],
  properties: { name: { type: "string" }, description: { type: "string" } },
} as const;

/** In a read: the translations the product has (an empty object when none). */
export const translationsOutput = {
  type: "object",
  additionalProperties: false,
  description: "the brand's translations by language (bn, en); empty when none",
  properties: { bn: translationOut, en: translationOut },
} as const;
