// The JSON a shopper gets of an order: as placed (with its secret and next step) and as read later (with a sentence
// saying where it stands).
import type { Config } from "../../config";
import { orderStatusUrl } from "../../links";
import { METHOD_LABELS } from "../../orders/gateways";
import type { OrderRecord, PlacedOrder } from "../../orders/service";
import { formatAmount } from "../../payments/amounts";
import { qrSvg } from "../../pages/qr-code";

/** The fields every view of an order starts with, the shopper's and the dashboard's. */
export function presentOrderCore(order: OrderRecord) {
  return {
    order_id: order.id,
    status: order.state,
    method: order.method,
    uid: order.uid,
    product_name: order.productName,
    amount: formatAmount(order.amountMinor),
    amount_minor: order.amountMinor,
    currency: order.currency,
  };
}

export async function presentPlacedOrder(config: Pick<Config, "publicBaseUrl">, placed: PlacedOrder) {
  const { order, secret, next } = placed;
  return {
    ...presentOrderCore(order),
    order_secret: secret,
    expires_at: order.expiresAt.toISOString(),
    status_url: orderStatusUrl(config, order.id, secret),
    next: next.type === "redirect" ? next : { type: "cash_qr" as const, confirm_url: next.confirmUrl, qr_svg: await qrSvg(next.confirmUrl) },
  };
}

export function presentShopperOrder(order: OrderRecord) {
  return {
    ...presentOrderCore(order),
    created_at: order.createdAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
    verified_at: order.verifiedAt?.toISOString() ?? null,
    expires_at: order.expiresAt.toISOString(),
    message: shopperMessage(order),
  };
}

/** Where the order stands, in a sentence for the shopper. */
export function shopperMessage(order: OrderRecord): string {
  const gateway = METHOD_LABELS[order.method];
  switch (order.state) {
    case "created":
      return "Your order is being set up.";
    case "pending":
      return order.method === "cash_qr" ? "Show the QR code to the cashier to pay." : `Waiting for your payment with ${gateway}.`;
    case "paid":
      return `Payment received. We are confirming it with ${gateway}.`;
    case "verified":
      return "Payment received. Thank you.";
    case "failed":
      return "The payment did not go through. You can try again.";
    case "cancelled":
      return "The payment was cancelled.";
    case "expired":
      return "This order expired before it was paid. Nothing was charged; you can place a new one.";
    case "refund_pending":
      return "Your payment is being refunded.";
    case "refund_unknown":
      return `A refund was asked for; the shop is confirming it with ${gateway}.`;
    case "refunded":
      return "Your payment was refunded.";
  }
}
