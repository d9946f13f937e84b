// JSON Schemas of the public DPP route: the UID path parameter and the public passport record (spec 2.3; fields
// explained in docs/public-api.md, built by passports/public-record.ts).
import { CONTENT_SCHEMAS } from "../../passports/content";
import { TEXTILE_STAGES, textileSchema } from "../../passports/textile";
import { PASSPORT_STATUSES } from "../../passports/stages";
import type { JsonSchema } from "../../validation";
import { accessBlockSchema } from "../../access/schemas";

import { UID_PATTERN } from "../../passports/uid";

export { UID_PATTERN };

export const uidParam = {
  type: "object",
  required: ["uid"],
  additionalProperties: false,
  properties: { uid: { type: "string", maxLength: 43, pattern: UID_PATTERN, description: "product UID, case-insensitive" } },
} as const;

const nullable = (type: string) => ({ type: [type, "null"] });
const hash = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" };
const nullableHash = { type: ["string", "null"], pattern: "^0x[0-9a-fA-F]{64}$" };

/** The three public addresses of a product (api/src/links.ts). */
export const linksSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["dpp_url", "certificate_url", "scan_url"],
  properties: {
    dpp_url: { type: "string", format: "uri", description: "this record; a page for a browser" },
    certificate_url: { type: "string", format: "uri" },
    scan_url: { type: "string", format: "uri" },
  },
};

const factorySchema = {
  factory_id: { type: "integer" },
  name: { type: "string" },
  city: { type: "string" },
  country: { type: "string" },
};

const parentRefSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "uid", "data_hash"],
  description: "the parent passport, pinned to the version (data hash) current when this one was made",
  properties: { id: { type: "string" }, uid: { type: "string" }, data_hash: { type: "string", pattern: "^0x[0-9a-f]{64}$" } },
};

/** Version 3's `passport` section (passports/content.ts: PassportIdentity). */
export const passportIdentitySchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  description: "version 3: the persistent passport id (EN 18219), its granularity, and the model and batch it belongs to",
  required: ["id", "granularity"],
  properties: {
    id: { type: "string", maxLength: 70, description: "digitalProductPassportId: urn:uuid:<UUID>" },
    granularity: { enum: ["model", "batch", "item"] },
    model: parentRefSchema,
    batch: parentRefSchema,
    inherited: {
      type: "object",
      description: "field of this content → the level (model or batch) its value was taken from",
      additionalProperties: { enum: ["model", "batch"] },
    },
  },
};

/** The anchored part of a passport (passports/content.ts): version 2 adds `provenance`, version 3 `passport`. */
const contentSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  description: "the anchored part: keccak256 of its RFC 8785 canonical JSON equals blockchain.data_hash",
  required: ["schema", "uid", "brand", "product", "fiber_composition", "certifications", "manufacturer", "country_of_manufacture", "carbon", "care_instructions"],
  properties: {
    schema: { enum: [...CONTENT_SCHEMAS] },
    uid: { type: "string" },
    brand: {
      type: "object",
      additionalProperties: false,
      required: ["slug", "name"],
      properties: { slug: { type: "string" }, name: { type: "string" } },
    },
    product: {
      type: "object",
      additionalProperties: false,
      required: ["sku", "name", "category", "fabric_type", "description"],
      properties: {
        sku: { type: "string" },
        name: { type: "string" },
        category: { type: "string" },
        fabric_type: nullable("string"),
        description: nullable("string"),
        gtin: { type: "string", pattern: "^[0-9]{14}$", description: "GTIN-14, only when the product has one (docs/digital-link.md)" },
        lot: { type: "string", description: "GS1 lot (AI 10), only with a GTIN" },
        serial: { type: "string", description: "GS1 serial (AI 21), only with a GTIN" },
      },
    },
    fiber_composition: {
      type: "array",
      description: "EU 1007/2011 fibre names; the percentages sum to 100; empty when unknown",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["fiber", "percent"],
        properties: { fiber: { type: "string" }, percent: { type: "number" } },
      },
    },
    certifications: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["code", "issuer", "number", "valid_until"],
        properties: {
          code: { type: "string" },
          issuer: { type: "string" },
          number: { type: "string" },
          valid_until: { type: "string", format: "date" },
          evidence_url: { type: "string", format: "uri" },
        },
      },
    },
    manufacturer: {
      type: ["object", "null"],
      additionalProperties: false,
      required: ["factory_id", "name", "city", "country"],
      properties: factorySchema,
    },
    country_of_manufacture: { type: ["string", "null"], description: "ISO 3166-1 alpha-2" },
    carbon: {
      type: "object",
      additionalProperties: false,
      required: ["kg_co2e", "rating"],
      properties: { kg_co2e: { type: "number" }, rating: { type: "string" } },
    },
    care_instructions: { type: "string" },
    provenance: {
      type: "object",
      additionalProperties: false,
      description: "version 2: where each value came from, declared by the brand or filled in at registration",
      required: ["fiber_composition", "care_instructions", "country_of_manufacture"],
      properties: {
        fiber_composition: { enum: ["declared", "derived_from_fabric_type", "unknown"] },
        care_instructions: { enum: ["declared", "brand_default", "category_default", "unknown"] },
        country_of_manufacture: { enum: ["declared", "factory", "brand_default", "unknown"] },
      },
    },
    passport: passportIdentitySchema,
    textile: textileSchema,
  },
};

