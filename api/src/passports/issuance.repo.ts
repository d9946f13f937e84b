// SQL of passport issuance (app.passports): one row per product, claimed before the mint, settled after it.
import type { Knex } from "../db/knex";
import { findProductByUid, type ProductRow } from "../products/products.repo";

export type IssuanceRow = {
  product_id: number;
  /** The product's brand, copied so a brand's passports are found by an index (migration 041). */
  brand_id: number;
  token_id: string;
  data_hash: string;
  status: "pending" | "minted" | "failed";
  tx_hash: string | null;
  block_number: string | null;
  contract_address: string;
  chain_id: number;
  minted_at: Date | null;
  chain_tx_id: number | null;
  quota_period: string | null;
};

/** What a caller claims an issuance with: the token, hash and contract it is about to mint. */
export type IssuanceClaim = {
  product_id: number;
  brand_id: number;
  token_id: string;
  data_hash: string;
  /** The canonical JSON `data_hash` is the keccak256 of: version 1 of the passport, kept byte for byte. */
  content: string;
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
    .update({
      ...claim,
      requested_at: db.fn.now(),
      error: null,
      tx_hash: null,
      nonce: null,
      block_number: null,
      chain_tx_id: null,
      mint_attempts: 0,
      recheck_chain: true,
    })
    .returning<IssuanceRow[]>("*");
}

/** Records the month the claim's certificate unit was counted in (refunded there if the issuance fails for good). */
export async function recordQuotaPeriod(trx: Knex, productId: number, period: string): Promise<void> {
  await trx("app.passports").where({ product_id: productId }).update({ quota_period: period });
}

/** A claim ready for a mint transaction: pending, carried by no transaction, with the factory it is minted for. */
export type MintClaim = { product_id: number; token_id: string; data_hash: string; factory_id: number };

/**
 * Locks up to `limit` unlinked pending claims of one factory id (the oldest claim's), oldest first, skipping
 * claims another process is batching right now. Claims that may be on chain already (recheck_chain) wait for
 * `claimsToRecheck`. A claim put back by a reverted transaction (its error set) goes alone: one claim the contract
 * refuses sinks the whole batch it rides in, so batching it again would fail its neighbours with it.
 */
export async function lockMintClaims(trx: Knex, limit: number): Promise<MintClaim[]> {
  const result = await trx.raw<{ rows: MintClaim[] }>(
    `WITH oldest AS (
       SELECT coalesce(p.factory_id, 0) AS factory_id, x.error IS NOT NULL AS alone
       FROM app.passports x JOIN app.products p ON p.id = x.product_id
       WHERE x.status = 'pending' AND x.chain_tx_id IS NULL AND NOT x.recheck_chain
       ORDER BY x.requested_at
       LIMIT 1
     )
     SELECT x.product_id, x.token_id, x.data_hash, coalesce(p.factory_id, 0)::integer AS factory_id
     FROM app.passports x JOIN app.products p ON p.id = x.product_id
     WHERE x.status = 'pending' AND x.chain_tx_id IS NULL AND NOT x.recheck_chain
       AND coalesce(p.factory_id, 0) = (SELECT factory_id FROM oldest)
     ORDER BY x.requested_at
     LIMIT CASE WHEN (SELECT alone FROM oldest) THEN 1 ELSE ?::integer END
     FOR UPDATE OF x SKIP LOCKED`,
    [limit],
  );
  return result.rows;
}

/** Whether any claim waits for a mint transaction (a cheap look before taking the wallet's lock). */
export async function hasUnlinkedClaims(db: Knex): Promise<boolean> {
  const row = await db("app.passports").where({ status: "pending", recheck_chain: false }).whereNull("chain_tx_id").first("product_id");
  return row !== undefined;
}

/** Links claims to the ledger row that mints them; the public record shows its hash while it is pending. */
export async function linkClaims(trx: Knex, productIds: number[], chainTx: { id: number; tx_hash: string; nonce: number }): Promise<void> {
  await trx("app.passports").whereIn("product_id", productIds).update({ chain_tx_id: chainTx.id, tx_hash: chainTx.tx_hash, nonce: chainTx.nonce });
}

