// Deterministic RFQ ranking: hard filters, then a 0-100 score from explainable parts. No AI here; the same needs and
// registry always give the same list.
//
// Hard filters, in this order (the first one that leaves nobody is reported):
//   registered      listed in the on-chain registry (profile-only factories are not offered)
//   certifications  holds every required certification on chain (audited), not merely in its profile
//   product_type    when the RFQ names product types: makes one of them or a related type (vocabulary.ts families)
//   min_order       when a quantity is known: quantity >= the factory's minimum order
//   capacity        when a quantity is known: quantity <= the factory's monthly capacity
// A missing capacity, minimum or lead time in a profile does not exclude a factory; it earns no points for it.
//
// Score weights (sum 100; each part is weight x a share from 0 to 1, the total is rounded):
//   product type 35  average over the asked types: 1 if made, 0.5 if a related type is made; full if none asked
//   reputation   30  the factory's reputation score / 100 (factories/reputation.ts)
//   country      10  full if no country asked or the factory is in one of them, else 0
//   lead time    10  full if none asked or within it; linear penalty beyond, 0 at twice the asked days
//   capacity     10  headroom: full while the order is at most 25% of monthly capacity, 0 at 100%; full if no quantity
//   verified      5  the registry has verified the factory
// Ties: more of the preferred certifications held first, then higher reputation, then lower factory id.
//
// When nobody qualifies, nearMisses lists the registered factories that fail fewest filters, each with what it lacks.
import type { FactoryReputation } from "../factories/service";
import type { Needs } from "./needs";
import { MAX_MATCHES } from "./rfq";
import { RELATED_CREDIT, relatedTypes, type ProductType } from "./vocabulary";

export const MATCH_WEIGHTS = { productType: 35, reputation: 30, country: 10, leadTime: 10, capacity: 10, verified: 5 } as const;
export type ScoreParts = Record<keyof typeof MATCH_WEIGHTS, number>;

/** Share of monthly capacity an order may take and still earn full headroom points. */
const COMFORTABLE_SHARE = 0.25;

export type FilterName = "registered" | "certifications" | "product_type" | "min_order" | "capacity";

export type RankedFactory = {
  factory: FactoryReputation;
  score: number;
  /** Points per part, before rounding the total. */
  parts: ScoreParts;
  /** Asked product types the factory makes, and the related types it makes instead. */
  madeTypes: ProductType[];
  relatedMade: ProductType[];
};

export type EmptiedBy = {
  filter: FilterName;
  /** Facts about the factories the filter removed, for the explanation. */
  lowestMinOrder?: number;
  highestCapacity?: number;
};

export type Ranking = {
  matches: RankedFactory[];
  /** Factories that passed every filter (matches holds the best `limit` of them). */
  qualified: number;
  /** Factories registered on chain. */
  registered: number;
  emptiedBy?: EmptiedBy;
};

type Filter = { name: FilterName; keep: (factory: FactoryReputation) => boolean; facts?: (removed: FactoryReputation[]) => Omit<EmptiedBy, "filter"> };

export function rankFactories(factories: readonly FactoryReputation[], needs: Needs, limit = MAX_MATCHES): Ranking {
  const quantity = needs.quantity;
  const filters: Filter[] = [
    { name: "registered", keep: (f) => f.registered },
    { name: "certifications", keep: (f) => needs.certifications.every((code) => f.certifications.includes(code)) },
    { name: "product_type", keep: (f) => needs.productTypes.length === 0 || productCredit(f, needs.productTypes) > 0 },
    {
      name: "min_order",
      keep: (f) => quantity === undefined || f.minOrderUnits === null || quantity >= f.minOrderUnits,
      facts: (removed) => ({ lowestMinOrder: Math.min(...removed.map((f) => f.minOrderUnits ?? Infinity)) }),
    },
    {
      name: "capacity",
      keep: (f) => quantity === undefined || f.capacityUnitsPerMonth === null || quantity <= f.capacityUnitsPerMonth,
      facts: (removed) => ({ highestCapacity: Math.max(...removed.map((f) => f.capacityUnitsPerMonth ?? 0)) }),
    },
  ];

  let left = [...factories];
  let registered = 0;
  for (const filter of filters) {
    const kept = left.filter(filter.keep);
    if (filter.name === "registered") registered = kept.length;
    if (kept.length === 0) {
      return { matches: [], qualified: 0, registered, emptiedBy: { filter: filter.name, ...filter.facts?.(left) } };
    }
    left = kept;
  }

  const ranked = left.map((factory) => scoreFactory(factory, needs));
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      preferredHeld(b.factory, needs) - preferredHeld(a.factory, needs) ||
      b.factory.score - a.factory.score ||
      a.factory.factoryId - b.factory.factoryId,
  );
  return { matches: ranked.slice(0, Math.max(0, limit)), qualified: ranked.length, registered };
}

