// The catalogue of webhook events: which names exist, who may subscribe to them, and the shape of each payload.
import { formatAmount } from "../payments/amounts";

/** Events a brand can subscribe to through POST /api/v1/webhook/register (spec 6.2). */
export const V1_EVENTS = ["product.certified", "order.verified", "scan.detected", "cert.issued", "issuance.completed"] as const;
/** Events sent to the brand's dashboard-configured receiver (spec 6.1). */
export const DASHBOARD_EVENTS = ["order.paid", "cert.issued", "scan.verified", "tag.assigned"] as const;

export type V1EventType = (typeof V1_EVENTS)[number];
export type DashboardEventType = (typeof DASHBOARD_EVENTS)[number];
export type EventType = V1EventType | DashboardEventType;

export const ALL_EVENTS: readonly EventType[] = [...new Set<EventType>([...V1_EVENTS, ...DASHBOARD_EVENTS])];

export function isEventType(value: string): value is EventType {
  return (ALL_EVENTS as readonly string[]).includes(value);
}

/** ISO 8601 UTC with milliseconds, the one timestamp format of every payload. */
export function isoTimestamp(at: Date = new Date()): string {
  return at.toISOString();
}

// Payload builders. Every payload starts with `event` and ends with `timestamp` (when the fact happened, not when
// it was delivered), so a receiver can route on one field and order on another.

/** Spec 6.2, exactly these five fields. */
export function productCertifiedPayload(p: { uid: string; txHash: string; certificateUrl: string; at: Date }) {
  return {
    event: "product.certified",
    uid: p.uid,
    tx_hash: p.txHash,
    certificate_url: p.certificateUrl,
    timestamp: isoTimestamp(p.at),
  };
}

/** Emitted by POST /api/v1/certs/issue when the certificate is issued (v1 and dashboard). */
export function certIssuedPayload(p: {
  uid: string;
  txHash: string;
  tokenId: string;
  networkUrl: string;
  certificateUrl: string;
  certificatePdfUrl: string;
  at: Date;
}) {
  return {
    event: "cert.issued",
    uid: p.uid,
    tx_hash: p.txHash,
    token_id: p.tokenId,
    network_url: p.networkUrl,
    certificate_url: p.certificateUrl,
    certificate_pdf_url: p.certificatePdfUrl,
    timestamp: isoTimestamp(p.at),
  };
}

/**
 * A bulk issuance (POST /api/v1/certs/bulk) is over: every passport it asked for is final at the confirmation depth
 * or failed for good. Sent once per job; each passport also has its own cert.issued and product.certified.
 */
export function issuanceCompletedPayload(p: {
  jobId: number;
  importId: number | null;
  total: number;
  confirmed: number;
  failed: number;
  progressUrl: string;
  at: Date;
}) {
  return {
    event: "issuance.completed",
    job_id: String(p.jobId),
    import_id: p.importId === null ? null : String(p.importId),
    total: p.total,
    confirmed: p.confirmed,
    failed: p.failed,
    progress_url: p.progressUrl,
    timestamp: isoTimestamp(p.at),
  };
}

/**
 * Chain-derived (dashboard): an NFC tag was linked to a product's token, seen at confirmation depth. The chain
 * holds keccak256 of the tag UID, not the UID itself, so the payload carries that hash.
 */
export function tagAssignedPayload(p: {
  uid: string;
  tokenId: string;
  tagHash: string;
  previousTagHash: string;
  txHash: string;
  blockNumber: number;
  at: Date;
}) {
  return {
    event: "tag.assigned",
    uid: p.uid,
    token_id: p.tokenId,
    tag_hash: p.tagHash,
    previous_tag_hash: p.previousTagHash,
    tx_hash: p.txHash,
    block_number: p.blockNumber,
    timestamp: isoTimestamp(p.at),
  };
}

/** A consumer scanned a product's tag: `scan.detected` (v1, every scan) and `scan.verified` (dashboard, verified only). */
export function scanPayload(
  event: "scan.detected" | "scan.verified",
  p: { scanId: number; uid: string; verified: boolean; tokenId: string | null; txHash: string | null; at: Date },
) {
  return {
    event,
    scan_id: p.scanId,
    uid: p.uid,
    verified: p.verified,
    token_id: p.tokenId,
    tx_hash: p.txHash,
    timestamp: isoTimestamp(p.at),
  };
}

/** An order whose payment was received (`order.paid`) or verified with the gateway (`order.verified`): orders/. */
export type Order = {
  orderId: string;
  uid: string;
  /** Minor units (poisha, cents); the payload also carries it as a decimal string. */
  amountMinor: number;
  currency: string;
  paymentMethod: "bkash" | "nagad" | "sslcommerz" | "cash_qr";
  /** The gateway's transaction id (bKash trxID, Nagad issuerPaymentRefNo, SSLCommerz bank_tran_id); null for Cash QR. */
  gatewayTrxId: string | null;
  /** When the order entered the state the event tells of. */
  at: Date;
};

/** `order.paid` (dashboard) and `order.verified` (v1): the same fields, told when each state is entered. */
export function orderPayload(event: "order.paid" | "order.verified", p: Order) {
  return {
    event,
    order_id: p.orderId,
    uid: p.uid,
    amount: formatAmount(p.amountMinor),
    amount_minor: p.amountMinor,
    currency: p.currency,
    payment_method: p.paymentMethod,
    gateway_trx_id: p.gatewayTrxId,
    uids: [p.uid],
    timestamp: isoTimestamp(p.at),
  };
}
