// The webhook events a brand can hear about, in words.
import type { BodyOf } from "../../api/types";

type SubscribableEvent = BodyOf<"/api/dashboard/webhooks", "post">["events"][number];

/** What a v1 subscription may choose (the API's V1_EVENTS; the type-check holds the two together). */
export const V1_EVENTS = ["product.certified", "cert.issued", "scan.detected", "order.verified", "issuance.completed"] as const satisfies readonly SubscribableEvent[];

/** What the dashboard receiver gets, all of them (the API's DASHBOARD_EVENTS). */
export const DASHBOARD_EVENTS = ["order.paid", "cert.issued", "scan.verified", "tag.assigned"] as const;

export const EVENT_TEXT: Record<string, string> = {
  "product.certified": "a product's passport is certified on chain",
  "cert.issued": "a certificate is issued",
  "scan.detected": "a shopper scans a product",
  "scan.verified": "a shopper's tap is verified (NTAG 424)",
  "order.verified": "a payment is verified",
  "order.paid": "an order is paid",
  "tag.assigned": "an NFC tag is linked to a product",
  "issuance.completed": "a bulk issuance (every passport of an import, or a list of UIDs) is finished",
};
