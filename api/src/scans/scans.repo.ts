// SQL of the customer-facing pages: a brand with its branding, its profile counts, and recorded scans.
import type { Knex } from "../../db/knex";

export type PageBrandRow = {
  id: number;
  slug: string;
  name: string;
  status: "active" | "suspended";
  plan: string;
  limitOverrides: Record<string, unknown>;
  /** As stored; pages read it through readBranding. */
  branding: unknown;
};

type BrandRow = {
  id: number;
  slug: string;
  name: string;
  status: "active" | "suspended";
  plan: string;
  limit_overrides: Record<string, unknown> | null;
  branding: unknown;
};

export async function findPageBrand(db: Knex, where: { id: number } | { slug: string }): Promise<PageBrandRow | undefined> {
  const row = await db("app.brands")
    .where(where)
    .first<BrandRow | undefined>("id", "slug", "name", "status", "plan", "limit_overrides", "branding");
  if (!row) return undefined;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    status: row.status,
    plan: row.plan,
    limitOverrides: row.limit_overrides ?? {},
    branding: row.branding,
  };
}

/** Products of the brand, and how many of them have a minted passport. */
export async function countBrandProducts(db: Knex, brandId: number): Promise<{ products: number; certified: number }> {
  const row = await db("app.products as p")
    .leftJoin("app.passports as x", "x.product_id", "p.id")
    .where("p.brand_id", brandId)
    .first<{ products: number; certified: number }>(
      db.raw("count(*)::int as products"),
      db.raw("count(*) filter (where x.status = 'minted')::int as certified"),
    );
  return { products: row?.products ?? 0, certified: row?.certified ?? 0 };
}

export type CertifiedProductRow = { uid: string; name: string; category: string; carbon_rating: string; carbon_kg: string };

/** The brand's most recently minted products, newest first. */
export async function latestCertifiedProducts(db: Knex, brandId: number, limit: number): Promise<CertifiedProductRow[]> {
  return db("app.products as p")
    .join("app.passports as x", "x.product_id", "p.id")
    .where("p.brand_id", brandId)
    .where("x.status", "minted")
    .orderBy([{ column: "x.minted_at", order: "desc", nulls: "last" }, { column: "p.id", order: "desc" }])
    .limit(limit)
    .select<CertifiedProductRow[]>("p.uid", "p.name", "p.category", "p.carbon_rating", "p.carbon_kg");
}

/** Records one scan; call it inside the transaction that also meters it and enqueues its events. */
export async function insertScanEvent(trx: Knex, productId: number, verified: boolean): Promise<{ id: number; scannedAt: Date }> {
  const [row] = await trx("app.scan_events").insert({ product_id: productId, verified }).returning(["id", "scanned_at"]);
  return { id: Number(row.id), scannedAt: row.scanned_at as Date };
}

/**
 * Whether a client's view of a product counts as a scan, decided by app.admit_scan (migration 013) in one statement:
 * once per client and product in `windowSeconds`, at most `hourLimit` per client and hour. Committed on its own and
 * asynchronously, as the call meter's counters are: a crash loses at most the last moment's admissions.
 */
export async function admitScan(db: Knex, clientKey: string, productId: number, windowSeconds: number, hourLimit: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: Array<{ admitted: boolean }> }>(
    "SELECT app.admit_scan(?, ?, make_interval(secs => ?), ?) AS admitted, set_config('synchronous_commit', 'off', true) AS async_commit",
    [clientKey, productId, windowSeconds, hourLimit],
  );
  return rows[0]?.admitted === true;
}

/** Forgets windows that have passed and client counts of past hours; returns how many rows went. */
export async function pruneScanAdmissions(db: Knex, windowSeconds: number): Promise<number> {
  const windows = await db("app.scan_windows").where("counted_at", "<", db.raw("now() - make_interval(secs => ?)", [windowSeconds])).delete();
  const hours = await db("app.scan_client_hours").where("hour", "<", db.raw("date_trunc('hour', now())")).delete();
  return windows + hours;
}
