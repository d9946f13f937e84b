// Brand products: registration (defaults filled in, carbon estimated, a fresh UID), the certificate record and
// enrichment.
import type { AppDeps } from "../deps";
import type { Knex } from "../db/knex";
import { AppError, ConflictError, NotFoundError, ValidationError } from "../errors";
import { newUid } from "../passports/uid";
import { claimGtins, findProductByUid, insertProduct, isGtinSerialTaken, isSkuTaken, productsWithSkus, type PassportLink, type ProductRow } from "./products.repo";
import { orphanQualifiers, productProblems, productRowFor, type KnownFactory } from "./product-rules";
import { productDefaults } from "../brands/service";
import type { IndexerState } from "../onchain/indexer-state.repo";
import type { TextileData } from "../passports/textile";
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
  /** GS1 identifiers: a GTIN-8/12/13/14 (stored as GTIN-14), and with it a lot (AI 10) and a serial (AI 21). */
  gtin?: string;
  lot?: string;
  serial?: string;
  /** The textile section (content version 4; passports/textile.ts). */
  textile?: TextileData;
};

export type Brand = { id: number; slug: string; uidPrefix: string };

const MAX_UID_ATTEMPTS = 5;

/** Checks what JSON Schema cannot (product-rules.ts, shared with the CSV import) and finds the named factory. */
async function checkProduct(db: Knex, input: CreateProductInput): Promise<{ factoryCountry: string | undefined }> {
  const factories = new Map<number, KnownFactory>();
  if (input.factory_id !== undefined) {
    const factory = await factoryProfileExists(db, input.factory_id);
    if (factory) factories.set(input.factory_id, { country: factory.country.trim() });
  }
  const problems = [...productProblems(input, factories), ...orphanQualifiers(input)];
  if (problems.length > 0) throw new ValidationError(problems);
  return { factoryCountry: input.factory_id === undefined ? undefined : factories.get(input.factory_id)?.country };
}

export type CreatedProduct = { productId: number; uid: string; carbonKg: number; carbonRating: string };

/**
 * Registers a product: what the brand left out is filled in, the carbon estimated, and a fresh UID drawn (or `uid`,
 * one the caller chose, as the demo data does). `db` may be a transaction the caller's other writes join (an
 * idempotency key's stored response).
 */
export async function registerProduct(db: Knex, brand: Brand, input: CreateProductInput, options: { uid?: string; link?: PassportLink } = {}): Promise<CreatedProduct> {
  const { factoryCountry } = await checkProduct(db, input);
  // What the brand left out is filled in now and stored, so the record reads back complete (spec 2.5) and says how.
  const values = productRowFor(brand.id, input, await productDefaults(db, brand.id), factoryCountry);
  if (values.gtin) await claimGtin(db, brand.id, values.gtin);
  // A model's batches and items share its SKU (migration 033): only a model, or a product without one, holds a SKU.
  const holdsSku = !values.serial && !options.link?.model_id && options.link?.granularity !== "batch";
  const holder = holdsSku ? (await productsWithSkus(db, brand.id, [values.sku])).get(values.sku) : undefined;
  if (holder) throw skuTaken(values.sku, holder);
  for (let attempt = 0; attempt < MAX_UID_ATTEMPTS; attempt += 1) {
    const uid = options.uid ?? newUid(brand.uidPrefix);
    const row = await insertProduct(db, { ...values, ...options.link, uid }).catch((error: unknown) => {
      if (isGtinSerialTaken(error)) throw gtinSerialTaken(values.gtin!, values.serial!);
      // Registered by a concurrent request since the check above: the unique index decides.
      if (isSkuTaken(error)) throw skuTaken(values.sku);
      throw error;
    });
    if (row) return { productId: row.id, uid, carbonKg: values.carbon_kg, carbonRating: values.carbon_rating };
    if (options.uid) throw new Error(`UID ${options.uid} is taken`);
  }
  throw new Error(`no free UID after ${MAX_UID_ATTEMPTS} attempts`);
}

/** Holds `gtin` (GTIN-14) for the brand, or 409 CONFLICT when another brand's products carry it (whose, is not said). */
export async function claimGtin(db: Knex, brandId: number, gtin: string): Promise<void> {
  if ((await claimGtins(db, brandId, [gtin])).get(gtin) !== brandId) throw gtinOfAnotherBrand(gtin);
}

export function gtinOfAnotherBrand(gtin: string): ConflictError {
  return new ConflictError(`GTIN ${gtin} is used by another brand's products. A GTIN belongs to the brand owner whose GS1 company prefix it carries; use one of your own.`);
}

/** 409 CONFLICT: a GTIN and serial name one item, service-wide (whose it is, is not said). */
export function gtinSerialTaken(gtin: string, serial: string): ConflictError {
  return new ConflictError(`A product with GTIN ${gtin} and serial ${serial} is registered already; each item needs its own serial.`);
}

/** 409 CONFLICT: a SKU names one product of a brand (migration 031); which product has it, when known. */
export function skuTaken(sku: string, uid?: string): AppError {
  const holder = uid ? `your product ${uid}` : "another of your products";
  // The detail names the field, so a form shows the refusal under its SKU input.
  return new AppError(409, "CONFLICT", `${holder[0]!.toUpperCase()}${holder.slice(1)} has SKU ${sku} already; each product needs its own SKU (edit that product, or use another SKU).`, [
    { field: "sku", problem: `is in use by ${holder}` },
  ]);
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
