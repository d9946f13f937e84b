// The audit log: who changed what in the brand, newest first, a page at a time, filtered by kind of action.
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import { SelectField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { TableScroll } from "../../ui/TableScroll";

const PAGE = 50;
const KINDS = [
  { value: "", text: "Everything" },
  { value: "product.", text: "Products" },
  { value: "certificate.", text: "Certificates" },
  { value: "tag.", text: "NFC tags" },
  { value: "branding.", text: "Branding" },
  { value: "logo.", text: "Logo" },
  { value: "webhook.", text: "Webhooks" },
  { value: "key.", text: "API keys" },
  { value: "team.", text: "Team" },
];

function detailsText(details: unknown): string {
  if (!details || typeof details !== "object" || Object.keys(details).length === 0) return "";
  return Object.entries(details as Record<string, unknown>)
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join("; ");
}

export function AuditScreen() {
  const [action, setAction] = useState("");
  // Each page is asked for with the cursor the previous one gave, so Back is a stack of cursors.
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors[cursors.length - 1];
  const log = useResource(
    () => dataOf(api.GET("/api/dashboard/audit", { params: { query: { limit: String(PAGE), ...(before ? { before } : {}), ...(action ? { action } : {}) } } })),
    [action, before],
  );

  return (
    <Page title="Audit log" subtitle="Every change made in the dashboard, by the API or by the operator.">
      <Section title="Entries" id="audit-entries">
        <SelectField
          label="Show"
          value={action}
          onChange={(e) => {
            setAction(e.target.value);
            setCursors([]);
          }}
        >
          {KINDS.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.text}
            </option>
          ))}
        </SelectField>
        {log.loading && !log.data && <Loading what="the audit log" />}
        {log.error && <ErrorNotice error={log.error} title="The audit log could not be loaded." />}
        {log.data && log.data.entries.length === 0 && <Empty>No entries.</Empty>}
        {log.data && log.data.entries.length > 0 && (
          <TableScroll label="Audit log entries">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {log.data.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                    </td>
                    <td>{entry.actor}</td>
                    <th scope="row">
                      <code>{entry.action}</code>
                    </th>
                    <td className="break">{entry.target ?? "—"}</td>
                    <td className="break small">{detailsText(entry.details)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        <nav className="pager" aria-label="Pages of the audit log">
          <button type="button" className="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer entries
          </button>
          <span>Page {cursors.length + 1}</span>
          <button type="button" className="secondary" disabled={!log.data?.next_before} onClick={() => log.data?.next_before && setCursors([...cursors, log.data.next_before])}>
            Older entries
          </button>
        </nav>
      </Section>
    </Page>
  );
}
