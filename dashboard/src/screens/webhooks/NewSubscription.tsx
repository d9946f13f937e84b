// A new v1 subscription: a receiver URL and the events it wants. Its signing secret is shown once.
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import { TextField } from "../../ui/fields";
import { useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { OneTimeSecret } from "../../ui/OneTimeSecret";
import { Section } from "../../ui/Page";
import { RECEIVER_URL_MAX } from "./EndpointState";
import { EVENT_TEXT, V1_EVENTS } from "./events";

type V1Event = (typeof V1_EVENTS)[number];

export function NewSubscription({ onCreated }: { onCreated: () => void }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<V1Event[]>(["cert.issued"]);
  const [secret, setSecret] = useState<string>();
  const [eventsProblem, setEventsProblem] = useState<string>();
  const create = useAction();

  return (
    <Section title="Add an API subscription" id="new-subscription">
      {secret && <OneTimeSecret title="Signing secret of the new subscription" value={secret} onDismiss={() => setSecret(undefined)} />}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (events.length === 0) {
            setEventsProblem("Choose at least one event.");
            event.currentTarget.querySelector<HTMLInputElement>('input[type="checkbox"]')?.focus();
            return;
          }
          setEventsProblem(undefined);
          void create.run(async () => {
            const answer = await dataOf(api.POST("/api/dashboard/webhooks", { body: { url: url.trim(), events } }));
            setSecret(answer.signing_secret);
            setUrl("");
            onCreated();
            return "Subscription added.";
          });
        }}
      >
        <TextField label="Subscription URL" type="url" inputMode="url" required maxLength={RECEIVER_URL_MAX} placeholder="https://example.com/hooks/v1" value={url} onChange={(e) => setUrl(e.target.value)} error={create.error?.problemWith("url")} />
        <fieldset aria-describedby={eventsProblem ? "events-problem" : undefined}>
          <legend>Events</legend>
          {V1_EVENTS.map((name) => (
            <div className="check" key={name}>
              <input
                type="checkbox"
                id={`event-${name}`}
                checked={events.includes(name)}
                onChange={(e) => setEvents((current) => (e.target.checked ? [...current, name] : current.filter((other) => other !== name)))}
              />
              <label htmlFor={`event-${name}`}>
                <code>{name}</code>: {EVENT_TEXT[name]}
              </label>
            </div>
          ))}
          {eventsProblem && (
            <p id="events-problem" className="field-error">
              {eventsProblem}
            </p>
          )}
        </fieldset>
        <ActionStatus action={create} busyText="Adding…" />
        <button type="submit" aria-disabled={create.busy || undefined}>
          Add subscription
        </button>
      </form>
    </Section>
  );
}
