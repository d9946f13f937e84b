// A brand's public profile (GET /brand/{slug}): its branding, product counts and latest certified products.
import type { AppDeps } from "../deps";
import { brandAddress } from "../domains/service";
import { NotFoundError } from "../errors";
import type { BrandAddress } from "../links";
import type { ProfileProduct } from "../pages/brand-profile";
import type { PageBrand } from "../pages/layout";
import { pageBrand } from "../passports/passport-page";
import { countBrandProducts, findPageBrand, latestCertifiedProducts } from "./brand-profile.repo";
import { SLUG_PATTERN } from "./service";

/** How many of the latest certified products the profile lists. */
export const PROFILE_LATEST = 6;

/** A brand's public profile; NOT_FOUND for an unknown or suspended brand. */
export async function brandProfile(
  deps: AppDeps,
  slug: string,
): Promise<{ brand: PageBrand; address: BrandAddress; counts: { products: number; certified: number }; latest: ProfileProduct[] }> {
  const row = SLUG_PATTERN.test(slug) ? await findPageBrand(deps.db, { slug }) : undefined;
  if (!row || row.status !== "active") throw new NotFoundError("Brand");
  const [counts, latest, address] = await Promise.all([
    countBrandProducts(deps.db, row.id),
    latestCertifiedProducts(deps.db, row.id, PROFILE_LATEST),
    brandAddress(deps.db, row.id),
  ]);
  return {
    brand: pageBrand(row),
    address: address ?? { slug: row.slug, customDomain: null },
    counts,
    latest: latest.map((p) => ({ uid: p.uid, name: p.name, category: p.category, carbonRating: p.carbon_rating.trim(), carbonKg: Number(p.carbon_kg) })),
  };
}
