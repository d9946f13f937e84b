// The seed factory registry as the marketplace reads it, for the RFQ tests: every factory registered and active a
// day before NOW, its certifications taken from the chain mask.
import { withReputation, type FactoryReputation } from "../../api/src/factories/service";
import { certificationMask } from "../../api/src/factories/reputation";
import { loadFactories, type FactorySeed } from "../../scripts/lib/seed";

export const SEED = loadFactories();
/** The instant the reputations are computed at (seconds). */
export const NOW = Date.UTC(2026, 0, 15) / 1000;

export function seedRegistry(overrides: (f: FactorySeed) => Partial<FactoryReputation> = () => ({})): FactoryReputation[] {
  return SEED.map((f) => {
    const record = withReputation(
      {
        factoryId: f.factory_id,
        name: f.name,
        city: f.city,
        country: f.country,
        profileCertifications: f.certifications,
        productTypes: f.product_types,
        capacityUnitsPerMonth: f.capacity_units_per_month,
        minOrderUnits: f.min_order_units,
        leadTimeDays: f.lead_time_days,
        registered: true,
        verified: f.verified,
        certificationsMask: certificationMask(f.certifications),
        onChainEvents: 3,
        passportsMinted: f.factory_id % 7,
        supplyChainEvents: f.factory_id % 11,
        lastActivityAt: NOW - 86_400,
      },
      NOW,
    );
    return { ...record, ...overrides(f) };
  });
}
