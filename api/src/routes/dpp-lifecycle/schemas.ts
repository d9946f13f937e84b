// JSON Schemas of the EN 18222 lifecycle API (docs/dpp-api.md): path and query parameters, the create and patch
// bodies, the passport in both representations, and EN 18222's Result error object.
import type { JsonSchema } from "../../validation";
import { accessBlockSchema } from "../../access/schemas";
import { createProductBody } from "../../products/product-schema";
import { passportIdentitySchema } from "../dpp/schemas";

const props = createProductBody.properties;

/** A passport id or product id in a path: percent-encoded by the client, decoded by the router. */
export const dppIdParam = {
  type: "object",
  required: ["dppId"],
  additionalProperties: false,
  properties: { dppId: { type: "string", minLength: 1, maxLength: 70, description: "digitalProductPassportId (urn:uuid:…), percent-encoded" } },
} as const;

export const productIdParam = {
  type: "object",
  required: ["productId"],
  additionalProperties: false,
  properties: {
    productId: {
      type: "string",
      minLength: 1,
      maxLength: 300,
      description: "a UID, a GS1 Digital Link URI (…/01/{gtin}[/10/{lot}][/21/{serial}]) or a GS1 element string ((01){gtin}(21){serial}), percent-encoded",
    },
  },
} as const;

export const elementParams = {
  type: "object",
  required: ["dppId", "elementPath"],
  additionalProperties: false,
  properties: {
    dppId: dppIdParam.properties.dppId,
    elementPath: { type: "string", minLength: 1, maxLength: 300, description: "a header field (dppStatus) or a dot path in the content section (product.name)" },
  },
} as const;

export const versionParams = {
  type: "object",
  required: ["dppId", "version"],
  additionalProperties: false,
  properties: { dppId: dppIdParam.properties.dppId, version: { type: "string", pattern: "^[1-9][0-9]{0,8}$" } },
} as const;

const representation = { enum: ["compressed", "full"], description: "compressed (default): elements keyed by id; full: elements[] with their metadata" } as const;

export const representationQuery = {
  type: "object",
  additionalProperties: false,
  properties: { representation },
} as const;

export const dateQuery = {
  type: "object",
  required: ["date"],
  additionalProperties: false,
  properties: { date: { type: "string", maxLength: 40, description: "an ISO 8601 instant in UTC, e.g. 2026-11-27T10:00:00Z" }, representation },
} as const;

export const pagingQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    limit: { type: "string", pattern: "^(?:[1-9][0-9]?|[1-4][0-9]{2}|500)$", description: "ids per page, 1-500 (default 100)" },
    cursor: { type: "string", maxLength: 70, description: "paging_metadata.cursor of the previous page" },
  },
} as const;

export const productIdsBody = {
  type: "object",
  required: ["productIds"],
  additionalProperties: false,
  properties: { productIds: { type: "array", minItems: 1, maxItems: 100, items: productIdParam.properties.productId } },
} as const;

const dppIdValue = { type: "string", minLength: 1, maxLength: 70 } as const;

export const createDppBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    granularity: { enum: ["model", "batch", "item"], description: "item when left out" },
    model: { ...dppIdValue, description: "the model passport (a batch's or an item's); an item of a batch gets its batch's model" },
    batch: { ...dppIdValue, description: "the batch passport of an item" },
    product: {
      type: "object",
      additionalProperties: false,
      properties: {
        sku: props.sku,
        name: props.name,
        category: props.category,
        fabric_type: props.fabric_type,
        description: props.description,
        gtin: props.gtin,
        lot: props.lot,
        serial: props.serial,
      },
    },
    fiber_composition: props.fiber_composition,
    certifications: props.certifications,
    care_instructions: props.care_instructions,
    country_of_manufacture: props.country_of_manufacture,
    manufacturer: { type: "object", additionalProperties: false, required: ["factory_id"], properties: { factory_id: props.factory_id } },
    textile: { ...props.textile, description: "the textile section (docs/textile.md); a part left out is taken from the batch, then the model" },
    price: props.price,
    currency: props.currency,
  },
} as const;

export const mergePatchBody = {
  type: "object",
  description: "an RFC 7396 JSON Merge Patch of the passport as served (compressed): null removes, arrays replace; sent as application/merge-patch+json or application/json",
  maxProperties: 20,
  properties: { dppStatus: { enum: ["active", "inactive"] } },
  additionalProperties: { description: "the content section (keyed by its specification id) with the elements to change; header fields are read-only" },
} as const;

export const elementPatchBody = {
  type: "object",
  required: ["value"],
  additionalProperties: false,
  properties: { value: { description: "the element's new value: merged into an object element (RFC 7396), replacing any other" } },
} as const;

const nullableString = { type: ["string", "null"] } as const;

const headerProperties = {
  digitalProductPassportId: { type: "string", maxLength: 70 },
  uniqueProductIdentifier: { type: "string", format: "uri" },
  granularity: { enum: ["model", "batch", "item"] },
  dppSchemaVersion: { type: "string" },
  dppStatus: { enum: ["active", "inactive", "archived"] },
  lastUpdate: { type: "string", format: "date-time" },
  economicOperatorId: nullableString,
  facilityId: nullableString,
  contentSpecificationIds: { type: "array", items: { type: "string" } },
  backupUrl: { ...nullableString, description: "our extension: where the back-up operator serves this passport (BACKUP_OPERATOR_URL)" },
};

const anchorSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  description: "where the content section is anchored: keccak256 of its RFC 8785 canonical JSON is dataHash, on chain",
  required: ["status", "chainId", "contractAddress", "tokenId", "version", "dataHash", "transactionHash", "hashRule"],
  properties: {
    status: { enum: ["unissued", "pending", "anchored"] },
    chainId: { type: ["integer", "null"] },
    contractAddress: nullableString,
    tokenId: nullableString,
    version: { type: ["integer", "null"] },
    dataHash: nullableString,
    transactionHash: nullableString,
    hashRule: { type: "string" },
  },
};

const elementSchema: JsonSchema = {
  type: "object",
  required: ["elementId", "objectType", "dictionaryReference"],
  additionalProperties: false,
  properties: {
    elementId: { type: "string" },
    objectType: { enum: ["SingleValued", "MultiValued", "DataElementCollection", "MultiLanguage", "RelatedResource"] },
    dictionaryReference: { type: "string", format: "uri" },
    valueDataType: { type: "string" },
    value: {},
    elements: { type: "array", items: { $ref: "#/components/schemas/DataElement" } },
  },
};

export const DATA_ELEMENT_SCHEMA = elementSchema;

const registrationProperties = {
  version: { type: "integer", description: "the passport version registered" },
  state: { enum: ["queued", "registered", "failed"] },
  registryId: { ...nullableString, description: "the registry's id of the registration" },
  registeredAt: { ...nullableString, format: "date-time" },
  proof: {
    type: ["object", "null"],
    additionalProperties: false,
    required: ["timestamp", "dataHash", "jwt"],
    description: "the registry's proof of registration, kept once its signature verified against the registry's JWKS and its hash equalled the version's anchor",
    properties: {
      timestamp: { type: "string", format: "date-time" },
      dataHash: { type: "string", description: "keccak256 of the registered version's canonical content: its anchor on chain" },
      jwt: { type: "string", description: "the registry's signed proof (ES256 JWT)" },
    },
  },
  error: { ...nullableString, description: "why it failed, or why the last attempt did not go through" },
} as const;

/** A passport's registration at the EU registry, as its header shows it (our extension; docs/registry.md). */
const registrationSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: Object.keys(registrationProperties),
  properties: registrationProperties,
};

export const registerBody = {
  type: "object",
  required: ["digitalProductPassportIds"],
  additionalProperties: false,
  properties: {
    digitalProductPassportIds: { type: "array", minItems: 1, maxItems: 100, items: { type: "string", minLength: 1, maxLength: 70 }, description: "the passports to register (their latest anchored version)" },
  },
} as const;

export const registrationsSchema: JsonSchema = {
  type: "object",
  required: ["registrations"],
  additionalProperties: false,
  properties: {
    registrations: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["digitalProductPassportId", ...Object.keys(registrationProperties), "attempts"],
        properties: { digitalProductPassportId: { type: "string" }, ...registrationProperties, attempts: { type: "integer" } },
      },
    },
  },
};

/** The passport (compressed: the content section under its specification id; full: `elements`). */
export const dppSchema: JsonSchema = {
  type: "object",
  required: [...Object.keys(headerProperties), "anchor", "registration"],
  properties: {
    ...headerProperties,
    anchor: anchorSchema,
    registration: { oneOf: [{ type: "null" }, registrationSchema] },
    elements: { type: "array", items: { $ref: "#/components/schemas/DataElement" } },
    access: accessBlockSchema,
  },
  additionalProperties: {
    type: "object",
    description: "the content section, keyed by its content specification id (passports/content.ts; schema in docs/public-api.md)",
    properties: { passport: passportIdentitySchema },
  },
};

export const dppIdsSchema: JsonSchema = {
  type: "object",
  required: ["result", "paging_metadata"],
  additionalProperties: false,
  properties: {
    result: { type: "array", items: { type: "string" } },
    paging_metadata: { type: "object", additionalProperties: false, properties: { cursor: { type: "string" } } },
  },
};

export const versionsSchema: JsonSchema = {
  type: "object",
  required: ["versions"],
  additionalProperties: false,
  properties: {
    versions: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["version", "validFrom", "dataHash", "transactionHash", "blockNumber", "contentKept"],
        properties: {
          version: { type: "integer" },
          validFrom: { type: "string", format: "date-time" },
          dataHash: { type: "string" },
          transactionHash: nullableString,
          blockNumber: { type: ["integer", "null"] },
          contentKept: { type: "boolean" },
        },
      },
    },
  },
};

export const elementReadSchema: JsonSchema = {
  type: "object",
  description: "compressed: { <elementId>: value }; full: the element with its metadata (DataElement)",
  additionalProperties: { description: "the element's value (compressed), or a DataElement member (full)" },
};

export const canonicalContentSchema: JsonSchema = {
  type: "object",
  description: "the content section exactly as hashed (RFC 8785 canonical JSON); its members are those of the public record's content",
  additionalProperties: { description: "a content member" },
};

/** EN 18222's error object. */
export const resultSchema: JsonSchema = {
  type: "object",
  required: ["messages"],
  additionalProperties: false,
  properties: {
    messages: {
      type: "array",
      items: {
        type: "object",
        required: ["messageType", "text", "code", "correlationId", "timestamp"],
        additionalProperties: false,
        properties: {
          messageType: { enum: ["Error", "Exception", "Warning", "Info"] },
          text: { type: "string" },
          code: { type: "string" },
          correlationId: { type: "string" },
          timestamp: { type: "string", format: "date-time" },
        },
      },
    },
  },
};
