// SQL of the passport the landing page offers as a demo: a real, minted one, so its links always open something.
import type { Knex } from "../db/knex";

export type MintedPassportRow = { uid: string; name: string; brandName: string };

/**
 * The most recently registered product of an active brand whose passport is minted, or undefined when there is
 * none. Newest by product id, not by mint time: passports.product_id is the primary key, so the newest rows are
 * read first and the scan stops at the first match, where ordering by minted_at would read the whole table.
 */
export async function latestMintedPassport(db: Knex): Promise<MintedPassportRow | undefined> {
  const row = await db("app.passports as x")
    .join("app.products as p", "p.id", "x.product_id")
    .join("app.brands as b", "b.id", "p.brand_id")
    .where("x.status", "minted")
    .where("b.status", "active")
    .orderBy("x.product_id", "desc")
    .first<{ uid: string; name: string; brand_name: string } | undefined>("p.uid", "p.name", "b.name as brand_name");
  return row && { uid: row.uid, name: row.name, brandName: row.brand_name };
}