/** Pending unlinked claims that may be on chain already (a retaken failure, a claim of the old signer). */
export async function claimsToRecheck(db: Knex, limit: number): Promise<IssuanceRow[]> {
  return db("app.passports")
    .where({ status: "pending", recheck_chain: true })
    .whereNull("chain_tx_id")
    .orderBy("requested_at")
    .limit(limit)
    .select<IssuanceRow[]>("*");
}

export async function clearRecheck(db: Knex, productId: number): Promise<void> {
  await db("app.passports").where({ product_id: productId }).update({ recheck_chain: false });
}

/** The claims a mint transaction carries, with their product's UID and brand. */
export async function claimsOfTransaction(trx: Knex, chainTxId: number): Promise<Array<IssuanceRow & { uid: string; brand_id: number; mint_attempts: number; events_sent: boolean }>> {
  return trx("app.passports as x")
    .join("app.products as p", "p.id", "x.product_id")
    .where("x.chain_tx_id", chainTxId)
    .select("x.*", "p.uid", "p.brand_id");
}

/** The mint transaction's receipt came: its pending claims are minted by the hash that was mined. */
export async function markClaimsMinted(trx: Knex, chainTxId: number, mined: { txHash: string; blockNumber: number }): Promise<number> {
  return trx("app.passports")
    .where({ chain_tx_id: chainTxId, status: "pending" })
    .update({ status: "minted", tx_hash: mined.txHash, block_number: mined.blockNumber, minted_at: trx.fn.now(), error: null });
}

/** The mint's block left the chain: its claims are pending again (no page shows them verified). */
export async function markClaimsUnminted(trx: Knex, chainTxId: number): Promise<number> {
  return trx("app.passports")
    .where({ chain_tx_id: chainTxId, status: "minted" })
    .update({ status: "pending", block_number: null, minted_at: null });
}

/** Takes pending claims off a transaction that will not mint them, for the pump to mint again (looking first). */
export async function unlinkClaims(trx: Knex, productIds: number[], error: string | null): Promise<void> {
  await trx("app.passports")
    .whereIn("product_id", productIds)
    .where({ status: "pending" })
    .update({ chain_tx_id: null, recheck_chain: true, error, mint_attempts: trx.raw("mint_attempts + 1") });
}

/** Fails a pending claim for good; returns the month its certificate unit was counted in, to refund (or null). */
export async function failClaim(trx: Knex, productId: number, error: string): Promise<string | null> {
  const row = await trx("app.passports")
    .where({ product_id: productId, status: "pending" })
    .forUpdate()
    .first<{ quota_period: string | null } | undefined>("quota_period");
  if (!row) return null;
  await trx("app.passports").where({ product_id: productId }).update({ status: "failed", error, chain_tx_id: null, quota_period: null });
  return row.quota_period;
}

export async function markEventsSent(trx: Knex, productIds: number[]): Promise<void> {
  if (productIds.length === 0) return;
  await trx("app.passports").whereIn("product_id", productIds).update({ events_sent: true });
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
  row: Omit<IssuanceRow, "status" | "minted_at" | "block_number" | "chain_tx_id" | "quota_period"> & { nonce: number; block_number: number; minted_at: Date },
): Promise<void> {
  await db("app.passports")
    .insert({ ...row, status: "minted" })
    .onConflict("product_id")
    .merge();
}

/**
 * Locks the product row for the rest of the transaction and reads it again as the mint will anchor it; undefined if
 * it is gone. Edits take the same lock (products/product-edits.ts). FOR NO KEY UPDATE, not FOR UPDATE: a ledger
 * handler updating this product's passport row checks its foreign key with FOR KEY SHARE, which FOR UPDATE would
 * block while this transaction's own insert waits on that handler: a deadlock.
 */
export async function lockProductForIssuance(trx: Knex, productId: number, uid: string): Promise<ProductRow | undefined> {
  await trx("app.products").where({ id: productId }).forNoKeyUpdate().first("id");
  return findProductByUid(trx, uid);
}
