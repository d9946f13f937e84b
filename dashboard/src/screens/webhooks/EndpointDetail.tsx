// One webhook endpoint: send a test event, rotate its secret (the old one keeps signing for 24 hours), re-enable it
// after failures disabled it, remove it; and its delivery log with redelivery.
import { useState } from "react";
import { useLocation } from "wouter";
import { api, dataOf, done, pageOf } from "../../api/client";
import type { paths } from "../../api/schema";
import type { WebhookEndpoint } from "../../api/types";
import { Badge } from "../../ui/badges";
import { ConfirmButton } from "../../ui/buttons";
import { SelectField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useAction, useResource } from "../../ui/hooks";
import { ActionStatus, Empty, ErrorNotice, Loading } from "../../ui/notices";
import { OneTimeSecret } from "../../ui/OneTimeSecret";
import { Section } from "../../ui/Page";
import { EndpointState } from "./EndpointState";
import { TableScroll } from "../../ui/TableScroll";

type DeliveryStatus = NonNullable<NonNullable<paths["/api/dashboard/webhooks/{id}/deliveries"]["get"]["parameters"]["query"]>["status"]>;
const STATUSES: DeliveryStatus[] = ["pending", "delivering", "succeeded", "failed"];
const TONE: Record<string, "ok" | "warn" | "bad" | "neutral"> = { succeeded: "ok", pending: "warn", delivering: "warn", failed: "bad" };

