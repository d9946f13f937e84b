// The audit log of a brand: who changed keys, branding, webhooks, issuance, products and the team, and when.
import type { Knex } from "../db/knex";
import { insertAudit, listAudit, type AuditRow } from "./audit.repo";

/** Who acted: a dashboard user, or (for changes made outside the dashboard) a named system actor such as the CLI. */
export type Actor = { userId: number; email: string } | { system: string };

/**
 * Actions are `<area>.<verb>`: key.created, key.rotated, key.revoked, branding.updated, logo.updated,
 * economic_operator.updated, economic_operator.cleared, webhook.*, certificate.issued, product.created,
 * product.updated, product.imported, product.status_changed, tag.assigned, team.invited, team.role_changed,
 * team.removed, session.* (sign-ins are not logged here; see the access log).
 */
export type AuditEntry = { action: string; target?: string | null; details?: Record<string, unknown> };

/** Records one change; pass the transaction the change runs in, so the entry and the change commit together. */
export async function recordAudit(db: Knex, brandId: number, actor: Actor, entry: AuditEntry): Promise<void> {
  await insertAudit(db, {
    brandId,
    actorUserId: "userId" in actor ? actor.userId : null,
    actor: "userId" in actor ? actor.email : actor.system,
    action: entry.action,
    target: entry.target ?? null,
    details: entry.details ?? {},
  });
}

export type AuditPage = { entries: AuditRow[]; nextBefore: string | null };

export async function auditLog(db: Knex, brandId: number, options: { limit: number; before?: string; action?: string }): Promise<AuditPage> {
  const rows = await listAudit(db, brandId, { limit: options.limit + 1, beforeId: options.before, action: options.action });
  const entries = rows.slice(0, options.limit);
  return { entries, nextBefore: rows.length > options.limit ? entries[entries.length - 1]!.id : null };
}
