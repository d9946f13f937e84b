// NFC tags a brand links to its products from the dashboard: claimed in Postgres (a tag on one product only, one
// assignment in flight per product), written on chain with ProductPassport.assignTag, and confirmed. The
// `tag.assigned` webhook is not sent from here: the confirmation watcher (webhooks/watcher.ts) sends it once the
// indexer holds the assignment at the confirmation depth, as for tags a factory assigns. A 7-byte UID also gets the
// brand's tag record (app.tags, which tap verification reads), bound to the product once the chain confirms.
import { keccak256, toUtf8Bytes } from "ethers";
import type { Knex } from "../db/knex";
import type { AppDeps } from "../deps";
import { recordAudit, type Actor } from "../audit/service";
import { ConflictError, NotFoundError, ServiceUnavailableError } from "../errors";
import { explorerTxUrl } from "../links";
import { fromViews } from "../onchain/views";
import { tokenIdOf } from "../passports/content";
import { broadcastPassportWrite, confirmPassportWrite, sentWriteState, UNCONFIRMED_AFTER_MS, WriteNotConfirmed } from "../products/passport-writes";
import { findProductByUid, type ProductRow } from "../products/products.repo";
import { lockProduct } from "../products/versions.repo";
import { bindTagToProduct, ensureTagRecord, unbindOtherTags } from "./tag-records.repo";
import type { TagChip } from "./verdicts";
import {
  claimTag,
  findAssignedTag,
  findIndexedTagAssignment,
  findPendingTag,
  markTagAssigned,
  markTagFailed,
  recordTagTx,
  type ProductTagRow,
} from "./tags.repo";

/** keccak256 of the upper-case tag UID: what the chain stores, so the UID itself never goes on chain. */
export function tagHashOf(tagUid: string): string {
  return keccak256(toUtf8Bytes(tagUid.toUpperCase()));
}

export type AssignedTag = { tagHash: string; txHash: string; explorerUrl: string };

/**
 * Assigns the NFC tag `tagUid` to the brand's product (replacing its tag, if it had one). The passport must be minted.
 * `chip` says what the tag is when it has no record yet (or corrects it); without it a new record is an NTAG215.
 */
export async function assignProductTag(
  deps: AppDeps,
  brandId: number,
  actor: Actor,
  uid: string,
  tagUid: string,
  options: { chip?: TagChip } = {},
): Promise<AssignedTag> {
  const product = await findProductByUid(deps.db, uid, brandId);
  if (!product) throw new NotFoundError("Product");
  if (product.passport_status !== "minted") throw new ConflictError("Issue the product's certificate first: a tag is linked to its passport on chain.");
  await settlePendingTag(deps, product);
  const tokenId = tokenIdOf(product.uid);
  const tagHash = tagHashOf(tagUid);
  const { passport } = deps.chain.contracts();
  // The chain is the authority on where a tag is (a factory may have assigned it): ask it first, for a clear 409.
  const holder = await passport.passportOfTag(tagHash).catch(() => undefined);
  if (holder !== undefined && holder !== 0n) throw tagTaken(holder.toString() === tokenId);

  const claim = await deps.db.transaction(async (trx) => {
    if ((await lockProduct(trx, brandId, product.uid)) === undefined) throw new NotFoundError("Product");
    if (hasTagRecord(tagUid)) {
      const record = await ensureTagRecord(trx, { brandId, tagUid: tagUid.toUpperCase(), chip: options.chip, keyVersion: deps.config.tags.keyVersion });
      if (!record) throw new ConflictError("This tag is registered to another brand.");
    }
    const claimed = await claimTag(trx, { brandId, productId: product.id, tagUid: tagUid.toUpperCase(), tagHash });
    if ("row" in claimed) return claimed.row;
    if (claimed.conflict === "product") throw new ConflictError("Another tag is being assigned to this product; try again in a moment.");
    throw tagTaken(false);
  });

  let sent;
  try {
    sent = await broadcastPassportWrite(deps, () => passport.assignTag(tokenId, tagHash), {
      TagAlreadyAssigned: (args) => tagTaken(String(args[1]) === tokenId).message,
      PassportNotFound: () => "The passport is not on chain yet; wait for the issuance to confirm.",
    });
  } catch (error) {
    await markTagFailed(deps.db, claim.id, error instanceof Error ? error.message : String(error));
    throw error;
  }
  await recordTagTx(deps.db, claim.id, sent.hash);
  try {
    const confirmed = await confirmPassportWrite(deps, sent);
    await deps.db.transaction(async (trx) => {
      if (await markAssignedAndBind(trx, claim, confirmed)) {
        await recordAudit(trx, brandId, actor, { action: "tag.assigned", target: product.uid, details: { tag_hash: tagHash, tx_hash: sent.hash } });
      }
    });
    return { tagHash, txHash: sent.hash, explorerUrl: confirmed.explorerUrl };
  } catch (error) {
    if (!(error instanceof WriteNotConfirmed)) throw error;
    if (error.reverted) {
      await markTagFailed(deps.db, claim.id, error.message);
      throw new ServiceUnavailableError(`The chain reverted the assignment (transaction ${sent.hash}); the tag was not assigned. Retry.`);
    }
    throw new ServiceUnavailableError(`The assignment was sent in transaction ${sent.hash} but is not confirmed yet; reload the product to see it.`);
  }
}

