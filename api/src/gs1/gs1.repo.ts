// SQL of the Digital Link resolver: the products a GTIN (with its lot and serial, when given) names.
import type { Knex } from "../db/knex";

export type IdentifiedProduct = {
  uid: string;
  product_name: string;
  gtin: string;
  lot: string | null;
  serial: string | null;
  brand_id: number;
  brand_slug: string;
  brand_name: string;
  brand_custom_domain: string | null;
  passport_status: string | null;
};

/** At most `limit` products with the GTIN (and the lot and serial when given), of one brand when `brandId` is given. */
export async function findProductsByGtin(
  db: Knex,
  ids: { gtin: string; lot?: string; serial?: string },
  options: { brandId?: number; limit: number },
): Promise<IdentifiedProduct[]> {
  const query = db("app.products as p")
    .join("app.brands as b", "b.id", "p.brand_id")
    .leftJoin("app.passports as x", "x.product_id", "p.id")
    .leftJoin("app.custom_domains as d", (on) => on.on("d.brand_id", "p.brand_id").andOnVal("d.status", "verified"))
    .where("p.gtin", ids.gtin)
    .orderBy("p.id")
    .limit(options.limit)
    .select<IdentifiedProduct[]>(
      "p.uid",
      "p.name as product_name",
      "p.gtin",
      "p.lot",
      "p.serial",
      "p.brand_id",
      "b.slug as brand_slug",
      "b.name as brand_name",
      "d.hostname as brand_custom_domain",
      "x.status as passport_status",
    );
  if (ids.lot !== undefined) query.where("p.lot", ids.lot);
  if (ids.serial !== undefined) query.where("p.serial", ids.serial);
  if (options.brandId !== undefined) query.where("p.brand_id", options.brandId);
  return query;
}

/** The GS1 identifiers of the brand's products among `uids` that have a GTIN (tag provisioning writes their Digital Link). */
export async function identifiersByUid(db: Knex, brandId: number, uids: string[]): Promise<Map<string, { gtin: string; lot: string | null; serial: string | null }>> {
  if (uids.length === 0) return new Map();
  const rows = await db("app.products")
    .where({ brand_id: brandId })
    .whereIn("uid", uids)
    .whereNotNull("gtin")
    .select<Array<{ uid: string; gtin: string; lot: string | null; serial: string | null }>>("uid", "gtin", "lot", "serial");
  return new Map(rows.map(({ uid, ...ids }) => [uid, ids]));
}
