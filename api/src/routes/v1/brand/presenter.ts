// Shapes the brand record of GET /api/v1/brand; key material never appears in it.
import type { BrandRecord } from "../../../brands/service";
import type { BrandContext } from "../../../brands/service";
import { isPlanName, PLANS, presentLimits } from "../../../plans/catalogue";

export function presentBrand(brand: BrandContext, record: BrandRecord) {
  return {
    slug: brand.slug,
    name: brand.name,
    uid_prefix: brand.uidPrefix,
    status: brand.status,
    plan: brand.plan,
    plan_tier: isPlanName(brand.plan) ? PLANS[brand.plan].tier : 1,
    limits: presentLimits(brand.limits),
    custom_limits: Object.keys(record.limitOverrides).length > 0,
    created_at: record.createdAt.toISOString(),
  };
}
