// API keys as the dashboard manages them: listed with their state, created (the value shown once), rotated with a
// grace period, revoked; each change audited. The keys themselves are service.ts's (stored hashed).
import { recordAudit, type Actor } from "../audit/service";
import type { Knex } from "../db/knex";
import { NotFoundError } from "../errors";
import { issueKey, listKeys, revokeKey, rotateKey, type ApiKeyRecord, type IssuedKey } from "./service";

/** A rotated key stays valid this long unless the caller says otherwise: a day to roll a deployment over. */
export const DEFAULT_GRACE_SECONDS = 24 * 3600;

export type KeyStatus = "active" | "expiring" | "revoked";

/** `expiring`: rotated, still valid until its revocation time. */
export function keyStatus(key: ApiKeyRecord, now = new Date()): KeyStatus {
  if (!key.revokedAt) return "active";
  return key.revokedAt.getTime() > now.getTime() ? "expiring" : "revoked";
}

type KeyBrand = { id: number; slug: string };

export function brandKeys(db: Knex, brand: KeyBrand): Promise<ApiKeyRecord[]> {
  return listKeys(db, brand.slug);
}

async function brandKey(db: Knex, brand: KeyBrand, id: number): Promise<ApiKeyRecord> {
  const key = (await listKeys(db, brand.slug)).find((candidate) => candidate.id === id);
  if (!key) throw new NotFoundError("API key");
  return key;
}

/** A new key; its value is in the result only. */
export async function createBrandKey(db: Knex, brand: KeyBrand, actor: Actor, label?: string): Promise<IssuedKey> {
  return db.transaction(async (trx) => {
    const key = await issueKey(trx, brand.slug, label);
    await recordAudit(trx, brand.id, actor, { action: "key.created", target: `${key.prefix}…`, details: { key_id: key.id, label: key.label } });
    return key;
  });
}

/** A new key replacing key `id`, which stays valid for `graceSeconds` (0: revoked now). */
export async function rotateBrandKey(
  db: Knex,
  brand: KeyBrand,
  actor: Actor,
  id: number,
  graceSeconds = DEFAULT_GRACE_SECONDS,
): Promise<{ key: IssuedKey; revoked: ApiKeyRecord }> {
  return db.transaction(async (trx) => {
    await brandKey(trx, brand, id);
    const rotated = await rotateKey(trx, brand.slug, String(id), { graceSeconds });
    await recordAudit(trx, brand.id, actor, {
      action: "key.rotated",
      target: `${rotated.revoked.prefix}…`,
      details: { key_id: id, new_key_id: rotated.key.id, new_prefix: rotated.key.prefix, grace_seconds: graceSeconds, old_key_expires_at: rotated.revoked.revokedAt?.toISOString() ?? null },
    });
    return rotated;
  });
}

/** Revokes key `id` now; a key revoked already stays as it is. */
export async function revokeBrandKey(db: Knex, brand: KeyBrand, actor: Actor, id: number): Promise<void> {
  await db.transaction(async (trx) => {
    const key = await brandKey(trx, brand, id);
    if (keyStatus(key) === "revoked") return;
    await revokeKey(trx, brand.slug, String(id));
    await recordAudit(trx, brand.id, actor, { action: "key.revoked", target: `${key.prefix}…`, details: { key_id: id, label: key.label, was: keyStatus(key) } });
  });
}
