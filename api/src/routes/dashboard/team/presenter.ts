// Team members and audit entries as the dashboard shows them.
import type { AuditPage } from "../../../audit/service";
import type { TeamMember } from "../../../team/service";

export function presentMember(member: TeamMember) {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    role: member.role,
    status: member.status,
    created_at: new Date(member.created_at).toISOString(),
    last_login_at: member.last_login_at ? new Date(member.last_login_at).toISOString() : null,
  };
}

export function presentAudit(page: AuditPage) {
  return {
    entries: page.entries.map((entry) => ({
      id: String(entry.id),
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      details: entry.details,
      at: new Date(entry.created_at).toISOString(),
    })),
    next_before: page.nextBefore,
  };
}
