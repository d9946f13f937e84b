// SQL of a brand as its public pages show it: its branding, its product counts and its latest certified products.
import type { Knex } from "../db/knex";

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