/** Settles the product's assignment left pending (its receipt never came), from the chain. */
export async function settlePendingTag(deps: AppDeps, product: ProductRow): Promise<void> {
  const pending = await findPendingTag(deps.db, product.id);
  if (!pending) return;
  if (pending.tx_hash) {
    const sent = await sentWriteState(deps, pending.tx_hash).catch(() => ({ state: "unknown" as const }));
    if (sent.state === "confirmed") return settle(deps, pending, { txHash: pending.tx_hash, blockNumber: sent.blockNumber });
    if (sent.state === "reverted") return markTagFailed(deps.db, pending.id, `transaction ${pending.tx_hash} reverted`);
  }
  if (Date.now() - new Date(pending.created_at).getTime() < UNCONFIRMED_AFTER_MS) return;
  const holder = await deps.chain.contracts().passport.passportOfTag(pending.tag_hash).catch(() => undefined);
  if (holder === undefined) return;
  if (holder.toString() === tokenIdOf(product.uid)) return settle(deps, pending, { txHash: pending.tx_hash, blockNumber: null });
  await markTagFailed(deps.db, pending.id, "not confirmed in time; the chain does not hold the assignment");
}

async function settle(deps: AppDeps, row: ProductTagRow, confirmed: { txHash: string | null; blockNumber: number | null }): Promise<void> {
  await deps.db.transaction(async (trx) => {
    if (await markAssignedAndBind(trx, row, confirmed)) {
      await recordAudit(trx, row.brand_id, { system: "tag assignment (confirmed later)" }, { action: "tag.assigned", target: null, details: { tag_hash: row.tag_hash, tx_hash: confirmed.txHash } });
    }
  });
}

export type ProductTag = { tagHash: string; txHash: string | null; explorerUrl: string | null };

/**
 * The product's current tag: the chain's record when the indexer has it (it also knows tags a factory assigned),
 * else the dashboard's own confirmed assignment (the indexer may be a moment behind).
 */
export async function productTag(deps: AppDeps, product: ProductRow, chainTagHash: string | null): Promise<ProductTag | null> {
  const tokenId = tokenIdOf(product.uid);
  const indexed = chainTagHash
    ? await fromViews(() => findIndexedTagAssignment(deps.db, deps.config.onchainSchema, tokenId)).catch(() => undefined)
    : undefined;
  if (indexed && indexed.tag_hash.toLowerCase() === chainTagHash!.toLowerCase()) {
    return { tagHash: indexed.tag_hash, txHash: indexed.tx_hash, explorerUrl: explorerTxUrl(deps.config, indexed.tx_hash) };
  }
  const own = await findAssignedTag(deps.db, product.id);
  if (own) return { tagHash: own.tag_hash, txHash: own.tx_hash, explorerUrl: own.tx_hash ? explorerTxUrl(deps.config, own.tx_hash) : null };
  return chainTagHash ? { tagHash: chainTagHash, txHash: null, explorerUrl: null } : null;
}

/** app.tags holds 7-byte UIDs (NTAG 424 DNA, NTAG215); 4- and 10-byte tags are assigned on chain only. */
function hasTagRecord(tagUid: string): boolean {
  return /^[0-9A-Fa-f]{14}$/.test(tagUid);
}

/**
 * markTagAssigned, and the brand's tag record follows the chain: bound to the product, and the tag the contract
 * freed from it (the product's assignment until now) unbound.
 */
async function markAssignedAndBind(trx: Knex, row: ProductTagRow, confirmed: { txHash: string | null; blockNumber: number | null }): Promise<boolean> {
  const freed = await findAssignedTag(trx, row.product_id);
  if (!(await markTagAssigned(trx, row, confirmed))) return false;
  if (hasTagRecord(row.tag_uid)) await bindTagToProduct(trx, { brandId: row.brand_id, tagUid: row.tag_uid, productId: row.product_id, freedTagUid: freed?.tag_uid });
  return true;
}

function tagTaken(sameProduct: boolean): ConflictError {
  return new ConflictError(sameProduct ? "This tag is assigned to this product already." : "This tag is assigned to another product.");
}

/**
 * Keeps the tag records in step with an assignment the chain confirmed outside the dashboard (a factory operator's
 * `POST /api/factories/{id}/tags`): the tag's record is created if new (NTAG215 unless provisioned otherwise) and
 * bound to the product, and the product's other tags are unbound. A UID another brand holds is left to that brand.
 */
export async function recordConfirmedTagAssignment(deps: AppDeps, binding: { brandId: number; productId: number; tagUid: string }): Promise<void> {
  if (!hasTagRecord(binding.tagUid)) return;
  const tagUid = binding.tagUid.toUpperCase();
  await deps.db.transaction(async (trx) => {
    const record = await ensureTagRecord(trx, { brandId: binding.brandId, tagUid, chip: undefined, keyVersion: deps.config.tags.keyVersion });
    if (!record) return;
    await unbindOtherTags(trx, { brandId: binding.brandId, productId: binding.productId, tagUid });
    await bindTagToProduct(trx, { brandId: binding.brandId, tagUid, productId: binding.productId });
  });
}
