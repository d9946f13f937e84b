// SQL of a passport's lineage: the model and batch passports an item (or a batch) was made from, with the data hash
// of each one's current anchored version, to tell whether the version the item is pinned to is still the current one.
import type { Knex } from "../db/knex";
import type { Granularity } from "./content";

export type ParentPassportRow = {
  uid: string;
  dpp_id: string;
  granularity: Granularity;
  name: string;
  lot: string | null;
  /** The hash of the parent's latest anchored version (app.passport_version_history); null before it is anchored. */
  current_data_hash: string | null;
};

/** The brand's passports with these persistent ids (a link to another brand's passport is not resolved). */
export async function findParentPassports(db: Knex, brandId: number, dppIds: string[]): Promise<ParentPassportRow[]> {
  if (dppIds.length === 0) return [];
  const result = await db.raw<{ rows: ParentPassportRow[] }>(
    `SELECT p.uid, p.dpp_id, p.granularity, p.name, p.lot,
            (SELECT h.data_hash FROM app.passport_version_history h
              WHERE h.product_id = p.id ORDER BY h.version DESC LIMIT 1) AS current_data_hash
       FROM app.products p
      WHERE p.brand_id = ? AND p.dpp_id = ANY(?)`,
    [brandId, dppIds],
  );
  return result.rows;
}
