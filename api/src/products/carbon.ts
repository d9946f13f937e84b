// Cradle-to-gate carbon estimate of a garment: typical weight of its category × emission factor of its fabric.
// Figures are indicative averages (see docs/brand-api.md, "Carbon model"); a brand's measured figure should replace them.

/** Typical finished weight in kg by category. */
export const CATEGORY_WEIGHT_KG: Readonly<Record<string, number>> = {
  "t-shirt": 0.18,
  shirt: 0.25,
  polo: 0.22,
  saree: 0.6,
  dress: 0.35,
  jeans: 0.65,
  denim: 0.65,
  trousers: 0.5,
  sweater: 0.45,
  knitwear: 0.4,
  jacket: 0.9,
  outerwear: 1.1,
  sportswear: 0.25,
  underwear: 0.08,
  socks: 0.06,
  scarf: 0.12,
  hijab: 0.12,
  kidswear: 0.15,
  workwear: 0.7,
  towel: 0.5,
  "home-textile": 1.2,
};
const DEFAULT_WEIGHT_KG = 0.4;

/** kg CO2e per kg of finished fabric, fibre to fabric including wet processing. */
export const FABRIC_FACTOR_KG_PER_KG: Readonly<Record<string, number>> = {
  "organic cotton": 3.8,
  cotton: 5.9,
  "recycled cotton": 2.4,
  polyester: 7.2,
  "recycled polyester": 4.3,
  nylon: 9.1,
  polyamide: 9.1,
  viscose: 6.5,
  lyocell: 4.6,
  modal: 5.2,
  linen: 3.4,
  hemp: 3.1,
  wool: 17.0,
  silk: 25.0,
  acrylic: 9.6,
  elastane: 12.0,
  jute: 2.6,
  "cotton-polyester": 6.5,
};
const DEFAULT_FACTOR = 7.0;

/** Non-textile categories get a per-unit figure, because weight × fabric factor does not describe them. */
const CATEGORY_UNIT_KG: Readonly<Record<string, number>> = { electronics: 45, footwear: 14, accessories: 3 };

export type CarbonRating = "A" | "B" | "C" | "D";

/** Spec 2.8: A at most 2, B at most 5, C at most 10, D above 10 kg CO2e. */
export function carbonRating(kg: number): CarbonRating {
  if (kg <= 2) return "A";
  if (kg <= 5) return "B";
  if (kg <= 10) return "C";
  return "D";
}

export function estimateCarbon(category: string, fabricType: string | null | undefined): { kg: number; rating: CarbonRating } {
  const categoryKey = category.trim().toLowerCase();
  const perUnit = CATEGORY_UNIT_KG[categoryKey];
  let kg: number;
  if (perUnit !== undefined) {
    kg = perUnit;
  } else {
    const weight = CATEGORY_WEIGHT_KG[categoryKey] ?? DEFAULT_WEIGHT_KG;
    const factor = FABRIC_FACTOR_KG_PER_KG[fabricType?.trim().toLowerCase() ?? ""] ?? DEFAULT_FACTOR;
    // Cut-and-sew waste (~15 %) and garment assembly energy (~0.5 kg CO2e) on top of the fabric.
    kg = weight * 1.15 * factor + 0.5;
  }
  const rounded = Math.round(kg * 100) / 100;
  return { kg: rounded, rating: carbonRating(rounded) };
}