/** A model or batch passport the record links to, resolved now (passports/public-record.ts: ParentLink). */
const parentLinkSchema: JsonSchema = {
  type: ["object", "null"],
  additionalProperties: false,
  required: ["dpp_id", "uid", "name", "lot", "dpp_url", "scan_url", "pinned_data_hash", "current_data_hash", "pinned_is_current"],
  properties: {
    dpp_id: { type: "string", description: "its persistent passport id (digitalProductPassportId)" },
    uid: { type: "string" },
    name: { ...nullable("string"), description: "its product name now; null when it is no longer in the registry" },
    lot: { ...nullable("string"), description: "its lot number (AI 10), where it has one" },
    dpp_url: { type: "string", format: "uri" },
    scan_url: { type: "string", format: "uri" },
    pinned_data_hash: { ...hash, description: "the data hash of its version this passport was made from (anchored in content.passport)" },
    current_data_hash: { ...nullableHash, description: "the data hash of its current anchored version" },
    pinned_is_current: { type: ["boolean", "null"], description: "whether the pinned version is still its current one; null before it is anchored" },
  },
};

/** Outside `content`: the links of `content.passport`, resolved. */
const lineageSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  description: "the level this passport covers and the model and batch passports it was made from, resolved now",
  required: ["granularity", "model", "batch", "inherited"],
  properties: {
    granularity: { enum: ["model", "batch", "item"] },
    model: parentLinkSchema,
    batch: parentLinkSchema,
    inherited: {
      type: "array",
      description: "the fields of `content` taken from the model or the batch, by field name",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["field", "from", "uid"],
        properties: { field: { type: "string" }, from: { enum: ["model", "batch"] }, uid: { type: "string", description: "the UID of the passport it came from" } },
      },
    },
  },
};

