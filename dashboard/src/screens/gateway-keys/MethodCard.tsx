// One way to pay on the Gateway Keys screen: allowed by the plan or not (with how to get it), the stored keys as
// masked hints, whether shoppers are offered it, the form of the gateway's fields (secrets as password inputs, never
// filled in) that the server checks with the gateway before saving, and removing the keys.
import { useState } from "react";
import { Link } from "wouter";
import { api, dataOf, done } from "../../api/client";
import { Badge } from "../../ui/badges";
import { ConfirmButton } from "../../ui/buttons";
import { TextField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Section } from "../../ui/Page";
import type { GatewayKeys } from "./GatewayKeysScreen";

type Method = GatewayKeys["methods"][number];

const PLAN_NAMES: Record<string, string> = { starter: "Starter", growth: "Growth", enterprise: "Enterprise" };

export function MethodCard({ method, plan, onChanged }: { method: Method; plan: string; onChanged: () => void }) {
  const id = `method-${method.method}`;
  const cash = method.method === "cash_qr";
  return (
    <Section title={method.label} id={id}>
      <p className="badges">
        {!method.allowed_by_plan ? (
          <Badge tone="neutral">Not in your plan</Badge>
        ) : cash || method.configured ? (
          <Badge tone={method.enabled ? "ok" : "warn"}>{method.enabled ? "Offered to shoppers" : "Turned off"}</Badge>
        ) : (
          <Badge tone="neutral">Not configured</Badge>
        )}
      </p>
      {!method.allowed_by_plan && (
        <p>
          Your {PLAN_NAMES[plan] ?? plan} plan does not include {method.label}: Growth and Enterprise do. See <Link href="/usage">Plan and usage</Link> to
          upgrade.
          {method.configured ? " Its keys are kept, but shoppers are not offered it." : ""}
        </p>
      )}
      {cash && method.allowed_by_plan && (
        <p>Needs no gateway account: the shopper shows a QR code at the till and a cashier of your team scans it with a phone to confirm the payment.</p>
      )}
      {method.configured && method.fields.length > 0 && (
        <dl className="facts">
          {method.fields.map((field) => (
            <div key={field.name}>
              <dt>{field.label}</dt>
              <dd className="mono" title={field.hint ?? undefined}>
                {field.hint ? shortHint(field.hint) : "—"}
              </dd>
            </div>
          ))}
          {method.checked_at && (
            <div>
              <dt>Checked with the gateway</dt>
              <dd>{formatDateTime(method.checked_at)}</dd>
            </div>
          )}
        </dl>
      )}
      {method.allowed_by_plan && <KeysForm method={method} onChanged={onChanged} />}
      {!cash && <RemoveKeys method={method} onChanged={onChanged} />}
    </Section>
  );
}

/** A stored public key (PEM) is long: its first and last characters are enough to recognise it. */
function shortHint(hint: string): string {
  const plain = hint.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, "").replace(/\s+/g, "");
  return hint.length > 60 ? `${plain.slice(0, 16)}…${plain.slice(-12)}` : hint;
}

/**
 * A PEM key pasted into a one-line input loses its line breaks (browsers strip them); puts them back, 64 characters
 * a line, so the gateway client reads it as the PEM it was.
 */
function pemLines(value: string): string {
  const match = /^(-----BEGIN [A-Z0-9 ]+-----)([A-Za-z0-9+/=\s]+)(-----END [A-Z0-9 ]+-----)$/.exec(value.trim());
  if (!match) return value.trim();
  const body = match[2]!.replace(/\s+/g, "");
  return [match[1], ...(body.match(/.{1,64}/g) ?? []), match[3]].join("\n");
}

/**
 * The method's fields and its switch. Not yet configured: every field is needed. Configured: all fields empty only
 * switches the method on or off and keeps the stored keys; any field filled replaces them (all fields then).
 */
