// SQL of a brand's scan history for the dashboard: scans per UTC day and the scans themselves, newest first.
import type { Knex } from "../db/knex";

export type ScanFilter = { brandId: number; productId?: number; since: Date };

export type ScanItemRow = { id: number; uid: string; product_name: string; verified: boolean; scanned_at: Date };

function scansOf(db: Knex, filter: ScanFilter) {
  const query = db("app.scan_events as s").join("app.products as p", "p.id", "s.product_id").where("p.brand_id", filter.brandId).where("s.scanned_at", ">=", filter.since);
  if (filter.productId !== undefined) query.where("s.product_id", filter.productId);
  return query;
}

export async function scansPerDay(db: Knex, filter: ScanFilter): Promise<Array<{ day: string; count: number }>> {
  return scansOf(db, filter)
    .groupByRaw("1")
    .select<Array<{ day: string; count: number }>>(db.raw("to_char(s.scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day"), db.raw("count(*)::int AS count"));
}

export async function listScans(db: Knex, filter: ScanFilter, page: { limit: number; offset: number }): Promise<{ rows: ScanItemRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    scansOf(db, filter)
      .orderBy([{ column: "s.scanned_at", order: "desc" }, { column: "s.id", order: "desc" }])
      .limit(page.limit)
      .offset(page.offset)
      .select<ScanItemRow[]>("s.id", "p.uid", "p.name as product_name", "s.verified", "s.scanned_at"),
    scansOf(db, filter).count<Array<{ count: number }>>({ count: "*" }),
  ]);
  return { rows, total: Number(count[0]?.count ?? 0) };
}