export const publicRecordSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "content", "supply_chain_events", "blockchain", "textile_stages", "links", "lineage"],
  properties: {
    uid: { type: "string" },
    content: { ...contentSchema, description: "the anchored content, less the elements above the reader's access class (listed in access.withheld; docs/access.md)" },
    access: accessBlockSchema,
    manufacturer: {
      type: ["object", "null"],
      additionalProperties: false,
      description: "the maker, outside the anchored content: whether it confirmed making the product can change after the mint; absent when content.manufacturer is withheld from the reader",
      required: ["factory_id", "name", "city", "country", "verified", "attribution"],
      properties: {
        ...factorySchema,
        verified: { type: "boolean", description: "a maker that confirmed it, and a verified factory in the registry now" },
        attribution: { enum: ["confirmed_by_factory", "declared_by_brand"] },
      },
    },
    supply_chain_events: {
      type: "array",
      description: "the steps recorded on chain, oldest first",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "stage_code", "stage", "factory_id", "factory_name", "place", "time", "block_number", "tx_hash", "explorer_url", "details_hash"],
        properties: {
          id: { type: "string" },
          stage_code: { type: "integer", minimum: 1 },
          stage: { type: "string", description: "the contract's name of the stage; unknown for a code it does not name" },
          factory_id: { type: "integer" },
          factory_name: nullable("string"),
          place: nullable("string"),
          time: { type: "string", format: "date-time" },
          block_number: { type: "integer" },
          tx_hash: hash,
          explorer_url: { type: "string", format: "uri" },
          details_hash: { type: "string" },
        },
      },
    },
    blockchain: {
      type: "object",
      additionalProperties: false,
      required: [
        "verified", "status", "network", "chain_id", "contract", "token_id", "tx_hash", "explorer_url", "block_number", "confirmations",
        "required_confirmations", "data_hash", "data_hash_version", "computed_data_hash", "data_hash_matches", "hash_rule", "passport_status", "nfc_tag_hash",
      ],
      properties: {
        verified: { type: "boolean", description: "minted and indexed at the configured confirmation depth" },
        status: { enum: ["unissued", "pending", "confirming", "verified"] },
        network: { type: "string" },
        chain_id: { type: "integer" },
        contract: nullable("string"),
        token_id: { type: "string", pattern: "^[0-9]{1,78}$", description: "uint256(keccak256(UID in upper case)), in decimal" },
        tx_hash: nullableHash,
        explorer_url: { type: ["string", "null"], format: "uri" },
        block_number: nullable("integer"),
        confirmations: { type: "integer", minimum: 0 },
        required_confirmations: { type: "integer", minimum: 1 },
        data_hash: { ...nullableHash, description: "what the chain holds now (from the indexer)" },
        data_hash_version: nullable("integer"),
        computed_data_hash: { ...hash, description: "recomputed from `content` as served" },
        data_hash_matches: { type: ["boolean", "null"], description: "null before issuance" },
        hash_rule: { const: "keccak256(RFC 8785 canonical JSON of `content`)" },
        passport_status: { enum: [...PASSPORT_STATUSES, "unknown", null] },
        nfc_tag_hash: { ...nullableHash, description: "keccak256 of the assigned tag's UID (hex, upper case)" },
      },
    },
    textile_stages: {
      type: "array",
      description:
        "the stages of content.textile (empty without them), outside the anchored content: whether each stage's facility " +
        "confirmed it can change after the mint (docs/textile.md)",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["index", "stage", "facility", "attribution", "confirmation"],
        properties: {
          index: { type: "integer", minimum: 0, description: "the stage's position in content.textile.stages" },
          stage: textileSchema.properties.stages.items.properties.stage,
          facility: {
            type: "object",
            additionalProperties: false,
            description: "as declared, less the name or identifier the reader's access class withholds (docs/access.md)",
            properties: textileSchema.properties.stages.items.properties.facility.properties,
          },
          started: textileSchema.properties.stages.items.properties.started,
          completed: textileSchema.properties.stages.items.properties.completed,
          attribution: { enum: ["confirmed_by_facility", "declared_by_brand"] },
          confirmation: {
            type: ["object", "null"],
            additionalProperties: false,
            description: "the facility's confirmation of the stage exactly as declared; null when only the brand declared it",
            required: ["factory_id", "confirmed_by", "confirmed_at", "token_of", "tx_hash", "explorer_url", "block_number", "details_hash", "details"],
            properties: {
              factory_id: { type: "integer", description: "the registry factory the facility is" },
              confirmed_by: { enum: ["factory_operator", "admin"], description: "the factory's own operator, or an admin acting for it" },
              confirmed_at: { type: "string", format: "date-time" },
              token_of: { type: "string", description: "the UID of the passport whose token holds the event: this one, or the model or batch it took its stages from" },
              tx_hash: hash,
              explorer_url: { type: "string", format: "uri" },
              block_number: { type: "integer" },
              details_hash: { ...hash, description: "the event's detailsHash: keccak256 of the RFC 8785 JSON of details" },
              details: {
                type: ["object", "null"],
                description: "what the factory confirmed: the stage as declared and the content hash it was declared in (null when the reader's access class withholds the facility)",
                properties: {
                  kind: { const: "textile_stage_confirmation" },
                  uid: { type: "string" },
                  factory_id: { type: "integer" },
                  stage: { type: "integer", description: "the supply-chain stage code of the on-chain event" },
                  textile_stage: { enum: [...TEXTILE_STAGES] },
                  stage_index: { type: "integer", minimum: 0 },
                  declared: textileSchema.properties.stages.items,
                  content_hash: hash,
                  confirmed_by: { enum: ["factory_operator", "admin"] },
                  recorded_at: { type: "string", format: "date-time" },
                },
              },
            },
          },
        },
      },
    },
    links: linksSchema,
    lineage: lineageSchema,
  },
};

