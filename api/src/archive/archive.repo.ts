// SQL of the passport archive: which passports it holds.
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
