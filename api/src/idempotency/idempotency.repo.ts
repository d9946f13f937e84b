// SQL for the v1 products of one brand.
import type { Knex } from "../../../db/knex";

export type NewProduct = {
  brand_id: number;
  uid: string;
  sku: string;
  name: string;
  category: string;
  fabric_type: string | null;
  price: number;
  currency: string;
  description: string | null;
  factory_id: number | null;
  fiber_composition: string;
  certifications: string;
  care_instructions: string;
  country_of_manufacture: string | null;
  /** JSON of the Provenance (passports/content.ts). */
  provenance: string;
  carbon_kg: number;
  carbon_rating: string;
};

const UNIQUE_VIOLATION = "23505";

/** Inserts the product; returns undefined if the UID is taken (the caller draws another). */
export async function insertProduct(db: Knex, product: NewProduct): Promise<{ id: number } | undefined> {
  try {
    const [row] = await db("app.products").insert(product).returning<Array<{ id: number }>>(["id"]);
    return row;
  } catch (error) {
    if ((error as { code?: string; constraint?: string }).code === UNIQUE_VIOLATION && (error as { constraint?: string }).constraint === "products_uid_unique") {
      return undefined;
    }
    throw error;
  }
}

export async function factoryProfileExists(db: Knex, factoryId: number): Promise<{ country: string } | undefined> {
  return db("app.factory_profiles").where({ factory_id: factoryId }).first<{ country: string } | undefined>("country");
}

export type StoredResponse = { request_hash: string; response_status: number; response_body: unknown };

export async function findIdempotentResponse(db: Knex, brandId: number, endpoint: string, key: string): Promise<StoredResponse | undefined> {
  return db("app.idempotency_keys")
    .where({ brand_id: brandId, endpoint, key })
    .first<StoredResponse | undefined>("request_hash", "response_status", "response_body");
}

/** Stores the first response for a key; false if another request stored one first (then read that one). */
export async function storeIdempotentResponse(
  db: Knex,
  row: { brand_id: number; endpoint: string; key: string; request_hash: string; response_status: number; response_body: unknown },
): Promise<boolean> {
  const inserted = await db("app.idempotency_keys")
    .insert({ ...row, response_body: JSON.stringify(row.response_body) })
    .onConflict(["brand_id", "endpoint", "key"])
    .ignore()
    .returning("key");
  return inserted.length > 0;
}
