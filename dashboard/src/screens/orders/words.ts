// How the payment screens name order states and payment methods, and write amounts: one place for the orders list,
// an order's page, Gateway Keys and the cashier's screen. The states and methods are the API's own (its schema).
import type { DataOf } from "../../api/types";

type ListedOrder = DataOf<"/api/dashboard/orders", "get">["orders"][number];
export type OrderState = ListedOrder["status"];
export type PaymentMethod = ListedOrder["method"];

export type Tone = "ok" | "warn" | "bad" | "neutral";

/** Each state as a word with a badge tone (the word always shows; the colour only repeats it). */
export const ORDER_STATES: Record<OrderState, { text: string; tone: Tone; meaning: string }> = {
  created: { text: "Created", tone: "neutral", meaning: "The shopper chose a way to pay; nothing handed to a gateway yet." },
  pending: { text: "Awaiting payment", tone: "warn", meaning: "Handed to the gateway, or the Cash QR is shown: the shopper has not paid yet." },
  paid: { text: "Paid", tone: "ok", meaning: "The gateway confirmed the payment; our own check with it is still to come." },
  verified: { text: "Paid and verified", tone: "ok", meaning: "Paid, and checked with the gateway (or confirmed by your cashier)." },
  failed: { text: "Failed", tone: "bad", meaning: "The payment did not go through." },
  cancelled: { text: "Cancelled", tone: "neutral", meaning: "The shopper cancelled at the gateway." },
  expired: { text: "Expired", tone: "neutral", meaning: "Not paid in time." },
  refund_pending: { text: "Refund pending", tone: "warn", meaning: "A refund was asked of the gateway and has not settled yet." },
  refund_unknown: { text: "Refund unconfirmed", tone: "warn", meaning: "The gateway did not answer a refund; its amount stays reserved until the gateway says whether it was made." },
  refunded: { text: "Refunded", tone: "neutral", meaning: "Refunded in full." },
};

export const ORDER_STATE_KEYS = Object.keys(ORDER_STATES) as OrderState[];

export const METHOD_LABELS: Record<PaymentMethod, string> = {
  bkash: "bKash",
  nagad: "Nagad",
  sslcommerz: "Card (SSLCommerz)",
  cash_qr: "Cash QR",
};

export const METHOD_KEYS = Object.keys(METHOD_LABELS) as PaymentMethod[];

export function stateOf(state: OrderState): { text: string; tone: Tone; meaning: string } {
  return ORDER_STATES[state];
}

export function methodLabel(method: PaymentMethod): string {
  return METHOD_LABELS[method];
}

/**
 * "BDT 1,990.00": an amount in minor units (the API's `*_minor` fields: always hundredths, as orders store the
 * product's price × 100) in the order's currency.
 */
export function formatMinor(minor: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency, currencyDisplay: "code" }).format(minor / 100);
  } catch {
    return `${currency} ${(minor / 100).toFixed(2)}`;
  }
}

/** The API's decimal `amount` ("150.00") in its currency, written like formatMinor. */
export function formatAmount(amount: string, currency: string): string {
  return formatMinor(Math.round(Number(amount) * 100), currency);
}

/** "150", "150.5", "1,990.00" → minor units; undefined when it is not an amount with at most two decimals. */
export function parseMajor(text: string): number | undefined {
  const plain = text.trim().replace(/,/g, "");
  if (!/^\d{1,12}(?:\.\d{1,2})?$/.test(plain)) return undefined;
  const [whole, fraction = ""] = plain.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** Minor units as the refund field shows them: "150.00". */
export function majorText(minor: number): string {
  return (minor / 100).toFixed(2);
}
