// Certificate issuance for a brand: quota, idempotent mint, and the certificate PDF.
import type { AppDeps } from "../deps";
import { getStoredBranding } from "../brands/branding";
import { NotFoundError } from "../errors";
import { issuePassport, type Issuance } from "../passports/issuance";
import { findProductByUid } from "../products/products.repo";
import type { CertificatePdfInput } from "./pdf";
import { brandProduct } from "../products/service";
import { brandAddressOf, certificatePageUrl, explorerTxUrl } from "../links";

export type QuotaGate = {
  /** Counts one certificate atomically, or throws MONTHLY_LIMIT_REACHED. */
  consume: () => Promise<void>;
  /** Gives the unit back when no new certificate came of it. */
  refund: () => Promise<void>;
};

/**
 * Issues the certificate of a brand's product. A repeat returns the first issuance and costs no quota; the quota
 * unit is taken before minting (so concurrent requests cannot overshoot the limit) and returned if the mint fails
 * or a concurrent request minted first.
 */
export async function issueCertificate(deps: AppDeps, brandId: number, uid: string, quota: QuotaGate): Promise<Issuance> {
  const product = await brandProduct(deps, brandId, uid);
  if (product.passport_status !== "minted") await quota.consume();
  else return issuePassport(deps, product);
  let issuance: Issuance;
  try {
    issuance = await issuePassport(deps, product);
  } catch (error) {
    await quota.refund();
    throw error;
  }
  if (!issuance.created) await quota.refund();
  return issuance;
}

/**
 * What the PDF of an issued certificate shows, read without rendering it (the caller names it by certificateDigest
 * and renders only on a cache miss); NOT_FOUND until the passport is minted.
 */
export async function certificatePdfInput(deps: AppDeps, uid: string): Promise<CertificatePdfInput> {
  const product = await findProductByUid(deps.db, uid);
  if (!product || product.passport_status !== "minted" || !product.passport_tx_hash) throw new NotFoundError("Certificate");
  const { branding } = await getStoredBranding(deps.db, product.brand_slug);
  const { config } = deps;
  return {
    brand: { name: product.brand_name, slug: product.brand_slug, primaryColor: branding.primary_color as string | undefined },
    product: { name: product.name, sku: product.sku, category: product.category },
    uid: product.uid,
    tokenId: product.passport_token_id!,
    contractAddress: product.passport_contract!,
    network: config.networkName,
    chainId: product.passport_chain_id ?? config.chainId,
    txHash: product.passport_tx_hash,
    dataHash: product.passport_data_hash!,
    issuedAt: product.passport_minted_at ?? new Date(),
    certificateUrl: certificatePageUrl(config, product.uid, brandAddressOf(product)),
    explorerUrl: explorerTxUrl(config, product.passport_tx_hash),
    carbon: { kg: Number(product.carbon_kg), rating: product.carbon_rating.trim() },
  };
}
