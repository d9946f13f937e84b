// JSON Schemas of the dashboard's brand editor, logo, economic operator id, webhook, API key and usage routes.
import { ABOUT_MAX, TAGLINE_MAX, URL_MAX } from "../../../brands/branding";
import { ECONOMIC_OPERATOR_INPUT_MAX } from "../../../brands/economic-operator";
import { LOGO_MAX_BYTES } from "../../../brands/logo";
import { MAX_GRACE_SECONDS } from "../../../brands/service";
import { MAX_URL_LENGTH } from "../../../webhooks/endpoints";
import { V1_EVENTS } from "../../../webhooks/events";
import type { JsonSchema } from "../../../validation";
import { DELIVERY_ID_PATTERN, DELIVERY_STATUSES } from "../../v1/webhooks/schemas";
import { TIMESTAMP } from "../base";

// Colours, lengths and links are checked by brands/branding.ts, which names the rule broken ("must be a HEX colour
// #RRGGBB"); the schema bounds the input and its shape.
const colour = { type: ["string", "null"], maxLength: 7, description: "#RRGGBB; null: back to the default" } as const;
const link = { type: ["string", "null"], maxLength: URL_MAX, description: "https URL; null removes it" } as const;

/** PUT /api/dashboard/branding and POST …/preview: a string sets a field, null clears it, a field left out stays. */
export const brandingBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    primary_color: colour,
    secondary_color: colour,
    tagline: { type: ["string", "null"], maxLength: TAGLINE_MAX, description: `one line, at most ${TAGLINE_MAX} characters` },
    about: { type: ["string", "null"], maxLength: ABOUT_MAX, description: `at most ${ABOUT_MAX} characters` },
    social: {
      type: "object",
      additionalProperties: false,
      properties: {
        facebook: { ...link, description: "https URL on facebook.com; null removes it" },
        instagram: { ...link, description: "https URL on instagram.com; null removes it" },
        website: link,
      },
    },
  },
} as const;

/** Documents the logo upload's raw body (the handler reads it). */
export const logoBody: JsonSchema = {
  type: "string",
  contentMediaType: "image/png",
  maxLength: LOGO_MAX_BYTES,
  description: `the image file itself (not a form), PNG or WebP, at most ${LOGO_MAX_BYTES / (1024 * 1024)} MB`,
};

const contrast: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["ratio", "aa", "against_white_text", "against_page_background", "warning"],
  properties: {
    ratio: { type: "number", description: "the lower of the two ratios, rounded down to two decimals" },
    aa: { type: "boolean", description: "both ratios reach 4.5:1 (WCAG AA, normal text)" },
    against_white_text: { type: "number", description: "white text on the colour (header bar, buttons)" },
    against_page_background: { type: "number", description: "the colour on the pages' background #F3F4F6 (accents)" },
    warning: { type: ["string", "null"] },
  },
};

const nullableString = { type: ["string", "null"] } as const;

export const brandingSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "slug", "logo_url", "logo", "primary_color", "secondary_color", "defaults", "tagline", "about", "social", "contrast", "profile_url", "preview_uid"],
  properties: {
    name: { type: "string" },
    slug: { type: "string" },
    logo_url: { ...nullableString, description: "absolute URL of the logo the pages show at 44 px height" },
    logo: {
      type: ["object", "null"],
      additionalProperties: false,
      required: ["media_type", "width", "height"],
      properties: { media_type: { enum: ["image/png", "image/webp"] }, width: { type: "integer" }, height: { type: "integer" } },
      description: "the uploaded logo as stored (null when none was uploaded, even if an operator set logo_url)",
    },
    primary_color: { ...nullableString, description: "null: the default (see defaults)" },
    secondary_color: nullableString,
    defaults: {
      type: "object",
      additionalProperties: false,
      required: ["primary_color", "secondary_color"],
      properties: { primary_color: { type: "string" }, secondary_color: { type: "string" } },
    },
    tagline: nullableString,
    about: nullableString,
    social: {
      type: "object",
      additionalProperties: false,
      required: ["facebook", "instagram", "website"],
      properties: { facebook: nullableString, instagram: nullableString, website: nullableString },
    },
    contrast: {
      type: "object",
      additionalProperties: false,
      required: ["primary", "secondary"],
      properties: { primary: contrast, secondary: contrast },
      description: "of the colours in force (the defaults when unset)",
    },
    profile_url: { type: "string" },
    preview_uid: { ...nullableString, description: "the product the preview shows; null: a sample product" },
  },
};