function preferredHeld(factory: FactoryReputation, needs: Needs): number {
  return needs.preferredCertifications.filter((code) => factory.certifications.includes(code)).length;
}

/** How many factories a near-miss list shows at most. */
export const MAX_NEAR_MISSES = 3;

export type NearMiss = RankedFactory & {
  /** What keeps the factory out, in words: "SA8000 certification", "makes no workwear or related product", "minimum order 8,000". */
  lacks: string[];
};

/**
 * The registered factories closest to qualifying, for a request nobody qualifies for: fewest unmet requirements first,
 * then by the score they would have.
 */
export function nearMisses(factories: readonly FactoryReputation[], needs: Needs, limit = MAX_NEAR_MISSES): NearMiss[] {
  const quantity = needs.quantity;
  const count = new Intl.NumberFormat("en-US");
  const misses = factories
    .filter((f) => f.registered)
    .map((factory): NearMiss => {
      const lacks = needs.certifications.filter((code) => !factory.certifications.includes(code)).map((code) => `${code} certification`);
      if (needs.productTypes.length > 0 && productCredit(factory, needs.productTypes) === 0) {
        lacks.push(`makes no ${needs.productTypes.join(" or ")} or related product`);
      }
      if (quantity !== undefined && factory.minOrderUnits !== null && quantity < factory.minOrderUnits) {
        lacks.push(`minimum order ${count.format(factory.minOrderUnits)} units`);
      }
      if (quantity !== undefined && factory.capacityUnitsPerMonth !== null && quantity > factory.capacityUnitsPerMonth) {
        lacks.push(`capacity ${count.format(factory.capacityUnitsPerMonth)} units/month`);
      }
      return { ...scoreFactory(factory, needs), lacks };
    })
    .filter((miss) => miss.lacks.length > 0);
  misses.sort((a, b) => a.lacks.length - b.lacks.length || b.score - a.score || a.factory.factoryId - b.factory.factoryId);
  return misses.slice(0, Math.max(0, limit));
}

export function scoreFactory(factory: FactoryReputation, needs: Needs): RankedFactory {
  const shares: ScoreParts = {
    productType: needs.productTypes.length === 0 ? 1 : productCredit(factory, needs.productTypes),
    reputation: clamp(factory.score / 100),
    country: needs.countries.length === 0 || (factory.country !== null && needs.countries.includes(factory.country)) ? 1 : 0,
    leadTime: leadTimeShare(factory.leadTimeDays, needs.maxLeadTimeDays),
    capacity: headroomShare(factory.capacityUnitsPerMonth, needs.quantity),
    verified: factory.verified ? 1 : 0,
  };
  const parts = Object.fromEntries(
    Object.entries(MATCH_WEIGHTS).map(([part, weight]) => [part, weight * shares[part as keyof ScoreParts]]),
  ) as ScoreParts;
  const total = Object.values(parts).reduce((sum, points) => sum + points, 0);
  const made = new Set(factory.productTypes);
  const madeTypes = needs.productTypes.filter((type) => made.has(type));
  const relatedMade = unique(needs.productTypes.flatMap(relatedTypes)).filter(
    (type) => made.has(type) && !needs.productTypes.includes(type),
  );
  return { factory, score: Math.max(0, Math.min(100, Math.round(total))), parts, madeTypes, relatedMade };
}

/** Average credit over the asked types: 1 if the factory makes it, RELATED_CREDIT if it makes a related type. */
export function productCredit(factory: Pick<FactoryReputation, "productTypes">, asked: readonly ProductType[]): number {
  if (asked.length === 0) return 1;
  const made = new Set(factory.productTypes);
  const credits = asked.map((type): number => (made.has(type) ? 1 : relatedTypes(type).some((t) => made.has(t)) ? RELATED_CREDIT : 0));
  return credits.reduce((sum, credit) => sum + credit, 0) / asked.length;
}

function leadTimeShare(leadTimeDays: number | null, maxDays: number | undefined): number {
  if (maxDays === undefined) return 1;
  if (leadTimeDays === null) return 0;
  if (leadTimeDays <= maxDays) return 1;
  return clamp(1 - (leadTimeDays - maxDays) / maxDays);
}

function headroomShare(capacity: number | null, quantity: number | undefined): number {
  if (quantity === undefined) return 1;
  if (capacity === null || capacity <= 0) return 0;
  return clamp((1 - quantity / capacity) / (1 - COMFORTABLE_SHARE));
}

function clamp(share: number): number {
  return Number.isFinite(share) ? Math.max(0, Math.min(1, share)) : 0;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
