// What a product's record says when the brand declared only spec 4.8's fields: fibres read from fabric_type, care
// text and country of manufacture from the brand's defaults or the category, and where each value came from.
import { compositionFromFabricType } from "../passports/fibres";
import type { FiberShare, Provenance } from "../passports/content";

/** Care for any garment whose category has no entry of its own. */
export const GARMENT_CARE = "Follow the care label sewn into the garment. Wash with similar colours; do not bleach; do not tumble dry unless the label allows it.";

/** Care by category, for the garments brands register most; other categories get GARMENT_CARE. */
export const CARE_BY_CATEGORY: Readonly<Record<string, string>> = {
  shirt: "Machine wash at 30 °C with similar colours. Do not bleach. Do not tumble dry. Iron at medium heat.",
  "t-shirt": "Machine wash at 30 °C inside out with similar colours. Do not bleach. Tumble dry low. Iron at low heat, not on prints.",
  polo: "Machine wash at 30 °C with similar colours. Do not bleach. Tumble dry low. Iron at low heat.",
  saree: "Dry clean, or hand wash separately in cold water with a mild detergent. Do not wring; dry in shade. Iron at low heat on the reverse.",
  jeans: "Wash inside out at 30 °C with dark colours; the first washes may bleed. Do not bleach. Line dry. Iron at medium heat.",
  knitwear: "Hand wash cold or use a wool cycle at 30 °C. Do not wring or tumble dry; dry flat in shape. Iron at low heat if needed.",
  dress: "Machine wash at 30 °C on a gentle cycle with similar colours. Do not bleach. Line dry. Iron at low to medium heat.",
  trousers: "Machine wash at 30 °C inside out with similar colours. Do not bleach. Line dry. Iron at medium heat.",
  jacket: "Follow the label: dry clean or wash at 30 °C on a gentle cycle, fastened and inside out. Do not bleach. Line dry.",
  sportswear: "Machine wash at 30 °C inside out. No fabric softener. Do not bleach. Do not tumble dry or iron.",
  underwear: "Machine wash at 40 °C with similar colours. Do not bleach. Line dry.",
  socks: "Machine wash at 40 °C inside out with similar colours. Do not bleach. Do not iron.",
  scarf: "Hand wash cold with a mild detergent. Do not wring; dry flat in shade. Iron at low heat.",
  towel: "Machine wash at 60 °C. Do not use fabric softener. Tumble dry medium.",
  footwear: "Wipe clean with a damp cloth. Air dry away from direct heat. Do not machine wash.",
  electronics: "Keep dry and away from heat. Clean with a dry cloth. Do not dispose of with household waste: take it to an electronics collection point.",
  accessories: "Wipe clean with a damp cloth. Keep away from heat and moisture.",
};

/** Other names brands use for the categories above. */
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  tshirt: "t-shirt", "t shirt": "t-shirt", tee: "t-shirt",
  sari: "saree",
  denim: "jeans",
  sweater: "knitwear", jumper: "knitwear", cardigan: "knitwear", pullover: "knitwear", hoodie: "knitwear",
  pants: "trousers", chinos: "trousers",
  outerwear: "jacket", coat: "jacket",
  hijab: "scarf", shawl: "scarf",
  shoes: "footwear",
};

/** A brand's care texts by category; the key "*" is the brand's text for every category it does not name. */
export type CareByCategory = Record<string, string>;
export const BRAND_CARE_FALLBACK = "*";

export type BrandProductDefaults = { countryOfManufacture: string | null; careByCategory: CareByCategory };

/** Spec 2.5's care_instructions of a product registered, before defaults existed, without care text. */
export const CARE_NOT_DECLARED = "not declared";

/** Spec 2.5's country_of_manufacture when neither product, factory nor brand gave one: CLDR's "Unknown Region". */
export const UNKNOWN_COUNTRY = "ZZ";

const REGIONS = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
/** Two-letter codes the runtime knows that are not one country (or not ISO 3166-1's code for it: UK is GB). */
const NOT_COUNTRIES = new Set([UNKNOWN_COUNTRY, "EU", "EZ", "UN", "QO", "UK", "XA", "XB"]);

/** An ISO 3166-1 alpha-2 code of a country or territory, as the runtime's ICU data knows them. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && REGIONS.of(code) !== undefined;
}

export function normaliseCategory(category: string): string {
  return category.trim().toLowerCase();
}

/** The category a brand's word names ("Tee" and "tshirt" are "t-shirt"); an unknown one, lower-cased. */
export function canonicalCategory(category: string): string {
  const named = normaliseCategory(category);
  return CATEGORY_ALIASES[named] ?? named;
}

/** The care text of a category and whose it is: the brand's own for it, the brand's fallback, else the built-in. */
export function defaultCare(category: string, brandCare: CareByCategory): { text: string; source: "brand_default" | "category_default" } {
  const named = normaliseCategory(category);
  const canonical = canonicalCategory(category);
  const own = brandCare[named] ?? brandCare[canonical] ?? brandCare[BRAND_CARE_FALLBACK];
  if (own !== undefined) return { text: own, source: "brand_default" };
  return { text: CARE_BY_CATEGORY[canonical] ?? GARMENT_CARE, source: "category_default" };
}

/**
 * Fills what the brand did not declare, once, at registration: the values are stored with the product and anchored
 * with its passport, so a later change of the brand's defaults never changes a passport already issued.
 */
export function completeProduct(input: {
  category: string;
  fabricType: string | undefined;
  fiberComposition: FiberShare[] | undefined;
  careInstructions: string | undefined;
  countryOfManufacture: string | undefined;
  factoryCountry: string | undefined;
  brand: BrandProductDefaults;
}): { fiberComposition: FiberShare[]; careInstructions: string; countryOfManufacture: string | null; provenance: Provenance } {
  const derived = input.fiberComposition === undefined && input.fabricType !== undefined ? compositionFromFabricType(input.fabricType) : undefined;
  const fibre: Pick<Provenance, "fiber_composition"> & { shares: FiberShare[] } = input.fiberComposition
    ? { shares: input.fiberComposition, fiber_composition: "declared" }
    : derived
      ? { shares: derived, fiber_composition: "derived_from_fabric_type" }
      : { shares: [], fiber_composition: "unknown" };

  const declaredCare = input.careInstructions?.trim();
  const care = declaredCare ? { text: declaredCare, source: "declared" as const } : defaultCare(input.category, input.brand.careByCategory);

  let country: { code: string | null; source: Provenance["country_of_manufacture"] } = { code: null, source: "unknown" };
  if (input.countryOfManufacture) country = { code: input.countryOfManufacture, source: "declared" };
  else if (input.factoryCountry) country = { code: input.factoryCountry, source: "factory" };
  else if (input.brand.countryOfManufacture) country = { code: input.brand.countryOfManufacture, source: "brand_default" };

  return {
    fiberComposition: fibre.shares,
    careInstructions: care.text,
    countryOfManufacture: country.code,
    provenance: { fiber_composition: fibre.fiber_composition, care_instructions: care.source, country_of_manufacture: country.source },
  };
}
