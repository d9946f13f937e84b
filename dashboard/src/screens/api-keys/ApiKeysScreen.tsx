// API keys of the brand's v1 integration: create (the key is shown once), rotate with a grace period for the old
// key, revoke at once; when each was last used.
import { useState } from "react";
import { api, dataOf, done } from "../../api/client";
import type { ApiKey, NewApiKey } from "../../api/types";
import { Badge } from "../../ui/badges";
import { ConfirmButton } from "../../ui/buttons";
import { SelectField, TextField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useAction, useResource } from "../../ui/hooks";
import { ActionStatus, Empty, ErrorNotice, Loading } from "../../ui/notices";
import { OneTimeSecret } from "../../ui/OneTimeSecret";
import { Page, Section } from "../../ui/Page";
import { TableScroll } from "../../ui/TableScroll";

const GRACE = [
  { seconds: 0, text: "No grace: revoke the old key now" },
  { seconds: 3600, text: "1 hour" },
  { seconds: 86400, text: "24 hours" },
  { seconds: 604800, text: "7 days" },
];

const STATUS_TONE = { active: "ok", expiring: "warn", revoked: "bad" } as const;

export function ApiKeysScreen() {
  const keys = useResource(() => dataOf(api.GET("/api/dashboard/api-keys")), []);
  const [issued, setIssued] = useState<NewApiKey>();
  const act = useAction();

  const showKey = (key: NewApiKey) => {
    setIssued(key);
    keys.reload();
  };

  return (
    <Page title="API keys" subtitle="Keys for your systems to call the v1 API (products, certificates, usage).">
      {issued && (
        <OneTimeSecret
          title={`New API key${issued.label ? ` “${issued.label}”` : ""}`}
          value={issued.key}
          note={issued.old_key_expires_at ? `The old key keeps working until ${formatDateTime(issued.old_key_expires_at)}.` : undefined}
          onDismiss={() => setIssued(undefined)}
        />
      )}
      <CreateKey onCreated={showKey} />
      <Section title="Your keys" id="keys">
        <ActionStatus action={act} />
        {keys.loading && !keys.data && <Loading what="API keys" />}
        {keys.error && <ErrorNotice error={keys.error} title="The keys could not be loaded." />}
        {keys.data && keys.data.length === 0 && <Empty>No API keys yet.</Empty>}
        {keys.data && keys.data.length > 0 && (
          <TableScroll label="API keys">
            <table>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="wide-only">
                    Created
                  </th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <KeyRow key={key.id} apiKey={key} busy={act.busy} onRotated={showKey} run={act.run} reload={keys.reload} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Section>
    </Page>
  );
}

function CreateKey({ onCreated }: { onCreated: (key: NewApiKey) => void }) {
  const [label, setLabel] = useState("");
  const create = useAction();
  return (
    <Section title="Create a key" id="create-key">
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create.run(async () => {
            const key = await dataOf(api.POST("/api/dashboard/api-keys", { body: label.trim() ? { label: label.trim() } : {} }));
            setLabel("");
            onCreated(key);
            return "Key created: copy it now.";
          });
        }}
      >
        <TextField label="Label (optional)" maxLength={60} placeholder="e.g. ERP production" value={label} onChange={(e) => setLabel(e.target.value)} error={create.error?.problemWith("label")} />
        <button type="submit" aria-disabled={create.busy || undefined}>
          Create API key
        </button>
      </form>
      <ActionStatus action={create} busyText="Creating…" />
    </Section>
  );
}

function KeyRow({
  apiKey,
  busy,
  onRotated,
  run,
  reload,
}: {
  apiKey: ApiKey;
  busy: boolean;
  onRotated: (key: NewApiKey) => void;
  run: (work: () => Promise<string | void>) => Promise<boolean>;
  reload: () => void;
}) {
  const [rotating, setRotating] = useState(false);
  const [grace, setGrace] = useState("86400");
  const id = String(apiKey.id);
  const name = apiKey.label ?? apiKey.prefix;

  return (
    <tr>
      <th scope="row">
        {apiKey.label ?? <span className="muted">No label</span>}
        <div className="mono small">{apiKey.prefix}…</div>
      </th>
      <td>
        <Badge tone={STATUS_TONE[apiKey.status]}>{apiKey.status === "expiring" ? `Expiring ${formatDateTime(apiKey.revoked_at)}` : apiKey.status === "revoked" ? "Revoked" : "Active"}</Badge>
      </td>
      <td className="wide-only">{formatDateTime(apiKey.created_at)}</td>
      <td>{apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : "Never"}</td>
      <td>
        {apiKey.status === "active" && !rotating && (
          <div className="row-actions">
            <button type="button" className="secondary small" aria-disabled={busy || undefined} onClick={() => setRotating(true)}>
              Rotate<span className="sr-only"> key {name}</span>
            </button>
            <ConfirmButton
              label="Revoke"
              context={`key ${name}`}
              confirmLabel="Yes, revoke now"
              question={`Calls with ${apiKey.prefix}… fail from now on.`}
              disabled={busy}
              onConfirm={() =>
                run(async () => {
                  await done(api.DELETE("/api/dashboard/api-keys/{id}", { params: { path: { id } } }));
                  reload();
                  return `Key ${apiKey.prefix}… revoked.`;
                })
              }
            />
          </div>
        )}
        {rotating && (
          <form
            className="rotate-form"
            onSubmit={(event) => {
              event.preventDefault();
              void run(async () => {
                const key = await dataOf(api.POST("/api/dashboard/api-keys/{id}/rotate", { params: { path: { id } }, body: { grace_seconds: Number(grace) } }));
                setRotating(false);
                onRotated(key);
                return "Key rotated: copy the new one now.";
              });
            }}
          >
            <SelectField label="Keep the old key working for" value={grace} onChange={(e) => setGrace(e.target.value)}>
              {GRACE.map((option) => (
                <option key={option.seconds} value={option.seconds}>
                  {option.text}
                </option>
              ))}
            </SelectField>
            <div className="row-actions">
              <button type="submit" className="small" aria-disabled={busy || undefined}>
                Rotate key
              </button>
              <button type="button" className="secondary small" onClick={() => setRotating(false)}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </td>
    </tr>
  );
}
