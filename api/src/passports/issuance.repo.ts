// SQL of passport issuance (app.passports): one row per product, claimed before the mint, settled after it.
import type { Knex } from "../db/knex";
import { findProductByUid, type ProductRow } from "../products/products.repo";

export type IssuanceRow = {
  product_id: number;
  token_id: string;
  data_hash: string;
  status: "pending" | "minted" | "failed";
  tx_hash: string | null;
  block_number: string | null;
  contract_address: string;
  chain_id: number;
  minted_at: Date | null;
};

/** What a caller claims an issuance with: the token, hash and contract it is about to mint. */
export type IssuanceClaim = {
  product_id: number;
  token_id: string;
  data_hash: string;
  status: string;
  chain_id: number;
  contract_address: string;
};

/** Inserts a pending claim; [] when the product has an issuance row already. */
export async function insertClaim(db: Knex, claim: IssuanceClaim): Promise<IssuanceRow[]> {
  return db("app.passports")
    .insert({ ...claim, requested_at: db.fn.now(), error: null })
    .onConflict("product_id")
    .ignore()
    .returning<IssuanceRow[]>("*");
}

/** Takes over a failed issuance with a new claim; [] when the row is not failed (someone else holds it). */
export async function retakeFailedClaim(db: Knex, claim: IssuanceClaim): Promise<IssuanceRow[]> {
  return db("app.passports")
    .where({ product_id: claim.product_id, status: "failed" })
    .update({ ...claim, requested_at: db.fn.now(), error: null, tx_hash: null, nonce: null })
    .returning<IssuanceRow[]>("*");
}

export async function recordSentMint(db: Knex, productId: number, sent: { txHash: string; nonce: number }): Promise<void> {
  await db("app.passports").where({ product_id: productId }).update({ tx_hash: sent.txHash, nonce: sent.nonce });
}

/** A pending issuance becomes failed, with why; a row that is no longer pending is left alone. */
export async function markFailed(db: Knex, productId: number, error: string): Promise<void> {
  await db("app.passports").where({ product_id: productId, status: "pending" }).update({ status: "failed", error });
}

export async function findIssuance(db: Knex, productId: number): Promise<IssuanceRow | undefined> {
  return db("app.passports").where({ product_id: productId }).first<IssuanceRow | undefined>();
}

export async function markMintedRow(trx: Knex, productId: number, changes: Record<string, unknown>): Promise<IssuanceRow> {
  const [minted] = await trx("app.passports")
    .where({ product_id: productId })
    .update({ status: "minted", minted_at: trx.fn.now(), error: null, ...changes })
    .returning<IssuanceRow[]>("*");
  return minted!;
}

/** Issuances still pending after `olderThanSeconds`. */
export async function listPendingIssuances(db: Knex, olderThanSeconds: number): Promise<IssuanceRow[]> {
  return db("app.passports")
    .where({ status: "pending" })
    .where("requested_at", "<", db.raw("now() - make_interval(secs => ?)", [olderThanSeconds]))
    .select<IssuanceRow[]>("*");
}

export async function findIssuedProduct(db: Knex, productId: number): Promise<{ uid: string; brand_id: number } | undefined> {
  return db("app.products").where({ id: productId }).first<{ uid: string; brand_id: number } | undefined>("uid", "brand_id");
}

export type TokenProductRow = { uid: string; name: string; category: string; carbon_rating: string; carbon_kg: string; brand_name: string; data_hash: string };

/** The product and brand of an issued token, for its ERC-721 metadata. */
export async function findTokenProduct(db: Knex, tokenId: string): Promise<TokenProductRow | undefined> {
  return db("app.passports as x")
    .join("app.products as p", "p.id", "x.product_id")
    .join("app.brands as b", "b.id", "p.brand_id")
    .where("x.token_id", tokenId)
    .first<TokenProductRow | undefined>("p.uid", "p.name", "p.category", "p.carbon_rating", "p.carbon_kg", "b.name as brand_name", "x.data_hash");
}

/**
 * Records a passport minted outside the issuance flow, as minted (the local demo data mints its passports with the
 * wallet directly, together with their tags and steps); a row the product has is replaced.
 */
export async function upsertMintedIssuance(
  db: Knex,
  row: Omit<IssuanceRow, "status" | "minted_at" | "block_number"> & { nonce: number; block_number: number; minted_at: Date },
): Promise<void> {
  await db("app.passports")
    .insert({ ...row, status: "minted" })
    .onConflict("product_id")
    .merge();
}

/**
 * Locks the product row for the rest of the transaction and reads it again as the mint will anchor it; undefined if
 * it is gone. Edits take the same lock (products/product-edits.ts).
 */
export async function lockProductForIssuance(trx: Knex, productId: number, uid: string): Promise<ProductRow | undefined> {
  await trx("app.products").where({ id: productId }).forUpdate().first("id");
  return findProductByUid(trx, uid);
}
