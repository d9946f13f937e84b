// The cashier's till: the Cash QR orders waiting to be paid at the brand's tills. A cashier's overview is this, not
// the brand-wide overview (meters, products, audit entries), which their role may not read.
import type { AppDeps } from "../../../deps";
import { cashOrdersWaiting, TILL_LIMIT } from "../../../orders/cash-qr";
import type { OrderRecord } from "../../../orders/service";
import { formatAmount } from "../../../payments/amounts";
import type { JsonSchema } from "../../../validation";
import { defineRoute, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok, TIMESTAMP } from "../base";

const waitingOrderSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "uid", "product_name", "amount", "currency", "created_at", "expires_at"],
  properties: {
    order_id: { type: "string" },
    uid: { type: "string" },
    product_name: { type: "string" },
    amount: { type: "string", pattern: "^[0-9]+\\.[0-9]{2}$" },
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
    created_at: TIMESTAMP,
    expires_at: { ...TIMESTAMP, description: "after this the order can no longer be confirmed; the shopper places a new one" },
  },
};

export const tillSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["waiting"],
  properties: { waiting: { type: "array", maxItems: TILL_LIMIT, items: waitingOrderSchema, description: `placed, not paid, not expired; newest first, at most ${TILL_LIMIT}` } },
};

function presentWaiting(order: OrderRecord) {
  return {
    order_id: order.id,
    uid: order.uid,
    product_name: order.productName,
    amount: formatAmount(order.amountMinor),
    currency: order.currency,
    created_at: order.createdAt.toISOString(),
    expires_at: order.expiresAt.toISOString(),
  };
}

export function tillRoutes(deps: AppDeps): Route[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/dashboard/cashier/till",
      operationId: "dashboardCashierTill",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "orders.confirm",
      summary: "The Cash QR orders waiting to be paid at the till: product and amount of each, newest first",
      description: "A cashier confirms one by scanning the QR code on the shopper's screen (its link carries the one-time token); this list only says what to expect.",
      responses: { "200": { description: "the waiting orders", schema: envelopeSchema(tillSchema) } },
      handler: async (ctx) => ok(ctx, { waiting: (await cashOrdersWaiting(deps.db, ctx.state.brand.id)).map(presentWaiting) }),
    }),
  ];
}