export const logoAssetParams = {
  type: "object",
  required: ["slug", "file"],
  properties: {
    slug: { type: "string", maxLength: 40 },
    file: { type: "string", maxLength: 30, description: "logo-<first 16 hex digits of its SHA-256>.png or .webp" },
  },
} as const;

// --- Webhooks

const id = { type: "string", pattern: "^[1-9][0-9]{0,8}$", maxLength: 9 } as const;

export const endpointParams = { type: "object", additionalProperties: false, required: ["id"], properties: { id } } as const;

export const deliveryParams = {
  type: "object",
  additionalProperties: false,
  required: ["id", "deliveryId"],
  properties: { id, deliveryId: { type: "string", pattern: DELIVERY_ID_PATTERN, maxLength: 36 } },
} as const;

export const deliveriesQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    status: { type: "string", enum: DELIVERY_STATUSES },
    before: { type: "string", pattern: DELIVERY_ID_PATTERN, maxLength: 36, description: "meta.next_before of the previous page" },
    limit: { type: "string", pattern: "^(?:[1-9][0-9]?|100)$", maxLength: 3, description: "1-100, default 25" },
  },
} as const;

const url = { type: "string", minLength: 1, maxLength: MAX_URL_LENGTH, description: "receiver; https (http only in local mode)" } as const;

export const dashboardReceiverBody = { type: "object", additionalProperties: false, required: ["url"], properties: { url } } as const;

export const subscriptionBody = {
  type: "object",
  additionalProperties: false,
  required: ["url", "events"],
  properties: {
    url,
    events: { type: "array", minItems: 1, maxItems: V1_EVENTS.length, uniqueItems: true, items: { type: "string", enum: V1_EVENTS } },
  },
} as const;

export const endpointSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "kind", "url", "events", "enabled", "disabled_reason", "created_at", "secret_rotated_at", "previous_secret_valid_until", "last_delivery"],
  properties: {
    id: { type: "integer" },
    kind: { enum: ["dashboard", "v1"], description: "the dashboard receiver (spec 6.1) or a v1 subscription (spec 6.2)" },
    url: { type: "string" },
    events: { type: "array", items: { type: "string" } },
    enabled: { type: "boolean" },
    disabled_reason: nullableString,
    created_at: TIMESTAMP,
    secret_rotated_at: { type: ["string", "null"], format: "date-time" },
    previous_secret_valid_until: { type: ["string", "null"], format: "date-time", description: "while the old secret still signs" },
    last_delivery: {
      type: ["object", "null"],
      additionalProperties: false,
      required: ["status", "at"],
      properties: { status: { enum: [...DELIVERY_STATUSES] }, at: TIMESTAMP },
    },
  },
};

export const webhooksSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["dashboard", "subscriptions"],
  properties: { dashboard: { oneOf: [endpointSchema, { type: "null" }] }, subscriptions: { type: "array", items: endpointSchema } },
};

const signingSecret = { type: "string", description: "whsec_…; shown in this answer only" } as const;

export const createdEndpointSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["endpoint", "signing_secret"],
  properties: { endpoint: endpointSchema, signing_secret: signingSecret },
};

export const receiverSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["endpoint", "signing_secret"],
  properties: { endpoint: endpointSchema, signing_secret: { type: ["string", "null"], description: "only when the receiver is new; its URL changed otherwise" } },
};

export const deliverySchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "event", "status", "attempts", "last_status_code", "last_error", "created_at", "delivered_at", "next_attempt_at", "last_attempt_at"],
  properties: {
    id: { type: "string", description: "sent as webhook-id, the same on every attempt" },
    event: { type: "string" },
    status: { enum: [...DELIVERY_STATUSES] },
    attempts: { type: "integer" },
    last_status_code: { type: ["integer", "null"] },
    last_error: nullableString,
    created_at: TIMESTAMP,
    delivered_at: { type: ["string", "null"], format: "date-time" },
    next_attempt_at: { type: ["string", "null"], format: "date-time" },
    last_attempt_at: { type: ["string", "null"], format: "date-time" },
  },
};

export const testEventSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["delivery_id"],
  properties: { delivery_id: { type: "string", description: "follow it in the delivery log; the receiver gets it as webhook-id" } },
};

