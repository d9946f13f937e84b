// SQL of product edits: the product row locked for a change, its columns updated, and the versions of its anchored
// content (app.product_versions; version 1, the mint, is app.passports).
import type { Knex } from "../db/knex";
import type { Certification, FiberShare, Lineage, Provenance } from "../passports/content";
import type { TextileData } from "../passports/textile";

/** The product columns an edit may change, with their stored values (jsonb columns as objects). */
export type ProductColumns = Partial<{
  sku: string;
  name: string;
  category: string;
  fabric_type: string | null;
  price: number;
  currency: string;
  description: string | null;
  fiber_composition: FiberShare[];
  certifications: Certification[];
  care_instructions: string;
  country_of_manufacture: string | null;
  provenance: Provenance | null;
  gtin: string | null;
  lot: string | null;
  serial: string | null;
  carbon_kg: number;
  carbon_rating: string;
  textile: TextileData | null;
  lineage: Lineage | null;
}>;

export type VersionRow = {
  product_id: number;
  version: number;
  status: "pending" | "anchored" | "failed";
  data_hash: string;
  previous_hash: string;
  changes: ProductColumns;
  tx_hash: string | null;
  block_number: string | null;
  error: string | null;
  actor: string;
  created_at: Date;
  anchored_at: Date | null;
};

/**
 * Locks the brand's product row for the rest of the transaction; its id, or undefined when it is not the brand's.
 * FOR NO KEY UPDATE, as issuance takes it (passports/issuance.repo.ts): it excludes edits and issuance but not the
 * foreign-key checks of rows that reference the product.
 */
export async function lockProduct(trx: Knex, brandId: number, uid: string): Promise<number | undefined> {
  const row = await trx("app.products").where({ brand_id: brandId, uid: uid.toUpperCase() }).forNoKeyUpdate().first<{ id: number } | undefined>("id");
  return row?.id;
}

const JSON_COLUMNS = new Set(["fiber_composition", "certifications", "provenance", "textile", "lineage"]);

export async function updateProductColumns(trx: Knex, productId: number, columns: ProductColumns): Promise<void> {
  const values: Record<string, unknown> = { updated_at: trx.fn.now() };
  for (const [column, value] of Object.entries(columns)) values[column] = JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value;
  await trx("app.products").where({ id: productId }).update(values);
}

export async function findPendingVersion(db: Knex, productId: number): Promise<VersionRow | undefined> {
  return db("app.product_versions").where({ product_id: productId, status: "pending" }).first<VersionRow | undefined>();
}

/** The hash the latest confirmed re-anchoring put on chain, if any. */
export async function latestAnchoredHash(db: Knex, productId: number): Promise<string | undefined> {
  const row = await db("app.product_versions")
    .where({ product_id: productId, status: "anchored" })
    .orderBy("version", "desc")
    .first<{ data_hash: string } | undefined>("data_hash");
  return row?.data_hash;
}

/** Inserts the next version, pending; undefined when the product has a pending one already (unique index). */
export async function insertPendingVersion(
  trx: Knex,
  row: { product_id: number; data_hash: string; content: string; previous_hash: string; changes: ProductColumns; actor: string },
): Promise<VersionRow | undefined> {
  const result = await trx.raw<{ rows: VersionRow[] }>(
    `INSERT INTO app.product_versions (product_id, version, status, data_hash, content, previous_hash, changes, actor)
     SELECT ?, COALESCE(MAX(version), 1) + 1, 'pending', ?, ?, ?, ?::jsonb, ?
       FROM app.product_versions WHERE product_id = ?
     ON CONFLICT DO NOTHING
     RETURNING *`,
    [row.product_id, row.data_hash, row.content, row.previous_hash, JSON.stringify(row.changes), row.actor, row.product_id],
  );
  return result.rows[0];
}

export async function recordVersionTx(db: Knex, productId: number, version: number, txHash: string): Promise<void> {
  await db("app.product_versions").where({ product_id: productId, version }).update({ tx_hash: txHash });
}

/**
 * Marks a version anchored; only a pending one, or a failed one the chain turned out to hold after all (its
 * transaction landed late). Returns the row, or undefined when it was neither (someone settled it already).
 */
export async function markVersionAnchored(
  trx: Knex,
  productId: number,
  version: number,
  confirmed: { txHash: string | null; blockNumber: number | null },
): Promise<VersionRow | undefined> {
  const [row] = await trx("app.product_versions")
    .where({ product_id: productId, version })
    .whereIn("status", ["pending", "failed"])
    .update({
      status: "anchored",
      error: null,
      anchored_at: trx.fn.now(),
      ...(confirmed.txHash ? { tx_hash: confirmed.txHash } : {}),
      ...(confirmed.blockNumber !== null ? { block_number: confirmed.blockNumber } : {}),
    })
    .returning<VersionRow[]>("*");
  return row;
}

export async function markVersionFailed(db: Knex, productId: number, version: number, error: string): Promise<void> {
  await db("app.product_versions").where({ product_id: productId, version, status: "pending" }).update({ status: "failed", error: error.slice(0, 500) });
}

/** A failed version whose hash is `dataHash`: the chain holding that hash means its transaction landed after all. */
export async function findFailedVersionByHash(db: Knex, productId: number, dataHash: string): Promise<VersionRow | undefined> {
  return db("app.product_versions").where({ product_id: productId, status: "failed", data_hash: dataHash }).orderBy("version", "desc").first<VersionRow | undefined>();
}

/** Versions shown in the history: anchored ones and the one in flight, oldest first. */
export async function listVersions(db: Knex, productId: number): Promise<VersionRow[]> {
  return db("app.product_versions").where({ product_id: productId }).whereIn("status", ["anchored", "pending"]).orderBy("version").select<VersionRow[]>("*");
}
