// Webhooks: the dashboard receiver (spec 6.1, every dashboard event) and v1 subscriptions (spec 6.2, chosen events);
// each endpoint's own page (/webhooks/:id) has its delivery log, test event, secret rotation and re-enabling.
import { Link } from "wouter";
import { api, dataOf } from "../../api/client";
import { formatDateTime } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { DashboardReceiver } from "./DashboardReceiver";
import { EndpointDetail } from "./EndpointDetail";
import { EndpointState } from "./EndpointState";
import { NewSubscription } from "./NewSubscription";
import { TableScroll } from "../../ui/TableScroll";

export function WebhooksScreen({ endpointId }: { endpointId?: string }) {
  const webhooks = useResource(() => dataOf(api.GET("/api/dashboard/webhooks")), []);
  const data = webhooks.data;

  if (endpointId) {
    const endpoint = data && [data.dashboard, ...data.subscriptions].find((candidate) => candidate && String(candidate.id) === endpointId);
    return (
      <Page title="Webhook endpoint" subtitle={<Link href="/webhooks">All webhooks</Link>}>
        {webhooks.loading && !data && <Loading what="the webhook" />}
        {webhooks.error && <ErrorNotice error={webhooks.error} title="The webhooks could not be loaded." />}
        {data && !endpoint && <p role="alert">There is no such webhook endpoint in your brand.</p>}
        {endpoint && <EndpointDetail endpoint={endpoint} onChanged={webhooks.reload} />}
      </Page>
    );
  }

  return (
    <Page title="Webhooks" subtitle="Signed HTTP calls to your servers when something happens.">
      {webhooks.loading && !data && <Loading what="webhooks" />}
      {webhooks.error && <ErrorNotice error={webhooks.error} title="The webhooks could not be loaded." />}
      {data && (
        <>
          <DashboardReceiver endpoint={data.dashboard} onChanged={webhooks.reload} />
          <Section title="API subscriptions" id="subscriptions">
            {data.subscriptions.length === 0 ? (
              <Empty>No subscriptions yet.</Empty>
            ) : (
              <TableScroll label="API subscriptions">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Receiver URL</th>
                      <th scope="col">Events</th>
                      <th scope="col">State</th>
                      <th scope="col">Last delivery</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.subscriptions.map((endpoint) => (
                      <tr key={endpoint.id}>
                        <th scope="row">
                          <Link href={`/webhooks/${endpoint.id}`} className="block-link">
                            <span className="sr-only">Manage </span>
                            <span className="break">{endpoint.url}</span>
                          </Link>
                        </th>
                        <td>{endpoint.events.join(", ")}</td>
                        <td>
                          <EndpointState endpoint={endpoint} />
                        </td>
                        <td>{endpoint.last_delivery ? `${endpoint.last_delivery.status}, ${formatDateTime(endpoint.last_delivery.at)}` : "None yet"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </Section>
          <NewSubscription onCreated={webhooks.reload} />
        </>
      )}
    </Page>
  );
}
