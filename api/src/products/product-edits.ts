// Edits to a brand's product and, once its passport is minted, the re-anchoring of its content hash on chain
// (ProductPassport.updateDataHash → DataHashUpdated + ERC-4906 MetadataUpdate), with the version history.
//
// The stored content never runs ahead of the chain: an edit of a minted product is written as a pending version
// (under the product's row lock, one pending version per product), the new hash is sent, and only once the chain
// confirmed it are the new values applied to the product, in one transaction with the audit entry. If the chain
// refuses or cannot be reached, nothing changes and the caller is told; if the transaction was sent but its receipt
// did not come in time, the version stays pending (the product keeps its previous, still anchored, content) and is
// settled later from the chain: applied if the hash landed, dropped if it did not.
import type { AppDeps } from "../deps";
import { recordAudit, type Actor } from "../audit/service";
import { productDefaults } from "../brands/service";
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from "../errors";
import { explorerTxUrl } from "../links";
import { canonicalContent, dataHashOf, passportContentFor, tokenIdOf, type Certification, type FiberShare, type Lineage } from "../passports/content";
import { compositionFromFabricType } from "../passports/fibres";
import type { TextileData } from "../passports/textile";
import { estimateCarbon } from "./carbon";
import { defaultCare, type CareByCategory } from "./defaults";
import { broadcastPassportWrite, confirmPassportWrite, sentWriteState, UNCONFIRMED_AFTER_MS, WriteNotConfirmed, type ConfirmedWrite } from "./passport-writes";
import { gs1Columns, orphanQualifiers, productProblems } from "./product-rules";
import { findProductByUid, gtinSerialInUse, isSkuTaken, productsWithSkus, type ProductRow } from "./products.repo";
import { claimGtin, gtinSerialTaken, skuTaken } from "./service";
import type { Knex } from "../db/knex";
import {
  findFailedVersionByHash,
  findPendingVersion,
  insertPendingVersion,
  latestAnchoredHash,
  listVersions,
  lockProduct,
  markVersionAnchored,
  markVersionFailed,
  recordVersionTx,
  updateProductColumns,
  type ProductColumns,
  type VersionRow,
} from "./versions.repo";

/** What the dashboard may change; the maker (factory_id) is not among them: the chain recorded it at the mint. */
export type ProductChanges = Partial<{
  sku: string;
  name: string;
  category: string;
  fabric_type: string;
  price: number;
  currency: string;
  description: string;
  fiber_composition: FiberShare[];
  certifications: Certification[];
  care_instructions: string;
  country_of_manufacture: string;
  /** GS1 identifiers; an empty string removes one (removing the GTIN removes lot and serial with it). */
  gtin: string;
  lot: string;
  serial: string;
  /** The textile section, replaced whole; null removes it. */
  textile: TextileData | null;
  /** The passport's lineage (content version 3): the EN 18222 update drops a field it changes from `inherited`. */
  lineage: Lineage | null;
}>;

export type EditResult = {
  /** The product's columns that changed (empty when the edit changed nothing). */
  changed: string[];
  /** The new version when the change was anchored on chain; null when the passport is not minted, or its content did not change. */
  anchored: (ConfirmedWrite & { dataHash: string }) | null;
};

const actorName = (actor: Actor) => ("email" in actor ? actor.email : actor.system);

/**
 * Applies `changes` to the brand's product. Validated by the same rules as registration; derived values follow what
 * they derive from (a new category gets its default care text and carbon estimate unless the brand declared its own).
 */
