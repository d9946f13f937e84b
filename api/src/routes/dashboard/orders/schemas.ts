// JSON Schemas of the dashboard's orders, refunds, Gateway Keys, sales switch and the cashier's Cash QR confirmation.
import { CREDENTIAL_MAX_LENGTH } from "../../../orders/gateway-keys";
import { ORDER_ID_PATTERN } from "../../../orders/order-secret";
import { ORDER_STATES } from "../../../orders/state-machine";
import { PAYMENT_METHODS } from "../../../plans/catalogue";
import type { JsonSchema } from "../../../validation";
import { PAGE_QUERY, TIMESTAMP } from "../base";

const NULLABLE_TIMESTAMP: JsonSchema = { ...TIMESTAMP, type: ["string", "null"] };
const AMOUNT: JsonSchema = { type: "string", pattern: "^[0-9]+\\.[0-9]{2}$" };

export const orderListQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...PAGE_QUERY,
    status: { enum: [...ORDER_STATES] },
    method: { enum: [...PAYMENT_METHODS] },
    q: { type: "string", minLength: 1, maxLength: 100, description: "an order id, product UID, gateway transaction id or merchant reference" },
  },
} as const;

export const orderParams = {
  type: "object",
  additionalProperties: false,
  required: ["order_id"],
  properties: { order_id: { type: "string", maxLength: 26, pattern: ORDER_ID_PATTERN } },
} as const;

export const methodParams = {
  type: "object",
  additionalProperties: false,
  required: ["method"],
  properties: { method: { enum: [...PAYMENT_METHODS] } },
} as const;

export const refundBody = {
  type: "object",
  additionalProperties: false,
  required: ["reason"],
  properties: {
    amount_minor: { type: "integer", minimum: 1, maximum: 100_000_000_000_000, description: "minor units to refund; all that is left when left out" },
    reason: { type: "string", minLength: 1, maxLength: 200 },
  },
} as const;

export const gatewayKeysBody = {
  type: "object",
  additionalProperties: false,
  required: ["enabled"],
  properties: {
    credentials: {
      type: "object",
      maxProperties: 10,
      additionalProperties: { type: "string", maxLength: CREDENTIAL_MAX_LENGTH },
      description: "every field of the gateway (GET /api/dashboard/gateway-keys lists them); leave out to only switch a configured method on or off; none for cash_qr",
    },
    enabled: { type: "boolean", description: "whether the scan page offers the method" },
  },
} as const;

export const salesBody = {
  type: "object",
  additionalProperties: false,
  required: ["enabled"],
  properties: { enabled: { type: "boolean", description: "whether the brand's scan pages sell (a product also needs a price)" } },
} as const;

export const cashierBody = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "token"],
  properties: {
    order_id: { type: "string", maxLength: 26, pattern: ORDER_ID_PATTERN },
    token: { type: "string", minLength: 20, maxLength: 100, description: "the `t` of the Cash QR's URL fragment" },
  },
} as const;

const orderProperties: Record<string, JsonSchema> = {
  order_id: { type: "string", pattern: ORDER_ID_PATTERN },
  status: { enum: [...ORDER_STATES] },
  method: { enum: [...PAYMENT_METHODS] },
  uid: { type: "string" },
  product_name: { type: "string" },
  amount: AMOUNT,
  amount_minor: { type: "integer" },
  currency: { type: "string", pattern: "^[A-Z]{3}$" },
  gateway_trx_id: { type: ["string", "null"], description: "the gateway's transaction id once paid" },
  created_at: TIMESTAMP,
  paid_at: NULLABLE_TIMESTAMP,
  verified_at: NULLABLE_TIMESTAMP,
  refunded_minor: { type: "integer", minimum: 0 },
};

export const orderSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: Object.keys(orderProperties),
  properties: orderProperties,
};

export const orderListSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["orders", "page", "per_page", "total"],
  properties: { orders: { type: "array", items: orderSchema }, page: { type: "integer" }, per_page: { type: "integer" }, total: { type: "integer" } },
};

export const orderDetailSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: [...Object.keys(orderProperties), "reference", "expires_at", "failure_reason", "transitions", "refunds", "refundable", "refundable_minor", "not_refundable_reason"],
  properties: {
    ...orderProperties,
    reference: { type: "string", description: "the merchant reference the gateway knows the payment by" },
    expires_at: TIMESTAMP,
    failure_reason: { type: ["string", "null"] },
    transitions: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["from", "to", "reason", "actor", "at"],
        properties: { from: { enum: [...ORDER_STATES, null] }, to: { enum: [...ORDER_STATES] }, reason: { type: "string" }, actor: { type: "string" }, at: TIMESTAMP },
      },
    },
    refunds: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["amount", "amount_minor", "reason", "state", "gateway_refund_id", "actor", "created_at"],
        properties: {
          amount: AMOUNT,
          amount_minor: { type: "integer" },
          reason: { type: "string" },
          state: { enum: ["requested", "pending", "unknown", "refunded", "failed"], description: "unknown: the gateway's answer was lost; the amount stays reserved until it says whether the refund was made" },
          gateway_refund_id: { type: ["string", "null"] },
          actor: { type: "string" },
          created_at: TIMESTAMP,
        },
      },
    },
    refundable: { type: "boolean" },
    refundable_minor: { type: "integer", minimum: 0 },
    not_refundable_reason: { type: ["string", "null"], description: "why refundable is false" },
  },
};

export const gatewayKeysSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["sales_enabled", "plan", "methods"],
  properties: {
    sales_enabled: { type: "boolean" },
    plan: { type: "string" },
    methods: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["method", "label", "allowed_by_plan", "configured", "enabled", "fields", "checked_at"],
        properties: {
          method: { enum: [...PAYMENT_METHODS] },
          label: { type: "string" },
          allowed_by_plan: { type: "boolean" },
          configured: { type: "boolean" },
          enabled: { type: "boolean" },
          fields: {
            type: "array",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["name", "label", "secret", "hint"],
              properties: {
                name: { type: "string" },
                label: { type: "string" },
                secret: { type: "boolean", description: "never shown again once saved" },
                hint: { type: ["string", "null"], description: "a secret's last 4 characters, a non-secret's whole value; null until saved" },
              },
            },
          },
          checked_at: { ...NULLABLE_TIMESTAMP, description: "when the gateway last accepted the keys" },
        },
      },
    },
  },
};

export const cashierLookupSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "status", "product_name", "uid", "amount", "amount_minor", "currency", "expires_at", "brand_matches"],
  properties: {
    order_id: { type: "string" },
    status: { enum: [...ORDER_STATES] },
    product_name: { type: "string" },
    uid: { type: "string" },
    amount: AMOUNT,
    amount_minor: { type: "integer" },
    currency: { type: "string" },
    expires_at: TIMESTAMP,
    brand_matches: { type: "boolean", description: "false: the order is another brand's; it cannot be confirmed here" },
  },
};

export const cashierConfirmSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: [...Object.keys(orderProperties), "already_confirmed"],
  properties: { ...orderProperties, already_confirmed: { type: "boolean", description: "the order was confirmed before; nothing changed" } },
};
