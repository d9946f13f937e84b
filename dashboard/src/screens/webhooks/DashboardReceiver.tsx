// The dashboard receiver: one URL that gets every dashboard event (orders paid, certificates, verified taps, tags).
import { useState } from "react";
import { Link } from "wouter";
import { api, dataOf, done } from "../../api/client";
import type { WebhookEndpoint } from "../../api/types";
import { ConfirmButton } from "../../ui/buttons";
import { TextField } from "../../ui/fields";
import { useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { OneTimeSecret } from "../../ui/OneTimeSecret";
import { Section } from "../../ui/Page";
import { DASHBOARD_EVENTS, EVENT_TEXT } from "./events";
import { EndpointState, RECEIVER_URL_MAX } from "./EndpointState";

export function DashboardReceiver({ endpoint, onChanged }: { endpoint: WebhookEndpoint | null; onChanged: () => void }) {
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [secret, setSecret] = useState<string>();
  const save = useAction();

  return (
    <Section title="Dashboard webhook" id="dashboard-webhook">
      <p>One receiver for every dashboard event:</p>
      <ul>
        {DASHBOARD_EVENTS.map((event) => (
          <li key={event}>
            <code>{event}</code>: {EVENT_TEXT[event]}
          </li>
        ))}
      </ul>
      {endpoint && (
        <p>
          <EndpointState endpoint={endpoint} /> <Link href={`/webhooks/${endpoint.id}`}>Deliveries, test event and secret</Link>
        </p>
      )}
      {secret && <OneTimeSecret title="Signing secret of the dashboard webhook" value={secret} onDismiss={() => setSecret(undefined)} />}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save.run(async () => {
            const answer = await dataOf(api.PUT("/api/dashboard/webhooks/dashboard", { body: { url: url.trim() } }));
            if (answer.signing_secret) setSecret(answer.signing_secret);
            onChanged();
            return endpoint ? "Receiver URL saved." : "Dashboard webhook added.";
          });
        }}
      >
        <TextField label="Receiver URL" type="url" inputMode="url" required maxLength={RECEIVER_URL_MAX} placeholder="https://example.com/hooks/passport" value={url} onChange={(e) => setUrl(e.target.value)} error={save.error?.problemWith("url")} />
        <ActionStatus action={save} busyText="Saving…" />
        <div className="actions">
          <button type="submit" aria-disabled={save.busy || undefined}>
            Save dashboard webhook
          </button>
          {endpoint && (
            <ConfirmButton
              label="Remove dashboard webhook"
              confirmLabel="Yes, remove it"
              question="No more dashboard events will be sent."
              onConfirm={() =>
                save.run(async () => {
                  await done(api.DELETE("/api/dashboard/webhooks/dashboard"));
                  setUrl("");
                  onChanged();
                  return "Dashboard webhook removed.";
                })
              }
            />
          )}
        </div>
      </form>
    </Section>
  );
}