export async function editProduct(deps: AppDeps, brandId: number, actor: Actor, uid: string, changes: ProductChanges): Promise<EditResult> {
  const problems = productProblems(changes, new Map());
  if (problems.length > 0) throw new ValidationError(problems);
  const current = await findProductByUid(deps.db, uid, brandId);
  if (!current) throw new NotFoundError("Product");
  await settlePendingVersion(deps, current);
  const tokenId = tokenIdOf(current.uid);
  // What the chain holds now: read outside the lock (it is a network call); the lock's view of our own versions
  // decides the rest, and this only adds "the chain already holds it" or "the chain is not what we think".
  const chainHash = current.passport_status === "minted" ? await onChainHash(deps, tokenId) : undefined;
  const { careByCategory } = await productDefaults(deps.db, brandId);

  const plan = await deps.db.transaction(async (trx) => {
    if ((await lockProduct(trx, brandId, uid)) === undefined) throw new NotFoundError("Product");
    const product = (await findProductByUid(trx, uid, brandId))!;
    if (product.passport_status === "pending") throw new ConflictError("The product's certificate is being issued; edit it once the issuance is done.");
    const pending = await findPendingVersion(trx, product.id);
    if (pending) throw stillAnchoring(pending);
    const columns = columnChanges(product, changes, careByCategory);
    await checkIdentifiers(trx, product, columns);
    const changed = Object.keys(columns);
    const newContent = passportContentFor(withColumns(product, columns));
    const newHash = dataHashOf(newContent);
    const save = async () => {
      if (changed.length > 0) {
        await updateProductColumns(trx, product.id, columns).catch((error: unknown) => {
          throw isSkuTaken(error) ? skuTaken(columns.sku ?? product.sku) : error;
        });
        await recordAudit(trx, brandId, actor, { action: "product.updated", target: product.uid, details: { fields: changed } });
      }
      return { kind: "saved" as const, changed };
    };
    if (product.passport_status !== "minted") return save();
    const anchoredHash = (await latestAnchoredHash(trx, product.id)) ?? product.passport_data_hash!;
    if (sameHash(chainHash, newHash)) {
      // The chain holds this content already: a version whose receipt never came landed after all.
      const late = await findFailedVersionByHash(trx, product.id, newHash);
      if (late) await markVersionAnchored(trx, product.id, late.version, { txHash: null, blockNumber: null });
      return save();
    }
    if (sameHash(anchoredHash, newHash) && chainHash === undefined) return save();
    const version = await insertPendingVersion(trx, { product_id: product.id, data_hash: newHash, content: canonicalContent(newContent), previous_hash: chainHash ?? anchoredHash, changes: columns, actor: actorName(actor) });
    if (!version) throw new ConflictError("Another change of this product is being anchored on chain; try again in a moment.");
    return { kind: "anchor" as const, changed, version, product };
  });
  if (plan.kind === "saved") return { changed: plan.changed, anchored: null };

  const { version, product } = plan;
  const { passport } = deps.chain.contracts();
  let sent;
  try {
    sent = await broadcastPassportWrite(deps, () => passport.updateDataHash(tokenId, version.data_hash), {
      PassportNotFound: () => "The passport is not on chain yet; wait for the issuance to confirm.",
      DataHashUnchanged: () => "The chain holds this content already.",
    });
  } catch (error) {
    await markVersionFailed(deps.db, product.id, version.version, error instanceof Error ? error.message : String(error));
    throw error;
  }
  await recordVersionTx(deps.db, product.id, version.version, sent.hash);
  let confirmed: ConfirmedWrite;
  try {
    confirmed = await confirmPassportWrite(deps, sent);
  } catch (error) {
    if (!(error instanceof WriteNotConfirmed)) throw error;
    if (error.reverted) {
      await markVersionFailed(deps.db, product.id, version.version, error.message);
      throw new ServiceUnavailableError(`The chain reverted the update (transaction ${sent.hash}); nothing was changed. Retry.`);
    }
    throw new ServiceUnavailableError(
      `The change was sent in transaction ${sent.hash} but the chain has not confirmed it yet. Until it does, the product ` +
        "keeps its previous content (the one anchored on chain); reload the product to see the new version appear.",
    );
  }
  await applyVersion(deps, product, version, confirmed, actor);
  return { changed: plan.changed, anchored: { ...confirmed, dataHash: version.data_hash } };
}

/**
 * Anchors the product's current content when the chain holds another hash: a passport minted from content read just
 * before an edit was saved (the edit and the mint raced) is brought up to date at once.
 */
export async function reanchorIfStale(deps: AppDeps, brandId: number, actor: Actor, uid: string): Promise<EditResult | undefined> {
  const product = await findProductByUid(deps.db, uid, brandId);
  if (!product || product.passport_status !== "minted") return undefined;
  const current = dataHashOf(passportContentFor(product));
  const anchored = (await latestAnchoredHash(deps.db, product.id)) ?? product.passport_data_hash;
  if (sameHash(anchored ?? undefined, current)) return undefined;
  return editProduct(deps, brandId, actor, uid, {});
}

