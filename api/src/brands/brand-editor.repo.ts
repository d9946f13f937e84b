// SQL of the dashboard's brand editor: serialising a brand's branding changes, and the product its preview shows.
import type { Knex } from "../db/knex";

/**
 * Locks the brand's row until the transaction ends: branding is read, changed and written back whole (a jsonb
 * column), so two editors saving at once would otherwise lose one of the changes. FOR NO KEY UPDATE: rows that
 * reference the brand (events, scans, usage) still pass their foreign-key checks meanwhile.
 */
export async function lockBrandRow(trx: Knex, brandId: number): Promise<void> {
  await trx("app.brands").where({ id: brandId }).forNoKeyUpdate().first("id");
}

/** The UID of the brand's most recently registered product, if it has any. */
export async function newestProductUid(db: Knex, brandId: number): Promise<string | undefined> {
  const row = await db("app.products").where({ brand_id: brandId }).orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "desc" }]).first<{ uid: string } | undefined>("uid");
  return row?.uid;
}
