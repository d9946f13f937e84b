// Certificate issuance for a brand: quota, idempotent mint, and the certificate PDF.
import { publicContentOf } from "../access/reads";
import type { AppDeps } from "../deps";
import { getStoredBranding } from "../brands/branding";
import { NotFoundError } from "../errors";
import { issuePassport, type Issuance } from "../passports/issuance";
import { findProductByUid, type ProductRow } from "../products/products.repo";
import { passportContentFor, type PassportContent } from "../passports/content";
import { publicPassport } from "../passports/public-passport";
import { buildPublicRecord } from "../passports/public-record";
import type { EffectiveLimits } from "../plans/catalogue";
import type { CertificatePdfInput } from "./pdf";
import { brandProduct } from "../products/service";
import { brandAddressOf, certificatePageUrl, explorerTxUrl } from "../links";
import { productDigitalLink } from "../gs1/links";

/**
 * Issues the certificate of a brand's product. A new issuance counts one certificate of the brand's monthly quota,
 * taken in the same transaction as the claim (MONTHLY_LIMIT_REACHED leaves no claim) and refunded only if the
 * issuance fails for good; a repeat returns the first issuance and costs nothing.
 */
export async function issueCertificate(deps: AppDeps, brandId: number, uid: string, limits: EffectiveLimits): Promise<Issuance> {
  const product = await brandProduct(deps, brandId, uid);
  return issuePassport(deps, product, { brandId, limits });
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
  // The PDF is a public document (anyone may fetch it, and it is cached by what it shows): the public's view of the
  // content, without the elements the defaults or the brand give only to readers above the public (docs/access.md).
  const visible = (await publicContentOf(deps, product.uid, passportContentFor(product))).content;
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
    // The QR code: the product's GS1 Digital Link when it has a GTIN (any GS1 scanner reads it; a phone opens the
    // passport page through the resolver), else the certificate page.
    certificateUrl: productDigitalLink(config, product) ?? certificatePageUrl(config, product.uid, brandAddressOf(product)),
    explorerUrl: explorerTxUrl(config, product.passport_tx_hash),
    ...(visible.carbon ? { carbon: { kg: Number(product.carbon_kg), rating: product.carbon_rating.trim() } } : {}),
    ...lineageLine(product),
    ...(await textilePart(deps, product, visible.textile)),
  };
}

/** The certificate's "Covers" line, from the anchored passport section: only a model, a batch or a linked item has one. */
function lineageLine(product: ProductRow): Pick<CertificatePdfInput, "lineage"> {
  const identity = passportContentFor(product).passport;
  if (!identity || (identity.granularity === "item" && !identity.model && !identity.batch)) return {};
  return {
    lineage: {
      granularity: identity.granularity,
      ...(identity.model ? { model: identity.model.uid } : {}),
      ...(identity.batch ? { batch: identity.batch.uid } : {}),
      ...(identity.granularity === "batch" ? { lot: product.lot } : {}),
    },
  };
}

/**
 * The anchored textile section (content version 4) as the public sees it, printed on the certificate's textile pages,
 * and the facilities' confirmations of its stages as the public record has them (read only for a passport with stages).
 */
async function textilePart(deps: AppDeps, product: ProductRow, textile: PassportContent["textile"]): Promise<Pick<CertificatePdfInput, "textile" | "stageAttestations">> {
  if (!textile) return {};
  if (!textile.stages?.length) return { textile };
  // The record's `textile_stages`, outside the anchored content: a stage's confirmation, or null while only declared.
  const { textile_stages: stages } = buildPublicRecord(deps.config, await publicPassport(deps, product.uid));
  return { textile, stageAttestations: stages.map((stage) => (stage.confirmation ? { confirmed_at: stage.confirmation.confirmed_at } : null)) };
}
