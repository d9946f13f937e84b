// SQL of the passport archive: which passports it holds, and every anchored version of each.
import type { Knex } from "../db/knex";

/** UIDs of the minted passports, oldest first: one brand's, or every brand's when `brandId` is undefined. */
export async function listMintedUids(db: Knex, brandId: number | undefined): Promise<string[]> {
  const query = db("app.products as p")
    .join("app.passports as x", "x.product_id", "p.id")
    .where("x.status", "minted")
    .orderBy("p.id")
    .pluck<string[]>("p.uid");
  if (brandId !== undefined) query.where("p.brand_id", brandId);
  return query;
}

/** One anchored version of a passport (app.passport_version_history): its hash, its bytes when kept, its anchor. */
export type AnchoredVersion = {
  version: number;
  data_hash: string;
  /** The canonical JSON that was hashed; null for versions written before migration 033 kept it. */
  content: string | null;
  valid_from: Date | null;
  tx_hash: string | null;
  block_number: string | null;
};

/** The product's anchored versions in the order the chain set them: the mint, then each re-anchoring. */
export async function listAnchoredVersions(db: Knex, productId: number): Promise<AnchoredVersion[]> {
  return db("app.passport_version_history")
    .where({ product_id: productId })
    .orderBy("version")
    .select<AnchoredVersion[]>("version", "data_hash", "content", "valid_from", "tx_hash", "block_number");
}
