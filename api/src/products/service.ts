// Brand products: registration (defaults filled in, carbon estimated, a fresh UID), the certificate record and
// enrichment.
import type { AppDeps } from "../deps";
import type { Knex } from "../db/knex";
import { NotFoundError, ValidationError } from "../errors";
import { newUid } from "../passports/uid";
import { findProductByUid, insertProduct, type ProductRow } from "./products.repo";
import { estimateCarbon } from "./carbon";
import { completeProduct } from "./defaults";
import { productDefaults } from "../brands/service";
import type { IndexerState } from "../onchain/indexer-state.repo";
import { publicPassport } from "../passports/public-passport";
import { factoryProfileExists } from "../factories/factories.repo";

export type { ProductRow };

export type CreateProductInput = {
  sku: string;
  name: string;
  category: string;
  fabric_type?: string;
  price: number;
  currency?: string;
  description?: string;
  factory_id?: number;
  fiber_composition?: Array<{ fiber: string; percent: number }>;
  certifications?: Array<{ code: string; issuer: string; number: string; valid_until: string; evidence_url?: string }>;
  care_instructions?: string;
  country_of_manufacture?: string;
};

export type Brand = { id: number; slug: string; uidPrefix: string };

const MAX_UID_ATTEMPTS = 5;

/** ISO 4217 codes in use, as the runtime's ICU data knows them. */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** Checks what JSON Schema cannot: percentages summing to 100, cents, a known factory. */
async function checkProduct(db: Knex, input: CreateProductInput) {
  const problems: Array<{ field: string; problem: string }> = [];
  if (input.fiber_composition) {
    const total = input.fiber_composition.reduce((sum, share) => sum + share.percent, 0);
    if (Math.abs(total - 100) > 1e-9) problems.push({ field: "fiber_composition", problem: `percentages must sum to 100 (got ${total})` });
    const fibres = input.fiber_composition.map((s) => s.fiber);
    if (new Set(fibres).size !== fibres.length) problems.push({ field: "fiber_composition", problem: "lists a fibre twice" });
  }
  if (Math.round(input.price * 100) !== input.price * 100) problems.push({ field: "price", problem: "must have at most 2 decimals" });
  if (input.currency !== undefined && !CURRENCIES.has(input.currency.toUpperCase())) {
    problems.push({ field: "currency", problem: "is not an ISO 4217 currency code" });
  }
  let factoryCountry: string | undefined;
  if (input.factory_id !== undefined) {
    const factory = await factoryProfileExists(db, input.factory_id);
    if (!factory) problems.push({ field: "factory_id", problem: "is not a registry factory" });
    factoryCountry = factory?.country.trim();
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { factoryCountry };
}

export type CreatedProduct = { productId: number; uid: string; carbonKg: number; carbonRating: string };

/**
 * Registers a product: what the brand left out is filled in, the carbon estimated, and a fresh UID drawn (or `uid`,
 * one the caller chose, as the demo data does). `db` may be a transaction the caller's other writes join (an
 * idempotency key's stored response).
 */
export async function registerProduct(db: Knex, brand: Brand, input: CreateProductInput, options: { uid?: string } = {}): Promise<CreatedProduct> {
  const { factoryCountry } = await checkProduct(db, input);
  const category = input.category.trim().toLowerCase();
  const carbon = estimateCarbon(category, input.fabric_type);
  // What the brand left out is filled in now and stored, so the record reads back complete (spec 2.5) and says how.
  const complete = completeProduct({
    category,
    fabricType: input.fabric_type,
    fiberComposition: input.fiber_composition,
    careInstructions: input.care_instructions,
    countryOfManufacture: input.country_of_manufacture,
    factoryCountry,
    brand: await productDefaults(db, brand.id),
  });
  for (let attempt = 0; attempt < MAX_UID_ATTEMPTS; attempt += 1) {
    const uid = options.uid ?? newUid(brand.uidPrefix);
    const row = await insertProduct(db, {
      brand_id: brand.id,
      uid,
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
    });
    if (row) return { productId: row.id, uid, carbonKg: carbon.kg, carbonRating: carbon.rating };
    if (options.uid) throw new Error(`UID ${options.uid} is taken`);
  }
  throw new Error(`no free UID after ${MAX_UID_ATTEMPTS} attempts`);
}

/** A product of this brand by UID; another brand's UID is NOT_FOUND, as if it did not exist. */
export async function brandProduct(deps: AppDeps, brandId: number, uid: string): Promise<ProductRow> {
  const product = await findProductByUid(deps.db, uid, brandId);
  if (!product) throw new NotFoundError("Product");
  return product;
}

export async function productCertificate(deps: AppDeps, brandId: number, uid: string, state?: IndexerState) {
  return publicPassport(deps, uid, state, brandId);
}
