// Audit entries as sentences: who did what to what, when. Shared by the overview and the audit log.
import type { AuditEntry } from "../../api/types";
import { formatDateTime } from "../../ui/format";
import { Empty } from "../../ui/notices";

/** Plain words for the audit actions the API records; an unknown action is shown as recorded. */
const ACTIONS: Record<string, string> = {
  "product.created": "created product",
  "product.updated": "edited product",
  "product.imported": "imported products",
  "product.status_changed": "changed the status of",
  "certificate.issued": "issued the certificate of",
  "tag.assigned": "assigned an NFC tag to",
  "tags.provisioned": "provisioned NFC tags",
  "branding.updated": "updated the branding",
  "logo.updated": "changed the logo",
  "logo.removed": "removed the logo",
  "economic_operator.updated": "set the economic operator id (EORI or GLN) to",
  "economic_operator.cleared": "removed the economic operator id",
  "webhook.created": "added webhook",
  "webhook.updated": "pointed the dashboard webhook at a new URL:",
  "webhook.deleted": "removed webhook",
  "webhook.enabled": "re-enabled webhook",
  "webhook.tested": "sent a test event to webhook",
  "webhook.redelivered": "redelivered an event of webhook",
  "webhook.secret_rotated": "rotated the secret of webhook",
  "key.created": "created API key",
  "key.rotated": "rotated API key",
  "key.revoked": "revoked API key",
  "team.created": "created the account of",
  "team.invited": "invited",
  "team.role_changed": "changed the role of",
  "team.removed": "removed",
};

export function ActivityList({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <Empty>Nothing has happened yet.</Empty>;
  return (
    <ul className="activity">
      {entries.map((entry) => (
        <li key={entry.id}>
          <span>
            <strong>{entry.actor}</strong> {ACTIONS[entry.action] ?? entry.action} {entry.target && <code>{entry.target}</code>}
          </span>
          <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
        </li>
      ))}
    </ul>
  );
}