/** A record as the demo serves it after `npm start`: the example of GET /api/dpp/{uid}. */
export const PUBLIC_RECORD_EXAMPLE = {
  uid: "DEMO-7K3M9Q2X",
  content: {
    schema: "passport-registry/dpp-content/1",
    uid: "DEMO-7K3M9Q2X",
    brand: { slug: "demo-apparel", name: "Demo Apparel Co." },
    product: { sku: "DA-OXF-001", name: "Organic Oxford Shirt", category: "shirt", fabric_type: "organic cotton", description: null },
    fiber_composition: [{ fiber: "cotton", percent: 100 }],
    certifications: [{ code: "GOTS", issuer: "Control Union", number: "CU-1234567", valid_until: "2027-06-30", evidence_url: "https://example.com/gots/CU-1234567" }],
    manufacturer: { factory_id: 1001, name: "Banani Loomcraft Apparels Ltd.", city: "Dhaka", country: "BD" },
    country_of_manufacture: "BD",
    carbon: { kg_co2e: 1.59, rating: "A" },
    care_instructions: "Machine wash at 30 °C. Do not bleach.",
  },
  manufacturer: { factory_id: 1001, name: "Banani Loomcraft Apparels Ltd.", city: "Dhaka", country: "BD", verified: true, attribution: "confirmed_by_factory" },
  supply_chain_events: [
    {
      id: "0x6b5c…-3",
      stage_code: 6,
      stage: "sewn",
      factory_id: 1001,
      factory_name: "Banani Loomcraft Apparels Ltd.",
      place: "Dhaka, BD",
      time: "2026-11-22T09:10:15.000Z",
      block_number: 72,
      tx_hash: `0x${"6b".repeat(32)}`,
      explorer_url: `http://127.0.0.1:3000/explorer/tx/0x${"6b".repeat(32)}`,
      details_hash: `0x${"3a".repeat(32)}`,
    },
  ],
  blockchain: {
    verified: true,
    status: "verified",
    network: "hardhat-local",
    chain_id: 31337,
    contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    token_id: "44981658092057552536133201839373791414657990487574918188685188671768504738285",
    tx_hash: `0x${"5c".repeat(32)}`,
    explorer_url: `http://127.0.0.1:3000/explorer/tx/0x${"5c".repeat(32)}`,
    block_number: 69,
    confirmations: 88,
    required_confirmations: 1,
    data_hash: `0x${"39".repeat(32)}`,
    data_hash_version: 1,
    computed_data_hash: `0x${"39".repeat(32)}`,
    data_hash_matches: true,
    hash_rule: "keccak256(RFC 8785 canonical JSON of `content`)",
    passport_status: "active",
    nfc_tag_hash: `0x${"a2".repeat(32)}`,
  },
  textile_stages: [],
  links: {
    dpp_url: "http://127.0.0.1:3000/api/dpp/DEMO-7K3M9Q2X",
    certificate_url: "http://127.0.0.1:3000/dpp-certificate/DEMO-7K3M9Q2X",
    scan_url: "http://127.0.0.1:3000/scan/DEMO-7K3M9Q2X",
  },
  lineage: { granularity: "item", model: null, batch: null, inherited: [] },
};
