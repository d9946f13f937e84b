// Operator bearer tokens: opaque random values, stored hashed, valid for a fixed lifetime, revoked at logout.
import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "../db/knex";
import { deleteExpiredSessions, deleteSessions, findOperatorBySession, insertSession } from "./sessions.repo";

export const TOKEN_LIFETIME_SECONDS = 3600;

export type Operator = { id: number; email: string; role: "admin" | "operator"; factory_id: number | null };

function hashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

export async function createSession(db: Knex, operatorId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = `prs_${randomBytes(32).toString("base64url")}`;
  const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_SECONDS * 1000);
  await insertSession(db, { tokenHash: hashToken(token), operatorId, expiresAt });
  // Expired sessions are removed as new ones are made, so the table stays small without a sweeper.
  await deleteExpiredSessions(db);
  return { token, expiresAt };
}

/** The operator of an unexpired token, or undefined. The lookup is by hash, so no token is compared in the clear. */
export async function operatorForToken(db: Knex, token: string): Promise<Operator | undefined> {
  const row = await findOperatorBySession(db, hashToken(token));
  return row ? { ...row, factory_id: row.factory_id === null ? null : Number(row.factory_id) } : undefined;
}

/**
 * Revokes the session of `token` (logout), or with `all` every session of the same operator (logout everywhere, as
 * after a lost laptop). False when the token is unknown or expired, so nothing was revoked.
 */
export async function revokeSessions(db: Knex, token: string, all: boolean): Promise<boolean> {
  return deleteSessions(db, hashToken(token), all);
}
