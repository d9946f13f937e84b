// Recording a counted scan: the scan row, its webhook events and one unit of the brand's monthly scans, together.
import type { CoreDeps } from "../deps";
import { MonthlyLimitError } from "../errors";
import { consumeQuota } from "../metering/service";
import type { PassportPage } from "../passports/passport-page";
import { effectiveLimits } from "../plans/catalogue";
import type { TapVerdict } from "../tags/verdicts";
import { emitScan } from "../webhooks/emitters";
import { insertScanEvent } from "./scans.repo";

export type ScanOutcome = { recorded: true; scanId: number } | { recorded: false; reason: "quota_exhausted" };

/** Rolls back a scan's writes when the quota refuses it. */
class QuotaExhausted extends Error {}

/**
 * Records one view of the scan page: the scan row, `scan.detected` and, when it was an authentic tap of a passport
 * verified on chain, `scan.verified`, and one unit of the brand's monthly scans, all in one transaction. When the
 * quota is exhausted nothing is written (the shopper still sees the page; the scan recorder logs it).
 */
export async function recordScan(deps: CoreDeps, view: PassportPage, verdict: TapVerdict = "unverified"): Promise<ScanOutcome> {
  const { brandRow, record, passport } = view;
  const limits = effectiveLimits({ plan: brandRow.plan, limit_overrides: brandRow.limitOverrides });
  const verified = record.blockchain.verified;
  try {
    return await deps.db.transaction(async (trx) => {
      const scan = await insertScanEvent(trx, passport.product.id, verified);
      await emitScan(trx, {
        brandId: brandRow.id,
        scanId: scan.id,
        uid: record.uid,
        verified,
        verdict,
        tokenId: record.blockchain.tx_hash ? record.blockchain.token_id : null,
        txHash: record.blockchain.tx_hash,
        at: scan.scannedAt,
      });
      // Metered last: the increment locks the brand's one counter row until commit, and every scan of the brand
      // queues on it, so it is held for the commit alone rather than for the inserts too.
      try {
        await consumeQuota(trx, brandRow.id, "scans", limits);
      } catch (error) {
        if (error instanceof MonthlyLimitError) throw new QuotaExhausted();
        throw error;
      }
      return { recorded: true, scanId: scan.id } as const;
    });
  } catch (error) {
    if (error instanceof QuotaExhausted) return { recorded: false, reason: "quota_exhausted" };
    throw error;
  }
}
