// What a dashboard user does to a brand's products besides editing them: register one, and issue its certificate
// (the same idempotent, quota-counted issuance as POST /api/v1/certs/issue), each recorded in the audit log.
import type { AppDeps } from "../deps";
import { recordAudit, type Actor } from "../audit/service";
import type { BrandContext } from "../brands/service";
import { issueCertificate } from "../certificates/service";
import type { Issuance } from "../passports/issuance";
import { reanchorIfStale } from "./product-edits";
import { registerProduct, type CreateProductInput, type CreatedProduct } from "./service";

export async function createProduct(deps: AppDeps, brand: BrandContext, actor: Actor, input: CreateProductInput): Promise<CreatedProduct> {
  return deps.db.transaction(async (trx) => {
    const created = await registerProduct(trx, brand, input);
    await recordAudit(trx, brand.id, actor, { action: "product.created", target: created.uid, details: { sku: input.sku, name: input.name } });
    return created;
  });
}

/**
 * Issues the product's certificate. One certificate of the monthly quota is taken with the claim and given back only
 * if the issuance fails for good; a repeat, or a request that found another one minting, costs nothing.
 */
export async function issueProductCertificate(deps: AppDeps, brand: BrandContext, actor: Actor, uid: string): Promise<Issuance> {
  const issuance = await issueCertificate(deps, brand.id, uid, brand.limits);
  if (issuance.created) {
    await recordAudit(deps.db, brand.id, actor, { action: "certificate.issued", target: uid.toUpperCase(), details: { tx_hash: issuance.txHash, token_id: issuance.tokenId } });
    // The mint anchored the content read when it started; an edit saved meanwhile is anchored now, so the chain and
    // the stored content agree. The certificate stands either way: a failure here is logged, not thrown.
    await reanchorIfStale(deps, brand.id, actor, uid).catch((error: unknown) => deps.logger.error({ err: error, uid }, "re-anchoring after issuance failed"));
  }
  return issuance;
}
