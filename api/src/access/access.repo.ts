// The tables of migration 039: a brand's overrides, reader keys, authority keys, trusted issuers, and the access log.
import type { Knex } from "knex";
import type { JWK } from "jose";
import type { AccessClass, Overrides } from "./classes";

export async function overridesOf(db: Knex, brandId: number): Promise<Overrides> {
  const rows = await db("app.access_overrides").where("brand_id", brandId).select<Array<{ element: string; access_class: AccessClass }>>("element", "access_class");
  return Object.fromEntries(rows.map((row) => [row.element, row.access_class]));
}

/** Replaces the brand's overrides with `overrides` (already checked). */
export async function replaceOverrides(db: Knex, brandId: number, overrides: Overrides): Promise<void> {
  await db.transaction(async (trx) => {
    await trx("app.access_overrides").where("brand_id", brandId).delete();
    const rows = Object.entries(overrides).map(([element, cls]) => ({ brand_id: brandId, element, access_class: cls }));
    if (rows.length > 0) await trx("app.access_overrides").insert(rows);
  });
}

export type ReaderKeyRow = {
  id: string;
  brand_id: number;
  key_hash: Buffer;
  prefix: string;
  label: string;
  reader_type: string;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
};

export async function findReaderKeyByHash(db: Knex, hash: Buffer): Promise<ReaderKeyRow | undefined> {
  return db("app.reader_keys").where("key_hash", hash).first<ReaderKeyRow | undefined>();
}

export async function insertReaderKey(db: Knex, row: { brand_id: number; key_hash: Buffer; prefix: string; label: string; reader_type: string }): Promise<ReaderKeyRow> {
  const [created] = await db("app.reader_keys").insert(row).returning<ReaderKeyRow[]>("*");
  return created!;
}

export async function listReaderKeys(db: Knex, brandId: number): Promise<ReaderKeyRow[]> {
  return db("app.reader_keys").where("brand_id", brandId).orderBy("id", "desc").select<ReaderKeyRow[]>("*");
}

/** Revokes the brand's key `id` (once); undefined when the brand has no such key. */
export async function revokeReaderKey(db: Knex, brandId: number, id: number): Promise<ReaderKeyRow | undefined> {
  const [row] = await db("app.reader_keys")
    .where({ brand_id: brandId, id })
    .update({ revoked_at: db.raw("coalesce(revoked_at, now())") })
    .returning<ReaderKeyRow[]>("*");
  return row;
}

export async function touchReaderKey(db: Knex, id: string): Promise<void> {
  await db("app.reader_keys").where("id", id).update({ last_used_at: db.fn.now() });
}

export type AuthorityKeyRow = { id: string; key_hash: Buffer; prefix: string; label: string; created_at: Date; revoked_at: Date | null };

export async function findAuthorityKeyByHash(db: Knex, hash: Buffer): Promise<AuthorityKeyRow | undefined> {
  return db("app.authority_keys").where("key_hash", hash).first<AuthorityKeyRow | undefined>();
}

export async function insertAuthorityKey(db: Knex, row: { key_hash: Buffer; prefix: string; label: string }): Promise<AuthorityKeyRow> {
  const [created] = await db("app.authority_keys").insert(row).returning<AuthorityKeyRow[]>("*");
  return created!;
}

export async function listAuthorityKeys(db: Knex): Promise<AuthorityKeyRow[]> {
  return db("app.authority_keys").orderBy("id").select<AuthorityKeyRow[]>("*");
}

export async function revokeAuthorityKey(db: Knex, id: number): Promise<AuthorityKeyRow | undefined> {
  const [row] = await db("app.authority_keys").where("id", id).update({ revoked_at: db.raw("coalesce(revoked_at, now())") }).returning<AuthorityKeyRow[]>("*");
  return row;
}

export type TrustedIssuerRow = { id: string; issuer: string; public_jwk: JWK; label: string; created_at: Date };

export async function trustedKeysOf(db: Knex, issuer: string): Promise<TrustedIssuerRow[]> {
  return db("app.trusted_issuers").where("issuer", issuer).orderBy("id").select<TrustedIssuerRow[]>("*");
}

export async function insertTrustedIssuer(db: Knex, row: { issuer: string; public_jwk: JWK; label: string }): Promise<TrustedIssuerRow> {
  const [created] = await db("app.trusted_issuers")
    .insert({ ...row, public_jwk: JSON.stringify(row.public_jwk) })
    .onConflict(["issuer", "public_jwk"])
    .merge({ label: row.label })
    .returning<TrustedIssuerRow[]>("*");
  return created!;
}

export async function listTrustedIssuers(db: Knex): Promise<TrustedIssuerRow[]> {
  return db("app.trusted_issuers").orderBy("id").select<TrustedIssuerRow[]>("*");
}

export async function deleteTrustedIssuer(db: Knex, id: number): Promise<boolean> {
  return (await db("app.trusted_issuers").where("id", id).delete()) > 0;
}

export type AccessLogEntry = {
  /** Null for a back-up's copy of another deployment's passport. */
  brand_id: number | null;
  product_id: number | null;
  uid: string;
  dpp_id: string;
  reader_class: Exclude<AccessClass, "public">;
  reader_kind: "reader_key" | "credential" | "authority_key";
  reader_id: string;
  reader_label: string | null;
  reader_type: string | null;
  operation: string;
  elements: string[];
};

export async function insertAccessLog(db: Knex, entry: AccessLogEntry): Promise<void> {
  await db("app.access_log").insert(entry);
}

export type AccessLogRow = AccessLogEntry & { id: string; read_at: Date };

export async function accessLogPage(db: Knex, brandId: number, limit: number, offset: number): Promise<{ rows: AccessLogRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db("app.access_log").where("brand_id", brandId).orderBy("id", "desc").limit(limit).offset(offset).select<AccessLogRow[]>("*"),
    db("app.access_log").where("brand_id", brandId).count<{ count: string }[]>("* as count"),
  ]);
  return { rows, total: Number(count[0]?.count ?? 0) };
}
