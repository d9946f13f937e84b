// SQL of idempotency keys: the first response stored for a brand, endpoint and key (migration 006).
import type { Knex } from "../db/knex";

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
