// Shapes the certificate issuance result (spec 2.6, plus the token and data needed to verify it).
import { explorerTxUrl } from "../../../links";
import type { Config } from "../../../config";
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
