// Shapes the certificate issuance result (spec 2.6, plus the token and data needed to verify it) and a bulk issuance.
import { explorerTxUrl } from "../../../links";
import type { Config } from "../../../config";
import type { BulkIssuance } from "../../../passports/bulk-issuance";
import type { Issuance } from "../../../passports/issuance";
import { certificatePdfUrl, type BrandAddress } from "../../../links";

export function presentIssuance(config: Config, uid: string, issuance: Issuance, brand: BrandAddress | null) {
  return {
    uid,
    tx_hash: issuance.txHash,
    network_url: explorerTxUrl(config, issuance.txHash!),
    certificate_pdf_url: certificatePdfUrl(config, uid, brand),
    status: "minted" as const,
    token_id: issuance.tokenId,
    contract: issuance.contractAddress,
    network: config.networkName,
    block_number: issuance.blockNumber,
    data_hash: issuance.dataHash,
    issued_at: (issuance.mintedAt ?? new Date()).toISOString(),
  };
}

/** A bulk issuance with its progress; `progressUrl` is where the caller reads it again (v1 or dashboard). */
export function presentBulkIssuance(job: BulkIssuance, progressUrl: string) {
  return {
    id: String(job.id),
    state: job.state,
    import_id: job.import_id === null ? null : String(job.import_id),
    total: job.total,
    claimed: job.claimed,
    minted: job.minted,
    confirmed: job.confirmed,
    failed: job.failed,
    progress_url: progressUrl,
    created_at: job.created_at.toISOString(),
    completed_at: job.completed_at ? job.completed_at.toISOString() : null,
  };
}