/** Settles the product's pending version from the chain, when its outcome is known; leaves one still in flight. */
export async function settlePendingVersion(deps: AppDeps, product: ProductRow): Promise<void> {
  const pending = await findPendingVersion(deps.db, product.id);
  if (!pending) return;
  if (pending.tx_hash) {
    const sent = await sentWriteState(deps, pending.tx_hash).catch(() => ({ state: "unknown" as const }));
    if (sent.state === "confirmed") {
      const confirmed = { txHash: pending.tx_hash, explorerUrl: explorerTxUrl(deps.config, pending.tx_hash), blockNumber: sent.blockNumber };
      return applyVersion(deps, product, pending, confirmed, { system: `${pending.actor} (confirmed later)` });
    }
    if (sent.state === "reverted") return markVersionFailed(deps.db, product.id, pending.version, `transaction ${pending.tx_hash} reverted`);
  }
  if (Date.now() - new Date(pending.created_at).getTime() < UNCONFIRMED_AFTER_MS) return;
  const onChain = await onChainHash(deps, tokenIdOf(product.uid));
  if (onChain === undefined) return;
  if (sameHash(onChain, pending.data_hash)) {
    const confirmed = { txHash: pending.tx_hash ?? "", explorerUrl: "", blockNumber: 0 };
    return applyVersion(deps, product, pending, confirmed, { system: `${pending.actor} (confirmed later)` });
  }
  await markVersionFailed(deps.db, product.id, pending.version, "not confirmed in time; the chain kept the previous hash");
}

/** The new values go into the product together with the version's confirmation and the audit entry. */
async function applyVersion(deps: AppDeps, product: ProductRow, version: VersionRow, confirmed: ConfirmedWrite, actor: Actor): Promise<void> {
  await deps.db.transaction(async (trx) => {
    await lockProduct(trx, product.brand_id, product.uid);
    const anchored = await markVersionAnchored(trx, product.id, version.version, {
      txHash: confirmed.txHash || null,
      blockNumber: confirmed.blockNumber || null,
    });
    if (!anchored) return;
    await updateProductColumns(trx, product.id, version.changes);
    await recordAudit(trx, product.brand_id, actor, {
      action: "product.updated",
      target: product.uid,
      details: { fields: Object.keys(version.changes), data_hash: version.data_hash, tx_hash: confirmed.txHash || null },
    });
  });
}

export type ProductVersion = {
  version: number;
  dataHash: string;
  txHash: string | null;
  at: Date;
  kind: "mint" | "update";
  status: "anchored" | "pending";
};

/**
 * The passport's versions, oldest first: the mint, then every confirmed re-anchoring, then the one in flight.
 * Numbered in that order (a change that failed is not a version).
 */
export async function productVersions(deps: AppDeps, product: ProductRow): Promise<ProductVersion[]> {
  if (product.passport_status !== "minted" && product.passport_status !== "pending") return [];
  const versions: ProductVersion[] = [
    {
      version: 1,
      dataHash: product.passport_data_hash!,
      txHash: product.passport_tx_hash,
      at: product.passport_minted_at ?? product.created_at,
      kind: "mint",
      status: product.passport_status === "minted" ? "anchored" : "pending",
    },
  ];
  for (const row of await listVersions(deps.db, product.id)) {
    versions.push({
      version: versions.length + 1,
      dataHash: row.data_hash,
      txHash: row.tx_hash,
      at: row.anchored_at ?? row.created_at,
      kind: "update",
      status: row.status === "anchored" ? "anchored" : "pending",
    });
  }
  return versions;
}