export const rotationSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["signing_secret", "previous_secret_valid_until"],
  properties: { signing_secret: signingSecret, previous_secret_valid_until: TIMESTAMP },
};

// --- API keys

export const keyParams = endpointParams;

export const createKeyBody = {
  type: "object",
  additionalProperties: false,
  properties: { label: { type: "string", minLength: 1, maxLength: 60 } },
} as const;

export const rotateKeyBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    grace_seconds: { type: "integer", minimum: 0, maximum: MAX_GRACE_SECONDS, description: "how long the old key stays valid (default 86400; 0: revoked now)" },
  },
} as const;

export const keySchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "prefix", "label", "created_at", "last_used_at", "revoked_at", "status"],
  properties: {
    id: { type: "integer" },
    prefix: { type: "string", description: "the key's first characters, to recognise it" },
    label: nullableString,
    created_at: TIMESTAMP,
    last_used_at: { type: ["string", "null"], format: "date-time", description: "to the minute" },
    revoked_at: { type: ["string", "null"], format: "date-time", description: "in the future while a rotated key is expiring" },
    status: { enum: ["active", "expiring", "revoked"] },
  },
};

export const issuedKeySchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["key", "id", "prefix", "label", "created_at"],
  properties: {
    key: { type: "string", description: "the key itself: shown in this answer only, stored hashed" },
    id: { type: "integer" },
    prefix: { type: "string" },
    label: nullableString,
    created_at: TIMESTAMP,
    old_key_id: { type: "integer" },
    old_key_expires_at: TIMESTAMP,
  },
};

// --- Usage

const meter: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["used", "limit"],
  properties: { used: { type: "integer", minimum: 0 }, limit: { type: ["integer", "null"], description: "null: unlimited" } },
};

export const usageSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["plan", "limits", "period", "meters", "usage_pct", "estimated_cost_usd", "endpoints"],
  properties: {
    plan: {
      type: "object",
      additionalProperties: false,
      required: ["name", "tier", "title", "price_usd_per_month", "notes"],
      properties: {
        name: { type: "string" },
        tier: { type: "integer" },
        title: { type: "string" },
        price_usd_per_month: { type: ["number", "null"] },
        notes: { type: "string" },
      },
    },
    limits: {
      type: "object",
      additionalProperties: false,
      required: ["api_calls_per_month", "requests_per_hour", "certs_per_month", "scans_per_month", "carbon_ratings_per_month"],
      properties: {
        api_calls_per_month: { type: "integer" },
        requests_per_hour: { type: "integer" },
        certs_per_month: { type: ["integer", "null"] },
        scans_per_month: { type: ["integer", "null"] },
        carbon_ratings_per_month: { type: ["integer", "null"] },
      },
      description: "the plan's, with the brand's own overrides (custom SLA)",
    },
    period: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}$", description: "UTC calendar month" },
    meters: {
      type: "object",
      additionalProperties: false,
      required: ["api_calls", "certs", "scans", "carbon_ratings"],
      properties: { api_calls: meter, certs: meter, scans: meter, carbon_ratings: meter },
    },
    usage_pct: { type: "number", description: "api calls used / limit × 100, as GET /api/v1/usage" },
    estimated_cost_usd: { type: "number" },
    endpoints: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["endpoint", "calls"],
        properties: { endpoint: { type: "string" }, calls: { type: "integer" } },
      },
    },
  },
};

// --- Economic operator

/** PUT /api/dashboard/economic-operator: brands/economic-operator.ts checks the value and names what is wrong. */
export const economicOperatorBody = {
  type: "object",
  additionalProperties: false,
  required: ["economic_operator_id"],
  properties: {
    economic_operator_id: {
      type: ["string", "null"],
      maxLength: ECONOMIC_OPERATOR_INPUT_MAX,
      description: "an EORI (two-letter country code and up to 15 letters or digits) or a GLN (13 digits, check digit valid); stored upper case without spaces; empty or null clears it",
    },
  },
} as const;

export const economicOperatorSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["economic_operator_id", "scheme"],
  properties: {
    economic_operator_id: { ...nullableString, description: "as passports' EN 18223 header shows it (economicOperatorId); null: not set" },
    scheme: { enum: ["eori", "gln", null], description: "which kind of identifier it is; null when not set" },
  },
};
