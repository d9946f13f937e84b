// JSON Schemas of the dashboard's products, imports, scans and overview routes.
import { TAG_CHIPS } from "../../../tags/verdicts";
import type { JsonSchema } from "../../../validation";
import { publicRecordSchema, uidParam } from "../../dpp/schemas";
import { createProductBody } from "../../v1/products/schemas";
import { LIST_COUNT_CAP, LIST_CURSOR } from "../../../products/product-list";
import { PAGE_QUERY, TIMESTAMP } from "../base";
import { translationsOutput } from "../../../i18n/translation-schema";
import { textileSchema } from "../../../passports/textile";

export { createProductBody, uidParam };

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: "null" }] });
const hash = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" } as const;
const url = { type: "string", format: "uri" } as const;

export const productListQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    q: { type: "string", maxLength: 100, description: "searches UID, SKU and name, case-insensitively" },
    status: { enum: ["unissued", "pending", "verified", "lost", "stolen"], description: "the passport's state" },
    category: { type: "string", maxLength: 40, description: "exact category (as stored, lower case)" },
    ...PAGE_QUERY,
    after: {
      type: "string",
      pattern: LIST_CURSOR,
      description: "a page's meta.next_cursor: the page after it (then `page` only numbers the page, and no offset is counted)",
    },
    before: { type: "string", pattern: LIST_CURSOR, description: "a page's meta.prev_cursor: the page before it (not with `after`)" },
  },
} as const;

/**
 * What PATCH may change: the create body's fields, except the maker (recorded on chain at the mint); the textile
 * section is replaced whole, and null removes it (the passport goes back to content version 3).
 */
const { factory_id: _maker, ...editable } = createProductBody.properties;
export const editProductBody = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { ...editable, textile: { ...textileSchema, type: ["object", "null"], description: "the whole textile section (docs/textile.md); null removes it" } },
} as const;

export const tagBody = {
  type: "object",
  additionalProperties: false,
  required: ["tag_uid"],
  properties: {
    // NFC UIDs are 4, 7 or 10 bytes, written in hex.
    tag_uid: { type: "string", pattern: "^(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{20})$", maxLength: 20 },
    chip: { enum: [...TAG_CHIPS], description: "the tag's chip, for a tag not provisioned yet (NTAG215 when left out)" },
  },
} as const;

export const statusBody = {
  type: "object",
  additionalProperties: false,
  required: ["status"],
  properties: { status: { enum: ["lost", "stolen", "active"], description: '"active" marks a lost or stolen product recovered' } },
} as const;

export const importParams = { type: "object", required: ["id"], properties: { id: { type: "string", pattern: "^[1-9][0-9]{0,15}$" } } } as const;

export const scansQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    uid: { type: "string", maxLength: 43, pattern: "^[A-Za-z0-9]{2,10}-[A-Za-z0-9]{4,32}$", description: "only this product's scans" },
    days: { type: "string", pattern: "^(?:[1-9][0-9]?|[12][0-9]{2}|3[0-5][0-9]|36[0-5])$", description: "how many days back, 1 to 365 (default 30)" },
    ...PAGE_QUERY,
  },
} as const;

const passportStatus = { enum: ["unissued", "pending", "confirming", "verified"] } as const;

const summaryProperties = {
  uid: { type: "string" },
  sku: { type: "string" },
  name: { type: "string" },
  category: { type: "string" },
  passport_status: passportStatus,
  chain_status: { type: ["string", "null"], description: "active, lost, stolen or recovered, once the indexer has the mint" },
  tag_assigned: { type: "boolean" },
  created_at: TIMESTAMP,
  tx_hash: nullable(hash),
  explorer_url: nullable(url),
} as const;

export const productSummarySchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: Object.keys(summaryProperties),
  properties: summaryProperties,
};

export const pageMetaSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["page", "per_page", "total"],
  properties: { page: { type: "integer" }, per_page: { type: "integer" }, total: { type: "integer" } },
};

/** The product list's page: its total is exact up to LIST_COUNT_CAP, and beyond it the cap, said to be a lower bound. */
export const productPageMetaSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["page", "per_page", "total", "total_is_lower_bound", "next_cursor", "prev_cursor"],
  properties: {
    page: { type: "integer" },
    per_page: { type: "integer" },
    total: { type: "integer", description: `matching products, counted exactly up to ${LIST_COUNT_CAP.toLocaleString("en-US")}` },
    total_is_lower_bound: { type: "boolean", description: `true: more than ${LIST_COUNT_CAP.toLocaleString("en-US")} products match, and total is ${LIST_COUNT_CAP.toLocaleString("en-US")}` },
    next_cursor: { type: ["string", "null"], description: "send as `after` for the next page; null on the last page" },
    prev_cursor: { type: ["string", "null"], description: "send as `before` for the previous page; null on the first page" },
  },
};

const versionSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["version", "data_hash", "tx_hash", "explorer_url", "at", "kind", "status"],
  properties: {
    version: { type: "integer", minimum: 1 },
    data_hash: hash,
    tx_hash: nullable(hash),
    explorer_url: nullable(url),
    at: TIMESTAMP,
    kind: { enum: ["mint", "update"] },
    status: { enum: ["anchored", "pending"], description: "pending: sent, not yet confirmed by the chain (the product shows the previous content until it is)" },
  },
};

