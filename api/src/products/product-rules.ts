// The rules a product's fields must meet beyond their JSON Schema, and the stored row a valid input becomes, as pure
// functions: the CSV import applies them to thousands of rows with one database read per batch, and edits apply
// them to a changed product. They are the rules of registerProduct (service.ts); test/api/dashboard-imports.test.ts
// checks that an import and POST /api/v1/products refuse the same inputs for the same reasons.
import type { ErrorDetail } from "../errors";
import type { BrandProductDefaults } from "./defaults";
import { completeProduct } from "./defaults";
import { estimateCarbon } from "./carbon";
import type { CreateProductInput } from "./service";
import type { NewProduct } from "./products.repo";
import { aiValueProblem, gtinProblem, normalizeGtin } from "../gs1/digital-link";
import { textileProblems, type TextileData } from "../passports/textile";

/** ISO 4217 codes in use, as the runtime's ICU data knows them. */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** A registry factory as the rules need it: it exists, and where it is. */
export type KnownFactory = { country: string };

/**
 * What JSON Schema cannot check: percentages summing to 100 with no fibre twice, cents, a real currency, a known
 * factory. `factories` holds the factories the input may name (looked up by the caller, once for a whole batch).
 */
export function productProblems(
  input: Partial<Pick<CreateProductInput, "fiber_composition" | "price" | "currency" | "factory_id" | "gtin" | "lot" | "serial">> & { textile?: TextileData | null },
  factories: ReadonlyMap<number, KnownFactory>,
): ErrorDetail[] {
  const problems: ErrorDetail[] = [...gs1Problems(input), ...textileProblems(input.textile)];
  if (input.fiber_composition) {
    const total = input.fiber_composition.reduce((sum, share) => sum + share.percent, 0);
    if (Math.abs(total - 100) > 1e-9) problems.push({ field: "fiber_composition", problem: `percentages must sum to 100 (got ${total})` });
    const fibres = input.fiber_composition.map((s) => s.fiber);
    if (new Set(fibres).size !== fibres.length) problems.push({ field: "fiber_composition", problem: "lists a fibre twice" });
  }
  if (input.price !== undefined && Math.round(input.price * 100) !== input.price * 100) problems.push({ field: "price", problem: "must have at most 2 decimals" });
  if (input.currency !== undefined && !CURRENCIES.has(input.currency.toUpperCase())) {
    problems.push({ field: "currency", problem: "is not an ISO 4217 currency code" });
  }
  if (input.factory_id !== undefined && !factories.has(input.factory_id)) problems.push({ field: "factory_id", problem: "is not a registry factory" });
  return problems;
}

/**
 * A GTIN with its check digit right; a lot and a serial of GS1's character set (that they come with a GTIN is
 * orphanQualifiers', which needs the whole product). An empty string is "none" (an edit clearing the field).
 */
function gs1Problems(input: { gtin?: string | null; lot?: string | null; serial?: string | null }): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const gtin = input.gtin ? gtinProblem(input.gtin) : undefined;
  if (gtin) problems.push({ field: "gtin", problem: gtin });
  for (const field of ["lot", "serial"] as const) {
    const value = input[field];
    if (!value) continue;
    const problem = aiValueProblem(value);
    if (problem) problems.push({ field, problem });
  }
  return problems;
}

/** A lot or serial qualifies a GTIN (GS1 AIs 10 and 21): without one they identify nothing. */
export function orphanQualifiers(product: { gtin?: string | null; lot?: string | null; serial?: string | null }): ErrorDetail[] {
  if (product.gtin) return [];
  return (["lot", "serial"] as const).filter((field) => product[field]).map((field) => ({ field, problem: "needs a GTIN" }));
}

/** The GS1 columns of a product: the GTIN as GTIN-14; lot and serial as given; null for what is left out. */
export function gs1Columns(input: { gtin?: string; lot?: string; serial?: string }): { gtin: string | null; lot: string | null; serial: string | null } {
  const gtin = input.gtin ? (normalizeGtin(input.gtin) ?? null) : null;
  return { gtin, lot: gtin && input.lot ? input.lot : null, serial: gtin && input.serial ? input.serial : null };
}

/**
 * The row registerProduct stores for `input` (minus the UID): names trimmed, category and fabric lower-cased, what
 * the brand left out filled in from its defaults, the carbon estimated.
 */
export function productRowFor(
  brandId: number,
  input: CreateProductInput,
  defaults: BrandProductDefaults,
  factoryCountry: string | undefined,
): Omit<NewProduct, "uid"> {
  const category = input.category.trim().toLowerCase();
  const carbon = estimateCarbon(category, input.fabric_type);
  const complete = completeProduct({
    category,
    fabricType: input.fabric_type,
    fiberComposition: input.fiber_composition,
    careInstructions: input.care_instructions,
    countryOfManufacture: input.country_of_manufacture,
    factoryCountry,
    brand: defaults,
  });
  return {
    brand_id: brandId,
    sku: input.sku,
    name: input.name.trim(),
    category,
    fabric_type: input.fabric_type?.trim().toLowerCase() ?? null,
    price: input.price,
    currency: (input.currency ?? "BDT").toUpperCase(),
    description: input.description ?? null,
    factory_id: input.factory_id ?? null,
    fiber_composition: JSON.stringify(complete.fiberComposition),
    certifications: JSON.stringify(input.certifications ?? []),
    care_instructions: complete.careInstructions,
    country_of_manufacture: complete.countryOfManufacture,
    provenance: JSON.stringify(complete.provenance),
    carbon_kg: carbon.kg,
    carbon_rating: carbon.rating,
    ...gs1Columns(input),
    ...(input.textile ? { textile: JSON.stringify(input.textile) } : {}),
  };
}
