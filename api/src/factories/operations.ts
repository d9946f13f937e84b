// Factory-write operations: each writes on chain through the shared wallet and returns the transaction.
import { keccak256, toUtf8Bytes } from "ethers";
import type { AppDeps } from "../deps";
import type { Operator } from "../auth/sessions";
import { getBrand } from "../brands/service";
import { sendAndConfirm, type SentTransaction } from "../chain/transactions";
import { BrandInactiveError, ConflictError, ForbiddenError, NotFoundError } from "../errors";
import { dataHashOf, tokenIdOf } from "../passports/content";
import { confirmMaker, findProductByUid, type ProductRow } from "../products/products.repo";
import { effectiveLimits } from "../plans/catalogue";
import { certificationMask } from "./reputation";
import { saveFactoryProfile, type FactoryProfileInput } from "./service";
import { saveSupplyChainDetails } from "../passports/supply-chain.repo";
import { issueCertificate } from "../certificates/service";
import { explorerTxUrl } from "../links";
import { recordConfirmedTagAssignment } from "../tags/service";

export type RegisterFactoryInput = FactoryProfileInput & { verified?: boolean };

/** An operator acts only for its own factory; an admin acts for any. */
export function assertActsFor(operator: Pick<Operator, "role" | "factory_id">, factoryId: number): void {
  if (operator.role === "admin") return;
  if (operator.factory_id !== factoryId) throw new ForbiddenError(`This operator cannot act for factory ${factoryId}.`);
}

/**
 * A factory writes only to the passports of products it made, as their brand declared (`products.factory_id`):
 * otherwise one factory's operator could put a counterfeit's tag on, or record steps in, another factory's product.
 * An admin acts for any factory, on any product.
 */
function assertMadeBy(operator: Operator, product: ProductRow, factoryId: number): void {
  if (operator.role === "admin") return;
  if (product.factory_id === null || Number(product.factory_id) !== factoryId) {
    throw new ForbiddenError(`Product ${product.uid} is not made by factory ${factoryId}.`);
  }
}

async function requireRegistered(deps: AppDeps, factoryId: number): Promise<void> {
  if (!(await deps.chain.contracts().registry.isRegistered(factoryId))) throw new NotFoundError("Factory");
}

export async function registerFactory(deps: AppDeps, operator: Operator, input: RegisterFactoryInput) {
  if (operator.role !== "admin") throw new ForbiddenError("Registering a factory needs an admin.");
  const { registry } = deps.chain.contracts();
  if (await registry.isRegistered(input.factory_id)) throw new ConflictError(`Factory ${input.factory_id} is registered already.`);
  const metadataHash = await saveFactoryProfile(deps.db, input);
  const country = `0x${Buffer.from(input.country, "latin1").toString("hex")}`;
  const registration = await sendAndConfirm(deps, () => registry.registerFactory(input.factory_id, metadataHash, country));
  const transactions: Array<SentTransaction & { action: string }> = [{ action: "register", ...registration }];
  const mask = certificationMask(input.certifications ?? []);
  if (mask !== 0) transactions.push({ action: "set_certifications", ...(await sendAndConfirm(deps, () => registry.setCertifications(input.factory_id, mask))) });
  if (input.verified) transactions.push({ action: "verify", ...(await sendAndConfirm(deps, () => registry.verifyFactory(input.factory_id))) });
  return { factory_id: input.factory_id, metadata_hash: metadataHash, ...registration, transactions };
}

/**
 * Mints the passport of a product whose brand named this factory as its maker. The maker is the brand's to declare:
 * a product with none is not claimed here but issued by its brand (POST /api/v1/certs/issue). Either way the
 * certificate is the brand's, so it counts against the brand's monthly certificate quota and needs an active brand.
 */
export async function mintForFactory(deps: AppDeps, operator: Operator, factoryId: number, uid: string) {
  assertActsFor(operator, factoryId);
  await requireRegistered(deps, factoryId);
  const product = await findProductByUid(deps.db, uid);
  if (!product) throw new NotFoundError("Product");
  if (product.factory_id === null) {
    throw new ForbiddenError(`Product ${product.uid} names no maker; its brand issues its certificate.`);
  }
  if (Number(product.factory_id) !== factoryId) throw new ForbiddenError(`Product ${product.uid} is made by another factory.`);
  const brand = await getBrand(deps.db, product.brand_slug);
  if (brand.status !== "active") throw new BrandInactiveError();
  const issuance = await issueCertificate(deps, brand.id, product.uid, effectiveLimits({ plan: brand.plan, limit_overrides: brand.limitOverrides }));
  await confirmMaker(deps.db, product.id, factoryId);
  return {
    uid: product.uid,
    token_id: issuance.tokenId,
    data_hash: issuance.dataHash,
    created: issuance.created,
    tx_hash: issuance.txHash,
    explorer_url: issuance.txHash ? explorerTxUrl(deps.config, issuance.txHash) : null,
    block_number: issuance.blockNumber,
  };
}

async function mintedProduct(deps: AppDeps, operator: Operator, factoryId: number, uid: string) {
  assertActsFor(operator, factoryId);
  await requireRegistered(deps, factoryId);
  const product = await findProductByUid(deps.db, uid);
  if (!product) throw new NotFoundError("Product");
  assertMadeBy(operator, product, factoryId);
  const tokenId = tokenIdOf(product.uid);
  if (!(await deps.chain.contracts().passport.exists(tokenId))) throw new ConflictError(`Product ${product.uid} has no passport on chain yet; mint it first.`);
  return { product, tokenId };
}

export async function assignTag(deps: AppDeps, operator: Operator, factoryId: number, uid: string, tagUid: string) {
  const { product, tokenId } = await mintedProduct(deps, operator, factoryId, uid);
  const { passport } = deps.chain.contracts();
  const tagHash = keccak256(toUtf8Bytes(tagUid.toUpperCase()));
  const holder = await passport.passportOfTag(tagHash);
  if (holder !== 0n) throw new ConflictError(holder.toString() === tokenId ? "This tag is assigned to this product already." : "This tag is assigned to another product.");
  const sent = await sendAndConfirm(deps, () => passport.assignTag(tokenId, tagHash));
  await confirmMaker(deps.db, product.id, factoryId);
  await recordConfirmedTagAssignment(deps, { brandId: product.brand_id, productId: product.id, tagUid });
  return { uid: product.uid, token_id: tokenId, tag_hash: tagHash, ...sent };
}

export async function recordSupplyChainEvent(
  deps: AppDeps,
  operator: Operator,
  factoryId: number,
  input: { uid: string; stage: number; details?: Record<string, string | number | boolean> },
) {
  const { product, tokenId } = await mintedProduct(deps, operator, factoryId, input.uid);
  const details = { uid: product.uid, factory_id: factoryId, stage: input.stage, recorded_at: new Date().toISOString(), ...(input.details ?? {}) };
  const detailsHash = dataHashOf(details);
  await saveSupplyChainDetails(deps.db, detailsHash, details);
  const { passport } = deps.chain.contracts();
  const sent = await sendAndConfirm(deps, () => passport.recordSupplyChainEvent(tokenId, factoryId, input.stage, detailsHash));
  await confirmMaker(deps.db, product.id, factoryId);
  return { uid: product.uid, token_id: tokenId, stage: input.stage, details_hash: detailsHash, ...sent };
}