const detailProperties = {
  ...summaryProperties,
  description: { type: ["string", "null"] },
  fabric_type: { type: ["string", "null"] },
  price: { type: "number" },
  currency: { type: "string" },
  fiber_composition: {
    type: "array",
    items: { type: "object", required: ["fiber", "percent"], properties: { fiber: { type: "string" }, percent: { type: "number" } } },
  },
  care_instructions: { type: "string" },
  certifications: {
    type: "array",
    items: {
      type: "object",
      required: ["code", "issuer", "number", "valid_until"],
      properties: {
        code: { type: "string" },
        issuer: { type: "string" },
        number: { type: "string" },
        valid_until: { type: "string" },
        evidence_url: { type: "string" },
      },
    },
  },
  factory: {
    anyOf: [
      {
        type: "object",
        additionalProperties: false,
        required: ["id", "name", "city", "country"],
        properties: { id: { type: "integer" }, name: { type: ["string", "null"] }, city: { type: ["string", "null"] }, country: { type: ["string", "null"] } },
      },
      { type: "null" },
    ],
  },
  gtin: { type: ["string", "null"], description: "GTIN-14" },
  lot: { type: ["string", "null"] },
  serial: { type: ["string", "null"] },
  digital_link: { ...nullable(url), description: "the product's GS1 Digital Link URI (what its QR code and tag carry), when it has a GTIN" },
  translations: translationsOutput,
  textile: { ...nullable(textileSchema), description: "the textile section as stored (docs/textile.md), null when it has none" },
  passport: { ...publicRecordSchema, description: "the public record GET /api/dpp/{uid} serves" },
  links: {
    type: "object",
    additionalProperties: false,
    required: ["scan_url", "certificate_url", "pdf_url", "dpp_url"],
    properties: { scan_url: url, certificate_url: url, pdf_url: url, dpp_url: url },
  },
  versions: { type: "array", items: versionSchema, description: "the mint, then each re-anchoring of the content, oldest first" },
  tag: nullable({
    type: "object",
    additionalProperties: false,
    required: ["tag_hash", "tx_hash", "explorer_url"],
    properties: { tag_hash: hash, tx_hash: nullable(hash), explorer_url: nullable(url) },
  }),
} as const;

export const productDetailSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: Object.keys(detailProperties),
  properties: detailProperties,
};

export const certificateResultSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "status", "tx_hash", "explorer_url", "token_id", "certificate_url", "pdf_url"],
  properties: {
    uid: { type: "string" },
    status: { const: "minted" },
    tx_hash: hash,
    explorer_url: url,
    token_id: { type: "string", pattern: "^[0-9]{1,78}$" },
    certificate_url: url,
    pdf_url: url,
  },
};

export const tagResultSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["tag_hash", "tx_hash", "explorer_url"],
  properties: { tag_hash: hash, tx_hash: hash, explorer_url: url },
};

export const statusResultSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["status", "tx_hash", "explorer_url"],
  properties: { status: { enum: ["lost", "stolen", "recovered"], description: "the status on chain now" }, tx_hash: hash, explorer_url: url },
};

export const importSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "status", "total", "processed", "imported", "failed", "created_at", "finished_at", "errors_url"],
  properties: {
    id: { type: "string" },
    status: { enum: ["running", "done", "failed"] },
    total: { type: "integer", description: "product rows in the upload" },
    processed: { type: "integer" },
    imported: { type: "integer" },
    failed: { type: "integer" },
    created_at: TIMESTAMP,
    finished_at: nullable(TIMESTAMP),
    errors_url: nullable({ ...url, description: "the failed rows as uploaded, with an error column (text/csv)" }),
  },
};

const dailyCount = (fields: Record<string, JsonSchema>): JsonSchema => ({
  type: "array",
  items: { type: "object", additionalProperties: false, required: ["date", ...Object.keys(fields)], properties: { date: { type: "string", format: "date" }, ...fields } },
});

export const scansSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["daily", "items"],
  properties: {
    daily: dailyCount({ scans: { type: "integer" } }),
    items: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "uid", "product_name", "verified", "scanned_at"],
        properties: { id: { type: "string" }, uid: { type: "string" }, product_name: { type: "string" }, verified: { type: "boolean" }, scanned_at: TIMESTAMP },
      },
    },
  },
};

const meter: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["used", "limit"],
  properties: { used: { type: "integer" }, limit: { type: ["integer", "null"], description: "null: unlimited" } },
};

export const overviewSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["period", "plan", "meters", "daily", "products", "recent_activity"],
  properties: {
    period: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}$" },
    plan: {
      type: "object",
      additionalProperties: false,
      required: ["name", "tier", "title"],
      properties: { name: { type: "string" }, tier: { type: ["integer", "null"] }, title: { type: "string" } },
    },
    meters: {
      type: "object",
      additionalProperties: false,
      required: ["api_calls", "certs", "scans", "carbon_ratings"],
      properties: { api_calls: meter, certs: meter, scans: meter, carbon_ratings: meter },
    },
    daily: dailyCount({ scans: { type: "integer" }, certificates: { type: "integer" } }),
    products: {
      type: "object",
      additionalProperties: false,
      required: ["total", "certified"],
      properties: { total: { type: "integer" }, certified: { type: "integer" } },
    },
    recent_activity: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "actor", "action", "target", "details", "at"],
        properties: { id: { type: "string" }, actor: { type: "string" }, action: { type: "string" }, target: { type: ["string", "null"] }, details: { type: "object", additionalProperties: true, description: "what the action changed, by action: `role` for an invitation, `from` and `to` for a role change, …" }, at: TIMESTAMP },
      },
    },
  },
};
