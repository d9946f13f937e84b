// SQL of the audit log: one row per change, newest first.
import type { Knex } from "../db/knex";

export type AuditRow = { id: string; actor: string; action: string; target: string | null; details: Record<string, unknown>; created_at: Date };

export async function insertAudit(
  db: Knex,
  entry: { brandId: number; actorUserId: number | null; actor: string; action: string; target: string | null; details: Record<string, unknown> },
): Promise<void> {
  await db("app.audit_log").insert({
    brand_id: entry.brandId,
    actor_user_id: entry.actorUserId,
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    details: JSON.stringify(entry.details),
  });
}

/** A page of a brand's entries, newest first, before the entry `beforeId` when given. */
export async function listAudit(db: Knex, brandId: number, options: { limit: number; beforeId?: string; action?: string }): Promise<AuditRow[]> {
  const query = db("app.audit_log").where("brand_id", brandId).orderBy("id", "desc").limit(options.limit);
  if (options.beforeId) query.where("id", "<", options.beforeId);
  if (options.action) query.where("action", "like", `${options.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return query.select<AuditRow[]>("id", "actor", "action", "target", "details", "created_at");
}