/** The product's columns that `changes` alters, with the values derived from them recomputed. */
function columnChanges(product: ProductRow, changes: ProductChanges, brandCare: CareByCategory): ProductColumns {
  const next: ProductColumns = {};
  const category = changes.category?.trim().toLowerCase() ?? product.category;
  // An empty fabric type or description is none (null), as a merge patch's null asks.
  const fabricType = changes.fabric_type !== undefined ? changes.fabric_type.trim().toLowerCase() || null : product.fabric_type;
  if (changes.sku !== undefined) next.sku = changes.sku;
  if (changes.name !== undefined) next.name = changes.name.trim();
  if (changes.category !== undefined) next.category = category;
  if (changes.fabric_type !== undefined) next.fabric_type = fabricType;
  if (changes.price !== undefined) next.price = changes.price;
  if (changes.currency !== undefined) next.currency = changes.currency.toUpperCase();
  if (changes.description !== undefined) next.description = changes.description === "" ? null : changes.description;
  if (changes.certifications !== undefined) next.certifications = changes.certifications;
  if (changes.textile !== undefined) next.textile = changes.textile;
  if (changes.lineage !== undefined) next.lineage = changes.lineage;
  if (changes.category !== undefined || changes.fabric_type !== undefined) {
    const carbon = estimateCarbon(category, fabricType);
    next.carbon_kg = carbon.kg;
    next.carbon_rating = carbon.rating;
  }

  // Products registered before provenance was recorded keep content version 1: only what the brand sends changes.
  const provenance = product.provenance ? { ...product.provenance } : null;
  if (changes.fiber_composition !== undefined) {
    next.fiber_composition = changes.fiber_composition;
    if (provenance) provenance.fiber_composition = "declared";
  } else if (changes.fabric_type !== undefined && provenance && provenance.fiber_composition !== "declared") {
    const derived = compositionFromFabricType(fabricType ?? "");
    next.fiber_composition = derived ?? [];
    provenance.fiber_composition = derived ? "derived_from_fabric_type" : "unknown";
  }
  const care = changes.care_instructions?.trim();
  if (care) {
    next.care_instructions = care;
    if (provenance) provenance.care_instructions = "declared";
  } else if (provenance && (changes.care_instructions !== undefined || (changes.category !== undefined && provenance.care_instructions !== "declared"))) {
    // Care left empty, or a new category whose care the brand never wrote: the default for the category, as at registration.
    const fallback = defaultCare(category, brandCare);
    next.care_instructions = fallback.text;
    provenance.care_instructions = fallback.source;
  }
  if (changes.country_of_manufacture !== undefined) {
    next.country_of_manufacture = changes.country_of_manufacture;
    if (provenance) provenance.country_of_manufacture = "declared";
  }
  if (provenance && JSON.stringify(provenance) !== JSON.stringify(product.provenance)) next.provenance = provenance;
  if (changes.gtin !== undefined || changes.lot !== undefined || changes.serial !== undefined) {
    const ids = gs1Columns({
      gtin: changes.gtin ?? product.gtin ?? undefined,
      lot: changes.lot ?? product.lot ?? undefined,
      serial: changes.serial ?? product.serial ?? undefined,
    });
    const orphans = orphanQualifiers({ gtin: ids.gtin, lot: changes.lot, serial: changes.serial });
    if (orphans.length > 0) throw new ValidationError(orphans);
    Object.assign(next, ids);
  }

  // Only what really differs counts as a change (a form sends every field back).
  return Object.fromEntries(
    Object.entries(next).filter(([column, value]) => JSON.stringify(normalised(column, value)) !== JSON.stringify(normalised(column, product[column as keyof ProductRow]))),
  ) as ProductColumns;
}

/** Stored values as the edit compares them: decimals from Postgres arrive as strings, char(n) padded. */
function normalised(column: string, value: unknown): unknown {
  if ((column === "price" || column === "carbon_kg") && value !== null) return Number(value);
  if ((column === "country_of_manufacture" || column === "carbon_rating" || column === "currency") && typeof value === "string") return value.trim();
  return value;
}

function withColumns(product: ProductRow, columns: ProductColumns): ProductRow {
  return {
    ...product,
    ...columns,
    price: columns.price !== undefined ? String(columns.price) : product.price,
    carbon_kg: columns.carbon_kg !== undefined ? String(columns.carbon_kg) : product.carbon_kg,
  } as ProductRow;
}

/**
 * The SKU must be no other product's of the brand, and the GTIN and serial no other product's at all (found now: the
 * chain must not anchor a refused edit; the unique indexes still decide a race).
 */
async function checkIdentifiers(trx: Knex, product: ProductRow, columns: ProductColumns): Promise<void> {
  const sku = columns.sku ?? product.sku;
  const serial = columns.serial !== undefined ? columns.serial : product.serial;
  if ((columns.sku !== undefined || columns.serial !== undefined) && !serial) {
    const holder = (await productsWithSkus(trx, product.brand_id, [sku], product.id)).get(sku);
    if (holder) throw skuTaken(sku, holder);
  }
  if (columns.gtin) await claimGtin(trx, product.brand_id, columns.gtin);
  if (columns.gtin === undefined && columns.serial === undefined) return;
  const gtin = columns.gtin !== undefined ? columns.gtin : product.gtin;
  if (gtin && serial && (await gtinSerialInUse(trx, gtin, serial, product.id))) throw gtinSerialTaken(gtin, serial);
}

function stillAnchoring(pending: VersionRow): ConflictError {
  return new ConflictError(
    pending.tx_hash
      ? `An earlier change of this product is still being confirmed on chain (transaction ${pending.tx_hash}); try again once it is.`
      : "An earlier change of this product is being anchored on chain; try again in a moment.",
  );
}

async function onChainHash(deps: AppDeps, tokenId: string): Promise<string | undefined> {
  try {
    return (await deps.chain.contracts().passport.dataHashOf(tokenId)).toLowerCase();
  } catch {
    return undefined;
  }
}

function sameHash(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase();
}
