// The JSON a shopper gets of an order: as placed (with its secret and next step) and as read later (with a sentence
// saying where it stands).
import type { Config } from "../../config";
import { orderStatusUrl } from "../../links";
import { METHOD_LABELS } from "../../orders/gateways";
import type { OrderRecord, PlacedOrder } from "../../orders/service";
import { EN } from "../../i18n/catalogue.en";
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

/** Where the order stands, in a sentence for the shopper: the English catalogue's, as the order page shows it. */
export function shopperMessage(order: OrderRecord): string {
  return EN.orderMessage(order.state, METHOD_LABELS[order.method], order.method === "cash_qr");
}
