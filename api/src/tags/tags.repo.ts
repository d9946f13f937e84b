// SQL of NFC tags a brand assigns from the dashboard (app.product_tags), and of the chain's record of assignments
// (the indexer's tag_assignment view), which also holds tags a factory's operator assigned.
import type { Knex } from "../db/knex";

export type ProductTagRow = {
  id: number;
  brand_id: number;
  product_id: number;
  tag_uid: string;
  tag_hash: string;
  status: "pending" | "assigned" | "replaced" | "failed";
  tx_hash: string | null;
  block_number: string | null;
  error: string | null;
  created_at: Date;
  assigned_at: Date | null;
};

const UNIQUE_VIOLATION = "23505";

/**
 * Claims `tagHash` for the product, pending. Undefined when the tag is claimed or assigned already, or the product
 * has another assignment in flight (`conflict` says which index refused it).
 */
export async function claimTag(
  trx: Knex,
  claim: { brandId: number; productId: number; tagUid: string; tagHash: string },
): Promise<{ row: ProductTagRow } | { conflict: "tag" | "product" }> {
  try {
    // A savepoint, so a refused claim leaves the caller's transaction usable.
    const [row] = await trx.transaction((sp) =>
      sp("app.product_tags")
        .insert({ brand_id: claim.brandId, product_id: claim.productId, tag_uid: claim.tagUid, tag_hash: claim.tagHash, status: "pending" })
        .returning<ProductTagRow[]>("*"),
    );
    return { row: row! };
  } catch (error) {
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code === UNIQUE_VIOLATION) return { conflict: constraint === "product_tags_one_pending" ? "product" : "tag" };
    throw error;
  }
}

export async function findPendingTag(db: Knex, productId: number): Promise<ProductTagRow | undefined> {
  return db("app.product_tags").where({ product_id: productId, status: "pending" }).first<ProductTagRow | undefined>();
}

export async function recordTagTx(db: Knex, id: number, txHash: string): Promise<void> {
  await db("app.product_tags").where({ id }).update({ tx_hash: txHash });
}

/** Marks the claim assigned and the product's earlier tag replaced (the contract freed it). */
export async function markTagAssigned(trx: Knex, row: ProductTagRow, confirmed: { txHash: string | null; blockNumber: number | null }): Promise<boolean> {
  const updated = await trx("app.product_tags")
    .where({ id: row.id })
    .whereIn("status", ["pending", "failed"])
    .update({
      status: "assigned",
      error: null,
      assigned_at: trx.fn.now(),
      ...(confirmed.txHash ? { tx_hash: confirmed.txHash } : {}),
      ...(confirmed.blockNumber !== null ? { block_number: confirmed.blockNumber } : {}),
    });
  if (updated === 0) return false;
  await trx("app.product_tags").where({ product_id: row.product_id, status: "assigned" }).whereNot({ id: row.id }).update({ status: "replaced" });
  return true;
}

export async function markTagFailed(db: Knex, id: number, error: string): Promise<void> {
  await db("app.product_tags").where({ id, status: "pending" }).update({ status: "failed", error: error.slice(0, 500) });
}

/** The product's current tag as the dashboard assigned it, if any. */
export async function findAssignedTag(db: Knex, productId: number): Promise<ProductTagRow | undefined> {
  return db("app.product_tags").where({ product_id: productId, status: "assigned" }).orderBy("id", "desc").first<ProductTagRow | undefined>();
}

/** The latest assignment the chain recorded for a token (whoever made it), from the indexer's view. */
export async function findIndexedTagAssignment(db: Knex, schema: string, tokenId: string): Promise<{ tag_hash: string; tx_hash: string } | undefined> {
  return db
    .withSchema(schema)
    .from("tag_assignment")
    .where("token_id", tokenId)
    .orderBy([{ column: "block_number", order: "desc" }, { column: "id", order: "desc" }])
    .first<{ tag_hash: string; tx_hash: string } | undefined>("tag_hash", "tx_hash");
}
