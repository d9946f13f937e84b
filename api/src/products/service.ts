// Brand products: registration (with idempotency keys), the certificate record and enrichment.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { AppDeps } from "../../../app";
import { ConflictError, NotFoundError, ValidationError } from "../../../errors";
import { newUid } from "../../../passports/uid";
import { findProductByUid, type ProductRow } from "../../../passports/repo";
import { estimateCarbon } from "../../../products/carbon";
import { completeProduct } from "../../../products/defaults";
import { productDefaults } from "../../../brands/service";
import type { IndexerState } from "../../../onchain/indexer-state.repo";
import { publicPassport } from "../../dpp/service";
import { factoryProfileExists, findIdempotentResponse, insertProduct, storeIdempotentResponse } from "./repo";

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

class IdempotencyRace extends Error {}

/** Checks what JSON Schema cannot: percentages summing to 100, cents, a known factory. */
/** ISO 4217 codes in use, as the runtime's ICU data knows them. */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

async function checkProduct(deps: AppDeps, input: CreateProductInput) {
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
    const factory = await factoryProfileExists(deps.db, input.factory_id);
    if (!factory) problems.push({ field: "factory_id", problem: "is not a registry factory" });
    factoryCountry = factory?.country.trim();
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { factoryCountry };
}

export type CreatedProduct = { productId: number; uid: string; carbonKg: number; carbonRating: string };

async function createProduct(deps: AppDeps, brand: Brand, input: CreateProductInput, db = deps.db): Promise<CreatedProduct> {
  const { factoryCountry } = await checkProduct(deps, input);
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
    const uid = newUid(brand.uidPrefix);
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
  }
  throw new Error(`no free UID after ${MAX_UID_ATTEMPTS} attempts`);
}

export type Reply = { status: number; body: unknown; replayed: boolean };

/**
 * Registers a product. With an Idempotency-Key, the first response is stored with the product in one transaction;
 * a retry with the same key and body gets that response again and creates nothing, another body is refused.
 */
export async function registerProduct(
  deps: AppDeps,
  brand: Brand,
  input: CreateProductInput,
  idempotencyKey: string | undefined,
  render: (created: CreatedProduct) => { status: number; body: unknown },
): Promise<Reply> {
  if (!idempotencyKey) return { ...render(await createProduct(deps, brand, input)), replayed: false };
  const endpoint = "POST /api/v1/products";
  const requestHash = createHash("sha256").update(canonicalize(input) ?? "").digest("hex");
  const replay = (stored: { request_hash: string; response_status: number; response_body: unknown }): Reply => {
    if (stored.request_hash !== requestHash) throw new ConflictError("This Idempotency-Key was used with a different request body.");
    return { status: stored.response_status, body: stored.response_body, replayed: true };
  };
  const earlier = await findIdempotentResponse(deps.db, brand.id, endpoint, idempotencyKey);
  if (earlier) return replay(earlier);
  const outcome = await deps.db.transaction(async (trx) => {
    const reply = render(await createProduct(deps, brand, input, trx));
    // A concurrent request with the same key waits here on the key's unique index until this one commits.
    const stored = await storeIdempotentResponse(trx, {
      brand_id: brand.id,
      endpoint,
      key: idempotencyKey,
      request_hash: requestHash,
      response_status: reply.status,
      response_body: reply.body,
    });
    // Another request with this key committed first: undo this product and answer with theirs.
    if (!stored) throw new IdempotencyRace();
    return { ...reply, replayed: false };
  }).catch((error: unknown) => {
    if (error instanceof IdempotencyRace) return undefined;
    throw error;
  });
  if (outcome) return outcome;
  return replay((await findIdempotentResponse(deps.db, brand.id, endpoint, idempotencyKey))!);
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
