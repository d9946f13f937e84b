// Which operation emits which events: one function per producing fact, called inside the producer's transaction.
// cert.issued is enqueued by passport issuance (passports/issuance.ts); product.certified and tag.assigned by the
// confirmation watcher (watcher.ts); scans by the scan recorder (scans/); order.paid and order.verified by the order
// state machine (orders/state-machine.ts); issuance.completed by the bulk issuance job (passports/bulk-issuance.ts).
import type { Knex } from "../db/knex";
import type { TapVerdict } from "../tags/verdicts";
import { issuanceCompletedPayload, orderPayload, scanPayload, type Order } from "./events";
import { enqueueEvent } from "./outbox";

/**
 * A counted scan. `verified`: the passport is verified on chain. `verdict`: what the tap's SUN check concluded
 * (tags/verification.ts); a scan without one was not a checked tap.
 */
export type ScanFact = {
  brandId: number;
  scanId: number;
  uid: string;
  verified: boolean;
  verdict?: TapVerdict;
  tokenId: string | null;
  txHash: string | null;
  at: Date;
};

/**
 * A recorded tag scan (a row of app.scan_events): `scan.detected` for v1 subscribers on every counted scan, and
 * `scan.verified` for the dashboard only when the scan was an authentic tap (its SUN signature checked and its counter
 * accepted) of a passport verified on chain: the spec's "tag scanned and product verified". Returns the event ids.
 */
export async function emitScan(trx: Knex, scan: ScanFact): Promise<string[]> {
  const ids = [
    await enqueueEvent(trx, {
      brandId: scan.brandId,
      type: "scan.detected",
      payload: scanPayload("scan.detected", scan),
      dedupeKey: `scan.detected:${scan.scanId}`,
    }),
  ];
  if (scan.verified && scan.verdict === "authentic") {
    ids.push(
      await enqueueEvent(trx, {
        brandId: scan.brandId,
        type: "scan.verified",
        payload: scanPayload("scan.verified", scan),
        dedupeKey: `scan.verified:${scan.scanId}`,
      }),
    );
  }
  return ids;
}

export type OrderFact = Order & { brandId: number };

/** An order entered `paid`: the gateway's completion (or the cashier) said the money was received. Dashboard only. */
export async function emitOrderPaid(trx: Knex, order: OrderFact): Promise<string> {
  return enqueueEvent(trx, { brandId: order.brandId, type: "order.paid", payload: orderPayload("order.paid", order), dedupeKey: `order.paid:${order.orderId}` });
}

/**
 * An order entered `verified`: our own re-read of the payment at the gateway matched the order (or, for Cash QR, the
 * cashier confirmed it). For v1 subscribers.
 */
export async function emitOrderVerified(trx: Knex, order: OrderFact): Promise<string> {
  return enqueueEvent(trx, {
    brandId: order.brandId,
    type: "order.verified",
    payload: orderPayload("order.verified", order),
    dedupeKey: `order.verified:${order.orderId}`,
  });
}

export type IssuanceCompletedFact = Parameters<typeof issuanceCompletedPayload>[0] & { brandId: number };

/** A bulk issuance ended (every passport final or failed): one `issuance.completed` per job, for v1 subscribers. */
export async function emitIssuanceCompleted(trx: Knex, job: IssuanceCompletedFact): Promise<string> {
  const { brandId, ...fact } = job;
  return enqueueEvent(trx, {
    brandId,
    type: "issuance.completed",
    payload: issuanceCompletedPayload(fact),
    dedupeKey: `issuance.completed:${job.jobId}`,
  });
}