function KeysForm({ method, onChanged }: { method: Method; onChanged: () => void }) {
  const cash = method.method === "cash_qr";
  // Non-secret fields start from what is stored (their hint is the whole value); secrets are never filled in.
  const stored = () => Object.fromEntries(method.fields.map((field) => [field.name, field.secret ? "" : field.hint ?? ""]));
  const [values, setValues] = useState<Record<string, string>>(stored);
  const [enabled, setEnabled] = useState(method.configured || cash ? method.enabled : true);
  const save = useAction();
  const secretsTyped = method.fields.some((field) => field.secret && values[field.name]!.trim() !== "");
  const changed = method.fields.some((field) => values[field.name]!.trim() !== (field.secret ? "" : field.hint ?? ""));
  const replacing = !cash && (!method.configured || secretsTyped || changed);
  const fields = method.fields.length > 0 && (
    <fieldset>
      <legend>{method.configured ? `New ${method.label} keys` : `${method.label} merchant keys`}</legend>
      {method.configured && <p className="hint">Leave every field as it is to keep the stored keys.</p>}
      {method.fields.map((field) => (
        <TextField
          key={field.name}
          label={field.label}
          name={field.name}
          type={field.secret ? "password" : "text"}
          autoComplete={field.secret ? "new-password" : "off"}
          spellCheck={false}
          required={replacing}
          maxLength={8192}
          hint={field.secret ? "Stored encrypted; never shown again." : undefined}
          error={save.error?.problemWith(`credentials.${field.name}`)}
          value={values[field.name] ?? ""}
          onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
        />
      ))}
    </fieldset>
  );

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save.run(async () => {
          const credentials = Object.fromEntries(method.fields.map((field) => [field.name, pemLines(values[field.name]!)]));
          await dataOf(
            api.PUT("/api/dashboard/gateway-keys/{method}", {
              params: { path: { method: method.method } },
              body: replacing ? { credentials, enabled } : { enabled },
            })
          );
          setValues(Object.fromEntries(method.fields.map((field) => [field.name, field.secret ? "" : values[field.name]!.trim()])));
          onChanged();
          const offered = enabled ? ` Shoppers are offered ${method.label}.` : ` ${method.label} is turned off.`;
          return replacing ? `${method.label} accepted the keys; they are saved.${offered}` : offered.trim();
        });
      }}
    >
      {method.configured && fields ? (
        <details>
          <summary>Replace the {method.label} keys</summary>
          {fields}
        </details>
      ) : (
        fields
      )}
      <div className="check">
        <input id={`${method.method}-enabled`} type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <label htmlFor={`${method.method}-enabled`}>Offer {method.label} to shoppers</label>
      </div>
      <ActionStatus action={save} busyText={replacing ? `Checking the keys with ${method.label}…` : "Saving…"} />
      <div className="actions">
        <button type="submit" aria-disabled={save.busy || undefined}>
          {replacing ? "Check and save" : "Save"}
          <span className="sr-only"> {method.label}</span>
        </button>
      </div>
    </form>
  );
}

/** Mounted whether or not keys are stored, so the outcome of removing them stays announced. */
function RemoveKeys({ method, onChanged }: { method: Method; onChanged: () => void }) {
  const remove = useAction();
  return (
    <>
      {method.configured && (
        <div className="actions">
          <ConfirmButton
            label="Remove keys"
            context={`of ${method.label}`}
            confirmLabel={`Yes, remove the ${method.label} keys`}
            question={`Shoppers will no longer be offered ${method.label}; paid orders are kept.`}
            disabled={remove.busy}
            onConfirm={() =>
              remove.run(async () => {
                await done(api.DELETE("/api/dashboard/gateway-keys/{method}", { params: { path: { method: method.method } } }));
                onChanged();
                return `The ${method.label} keys are removed.`;
              })
            }
          />
        </div>
      )}
      <ActionStatus action={remove} busyText="Removing…" />
    </>
  );
}
