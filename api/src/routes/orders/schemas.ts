// JSON Schemas of the public order routes (placing and reading an order) and of the gateways' callbacks.
import { ORDER_STATES } from "../../orders/state-machine";
import { ORDER_ID_PATTERN } from "../../orders/order-secret";
import { PAYMENT_METHODS } from "../../plans/catalogue";
import type { JsonSchema } from "../../validation";
import { UID_PATTERN } from "../dpp/schemas";

export const ORDERS_TAG = "Orders";

const TIMESTAMP: JsonSchema = { type: "string", format: "date-time" };
const NULLABLE_TIMESTAMP: JsonSchema = { type: ["string", "null"], format: "date-time" };

export const orderBody = {
  type: "object",
  additionalProperties: false,
  required: ["uid", "method"],
  properties: {
    uid: { type: "string", maxLength: 43, pattern: UID_PATTERN, description: "the product to buy (its passport UID)" },
    method: { enum: [...PAYMENT_METHODS], description: "how to pay: one of the methods the scan page offered" },
    contact: {
      type: "object",
      additionalProperties: false,
      description: "optional, for the brand to reach the shopper about the order",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 100 },
        email: { type: "string", format: "email", maxLength: 254 },
        phone: { type: "string", pattern: "^\\+?[0-9][0-9 ()-]{5,19}$", maxLength: 20 },
      },
    },
  },
} as const;

export const orderIdParams = {
  type: "object",
  additionalProperties: false,
  required: ["order_id"],
  properties: { order_id: { type: "string", maxLength: 26, pattern: ORDER_ID_PATTERN, description: "the order's id (ord_…)" } },
} as const;

export const orderSecretQuery = {
  type: "object",
  additionalProperties: false,
  properties: { s: { type: "string", maxLength: 64, description: "the order secret, when the X-Order-Secret header cannot be sent" } },
} as const;

const money = {
  amount: { type: "string", pattern: "^[0-9]+\\.[0-9]{2}$", description: "the price paid, as a decimal string" },
  amount_minor: { type: "integer", minimum: 1, description: "the same in minor units (poisha, cents)" },
  currency: { type: "string", pattern: "^[A-Z]{3}$" },
};

const orderCore = {
  order_id: { type: "string", pattern: ORDER_ID_PATTERN },
  status: { enum: [...ORDER_STATES] },
  method: { enum: [...PAYMENT_METHODS] },
  uid: { type: "string" },
  product_name: { type: "string" },
  ...money,
};

export const placedOrderSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "order_secret", "status", "method", "uid", "product_name", "amount", "amount_minor", "currency", "expires_at", "status_url", "next"],
  properties: {
    ...orderCore,
    order_secret: { type: "string", description: "lets the shopper read the order (GET /api/orders/{order_id}); never shown again" },
    expires_at: TIMESTAMP,
    status_url: { type: "string", format: "uri", description: "the shopper's order status page, with the secret in the fragment" },
    next: {
      description: "what the shopper does next: go to the gateway's page, or show the Cash QR to the cashier",
      oneOf: [
        { type: "object", additionalProperties: false, required: ["type", "url"], properties: { type: { const: "redirect" }, url: { type: "string", format: "uri" } } },
        {
          type: "object",
          additionalProperties: false,
          required: ["type", "confirm_url", "qr_svg"],
          properties: {
            type: { const: "cash_qr" },
            confirm_url: { type: "string", format: "uri", description: "the cashier's confirmation address the QR code encodes (single use)" },
            qr_svg: { type: "string", description: "the QR code of confirm_url, as an SVG document" },
          },
        },
      ],
    },
  },
};

export const shopperOrderSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "status", "method", "uid", "product_name", "amount", "amount_minor", "currency", "created_at", "paid_at", "verified_at", "expires_at", "message"],
  properties: {
    ...orderCore,
    created_at: TIMESTAMP,
    paid_at: NULLABLE_TIMESTAMP,
    verified_at: NULLABLE_TIMESTAMP,
    expires_at: TIMESTAMP,
    message: { type: "string", description: "the state in a sentence for the shopper" },
  },
};

/** A gateway's callback query: the fields it names are read by its client; others it may add are allowed, bounded. */
export function callbackQuery(fields: Record<string, string>): JsonSchema {
  return {
    type: "object",
    additionalProperties: { type: "string", maxLength: 500 },
    properties: Object.fromEntries(Object.entries(fields).map(([name, description]) => [name, { type: "string", maxLength: 200, description }])),
  };
}

/** A form-encoded body a gateway posts (SSLCommerz IPN and returns), as documented; the handler reads it. */
export const gatewayForm = {
  type: "object",
  additionalProperties: { type: "string", maxLength: 2000 },
  properties: {
    tran_id: { type: "string", maxLength: 100, description: "our merchant reference" },
    val_id: { type: "string", maxLength: 100, description: "the validation id the validation API is asked with" },
    status: { type: "string", maxLength: 50 },
    verify_sign: { type: "string", maxLength: 100 },
    verify_key: { type: "string", maxLength: 2000 },
  },
} as const;

export const returnParams = {
  type: "object",
  additionalProperties: false,
  required: ["outcome"],
  properties: { outcome: { enum: ["success", "fail", "cancel"], description: "which of the three return URLs SSLCommerz sent the shopper to" } },
} as const;
