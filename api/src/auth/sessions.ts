// Operator bearer tokens: opaque random values, stored hashed, valid for a fixed lifetime, revoked at logout.
import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "../db/knex";

export const TOKEN_LIFETIME_SECONDS = 3600;

export type Operator = { id: number; email: string; role: "admin" | "operator"; factory_id: number | null };

function hashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

export async function createSession(db: Knex, operatorId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = `prs_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_SECONDS * 1000);
  await db("app.operator_sessions").insert({ token_hash: hashToken(token), operator_id: operatorId, expires_at: expiresAt });
  // Expired sessions are removed as new ones are made, so the table stays small without a sweeper.
  await db("app.operator_sessions").where("expires_at", "<", db.raw("now() - interval '1 day'")).del();
  return { token, expiresAt };
}

/** The operator of an unexpired token, or undefined. The lookup is by hash, so no token is compared in the clear. */
export async function operatorForToken(db: Knex, token: string): Promise<Operator | undefined> {
  const row = await db("app.operator_sessions as s")
    .join("app.operators as o", "o.id", "s.operator_id")
    .where("s.token_hash", hashToken(token))
    .where("s.expires_at", ">", db.fn.now())
    .first<{ id: number; email: string; role: "admin" | "operator"; factory_id: string | null } | undefined>("o.id", "o.email", "o.role", "o.factory_id");
  return row ? { ...row, factory_id: row.factory_id === null ? null : Number(row.factory_id) } : undefined;
}

/**
 * Revokes the session of `token` (logout), or with `all` every session of the same operator (logout everywhere, as
 * after a lost laptop). False when the token is unknown or expired, so nothing was revoked.
 */
export async function revokeSessions(db: Knex, token: string, all: boolean): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [session] = await trx("app.operator_sessions")
      .where("token_hash", hashToken(token))
      .where("expires_at", ">", trx.fn.now())
      .del()
      .returning<Array<{ operator_id: number }>>("operator_id");
    if (!session) return false;
    if (all) await trx("app.operator_sessions").where("operator_id", session.operator_id).del();
    return true;
  });
}