export function EndpointDetail({ endpoint, onChanged }: { endpoint: WebhookEndpoint; onChanged: () => void }) {
  const [, navigate] = useLocation();
  const id = String(endpoint.id);
  const act = useAction();
  const [secret, setSecret] = useState<{ value: string; oldUntil: string }>();

  return (
    <>
      <Section title={endpoint.kind === "dashboard" ? "Dashboard webhook" : "API subscription"} id="endpoint">
        <dl className="facts">
          <div>
            <dt>Receiver URL</dt>
            <dd className="break">{endpoint.url}</dd>
          </div>
          <div>
            <dt>Events</dt>
            <dd>{endpoint.events.join(", ")}</dd>
          </div>
          <div>
            <dt>State</dt>
            <dd>
              <EndpointState endpoint={endpoint} />
            </dd>
          </div>
          <div>
            <dt>Secret last rotated</dt>
            <dd>
              {formatDateTime(endpoint.secret_rotated_at)}
              {endpoint.previous_secret_valid_until && ` (the previous one signs until ${formatDateTime(endpoint.previous_secret_valid_until)})`}
            </dd>
          </div>
        </dl>
        {secret && (
          <OneTimeSecret
            title="New signing secret"
            value={secret.value}
            note={`The previous secret keeps signing until ${formatDateTime(secret.oldUntil)}: switch your receiver before then.`}
            onDismiss={() => setSecret(undefined)}
          />
        )}
        <div className="actions">
          <button
            type="button"
            aria-disabled={act.busy || undefined}
            onClick={() =>
              act.run(async () => {
                const queued = await dataOf(api.POST("/api/dashboard/webhooks/{id}/test", { params: { path: { id } } }));
                return `Test event queued (${queued.delivery_id}). It appears in the log below.`;
              })
            }
          >
            Send test event
          </button>
          {!endpoint.enabled && (
            <button
              type="button"
              aria-disabled={act.busy || undefined}
              onClick={() =>
                act.run(async () => {
                  await dataOf(api.POST("/api/dashboard/webhooks/{id}/enable", { params: { path: { id } } }));
                  onChanged();
                  return "Re-enabled: deliveries resume.";
                })
              }
            >
              Re-enable
            </button>
          )}
          <ConfirmButton
            label="Rotate secret"
            confirmLabel="Yes, rotate the secret"
            question="A new secret signs from now on; the old one for 24 more hours."
            className="primary"
            disabled={act.busy}
            onConfirm={() =>
              act.run(async () => {
                const rotated = await dataOf(api.POST("/api/dashboard/webhooks/{id}/rotate-secret", { params: { path: { id } } }));
                setSecret({ value: rotated.signing_secret, oldUntil: rotated.previous_secret_valid_until });
                onChanged();
                return "Secret rotated.";
              })
            }
          />
          <ConfirmButton
            label="Remove endpoint"
            confirmLabel="Yes, remove it"
            question="Nothing more will be delivered to it."
            disabled={act.busy}
            onConfirm={() =>
              act.run(async () => {
                if (endpoint.kind === "dashboard") await done(api.DELETE("/api/dashboard/webhooks/dashboard"));
                else await done(api.DELETE("/api/dashboard/webhooks/{id}", { params: { path: { id } } }));
                onChanged();
                navigate("/webhooks");
              })
            }
          />
        </div>
        <ActionStatus action={act} />
      </Section>
      <DeliveryLog endpointId={id} />
    </>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const [status, setStatus] = useState<DeliveryStatus | "">("");
  const [cursor, setCursor] = useState<string[]>([]);
  const before = cursor[cursor.length - 1];
  const deliveries = useResource(
    () =>
      pageOf(
        api.GET("/api/dashboard/webhooks/{id}/deliveries", {
          params: { path: { id: endpointId }, query: { ...(status ? { status } : {}), ...(before ? { before } : {}) } },
        }),
      ),
    [endpointId, status, before],
  );
  const redeliver = useAction();

  return (
    <Section
      title="Delivery log"
      id="deliveries"
      actions={
        <button type="button" className="secondary" onClick={deliveries.reload}>
          Refresh
        </button>
      }
    >
      <SelectField
        label="Show"
        value={status}
        onChange={(e) => {
          setStatus(STATUSES.find((value) => value === e.target.value) ?? "");
          setCursor([]);
        }}
      >
        <option value="">All deliveries</option>
        {STATUSES.map((value) => (
          <option key={value} value={value}>
            Only {value}
          </option>
        ))}
      </SelectField>
      <ActionStatus action={redeliver} busyText="Queuing the delivery again…" />
      {deliveries.loading && !deliveries.data && <Loading what="deliveries" />}
      {deliveries.error && <ErrorNotice error={deliveries.error} title="The delivery log could not be loaded." />}
      {deliveries.data && deliveries.data.data.length === 0 && <Empty>No deliveries{status ? ` with status ${status}` : ""}.</Empty>}
      {deliveries.data && deliveries.data.data.length > 0 && (
        <TableScroll label="Delivery log">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
                <th scope="col">Delivered</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.data.map((delivery) => (
                <tr key={delivery.id}>
                  <th scope="row">
                    <code>{delivery.event}</code>
                    <div className="muted mono small">{delivery.id}</div>
                  </th>
                  <td>
                    <Badge tone={TONE[delivery.status] ?? "neutral"}>{delivery.status}</Badge>
                  </td>
                  <td className="num">{delivery.attempts}</td>
                  <td>{delivery.last_status_code ?? delivery.last_error ?? "—"}</td>
                  <td>{formatDateTime(delivery.created_at)}</td>
                  <td>{formatDateTime(delivery.delivered_at)}</td>
                  <td>
                    <button
                      type="button"
                      className="secondary small"
                      aria-disabled={redeliver.busy || undefined}
                      disabled={delivery.status === "pending" || delivery.status === "delivering"}
                      onClick={() =>
                        redeliver.run(async () => {
                          await dataOf(
                            api.POST("/api/dashboard/webhooks/{id}/deliveries/{deliveryId}/redeliver", { params: { path: { id: endpointId, deliveryId: delivery.id } } }),
                          );
                          deliveries.reload();
                          return `Delivery ${delivery.id} queued again.`;
                        })
                      }
                    >
                      Redeliver<span className="sr-only"> {delivery.event} {delivery.id}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <div className="actions">
        {cursor.length > 0 && (
          <button type="button" className="secondary" onClick={() => setCursor(cursor.slice(0, -1))}>
            Newer deliveries
          </button>
        )}
        {deliveries.data?.meta.next_before && (
          <button type="button" className="secondary" onClick={() => setCursor([...cursor, deliveries.data!.meta.next_before!])}>
            Older deliveries
          </button>
        )}
      </div>
    </Section>
  );
}
