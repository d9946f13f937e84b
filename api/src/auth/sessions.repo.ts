// SQL of operator sessions: stored by the hash of their token, with their expiry.
import type { Knex } from "../db/knex";

export type OperatorRow = { id: number; email: string; role: "admin" | "operator"; factory_id: string | null };

export async function insertSession(db: Knex, session: { tokenHash: Buffer; operatorId: number; expiresAt: Date }): Promise<void> {
  await db("app.operator_sessions").insert({ token_hash: session.tokenHash, operator_id: session.operatorId, expires_at: session.expiresAt });
}

/** Removes sessions that expired more than a day ago. */
export async function deleteExpiredSessions(db: Knex): Promise<void> {
  await db("app.operator_sessions").where("expires_at", "<", db.raw("now() - interval '1 day'")).del();
}

/** The operator of an unexpired session, by the token's hash. */
export async function findOperatorBySession(db: Knex, tokenHash: Buffer): Promise<OperatorRow | undefined> {
  return db("app.operator_sessions as s")
    .join("app.operators as o", "o.id", "s.operator_id")
    .where("s.token_hash", tokenHash)
    .where("s.expires_at", ">", db.fn.now())
    .first<OperatorRow | undefined>("o.id", "o.email", "o.role", "o.factory_id");
}

/** Deletes the unexpired session of `tokenHash` and, with `all`, every session of its operator; false when none was live. */
export async function deleteSessions(db: Knex, tokenHash: Buffer, all: boolean): Promise<boolean> {
  return db.transaction(async (trx) => {
    const [session] = await trx("app.operator_sessions")
      .where("token_hash", tokenHash)
      .where("expires_at", ">", trx.fn.now())
      .del()
      .returning<Array<{ operator_id: number }>>("operator_id");
    if (!session) return false;
    if (all) await trx("app.operator_sessions").where("operator_id", session.operator_id).del();
    return true;
  });
}
