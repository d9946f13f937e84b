// The plan and this month's usage: meters against the limits, the limits themselves, and calls per endpoint.
import { api, dataOf } from "../../api/client";
import { formatNumber } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { MeterBar } from "../../ui/MeterBar";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { TableScroll } from "../../ui/TableScroll";

const limitText = (limit: number | null) => (limit === null ? "No limit" : formatNumber(limit));

export function UsageScreen() {
  const usage = useResource(() => dataOf(api.GET("/api/dashboard/usage")), []);
  const data = usage.data;
  return (
    <Page title="Plan and usage">
      {usage.loading && !data && <Loading what="usage" />}
      {usage.error && <ErrorNotice error={usage.error} title="The usage could not be loaded." />}
      {data && (
        <div className="grid">
          <Section title={`${data.plan.title} plan`} id="plan">
            <dl className="facts">
              <div>
                <dt>Price</dt>
                <dd>{data.plan.price_usd_per_month === null ? "Agreed in your contract" : `US$ ${formatNumber(data.plan.price_usd_per_month)} a month`}</dd>
              </div>
              <div>
                <dt>Estimated cost this month</dt>
                <dd>US$ {formatNumber(data.estimated_cost_usd)}</dd>
              </div>
              <div>
                <dt>Requests an hour</dt>
                <dd>{formatNumber(data.limits.requests_per_hour)}</dd>
              </div>
            </dl>
            {data.plan.notes && <p className="muted">{data.plan.notes}</p>}
          </Section>
          <Section title={`Usage in ${data.period}`} id="meters">
            <MeterBar label="API calls" used={data.meters.api_calls.used} limit={data.meters.api_calls.limit} />
            <MeterBar label="Certificates issued" used={data.meters.certs.used} limit={data.meters.certs.limit} />
            <MeterBar label="Scans" used={data.meters.scans.used} limit={data.meters.scans.limit} />
            <MeterBar label="Carbon ratings" used={data.meters.carbon_ratings.used} limit={data.meters.carbon_ratings.limit} />
          </Section>
          <Section title="Monthly limits" id="limits">
            <table>
              <tbody>
                <tr>
                  <th scope="row">API calls</th>
                  <td className="num">{limitText(data.limits.api_calls_per_month)}</td>
                </tr>
                <tr>
                  <th scope="row">Certificates</th>
                  <td className="num">{limitText(data.limits.certs_per_month)}</td>
                </tr>
                <tr>
                  <th scope="row">Scans</th>
                  <td className="num">{limitText(data.limits.scans_per_month)}</td>
                </tr>
                <tr>
                  <th scope="row">Carbon ratings</th>
                  <td className="num">{limitText(data.limits.carbon_ratings_per_month)}</td>
                </tr>
              </tbody>
            </table>
          </Section>
          <Section title="API calls by endpoint" id="endpoints">
            {data.endpoints.length === 0 ? (
              <Empty>No API calls this month.</Empty>
            ) : (
              <TableScroll label="API calls by endpoint">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Endpoint</th>
                      <th scope="col" className="num">
                        Calls
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.endpoints.map((row) => (
                      <tr key={row.endpoint}>
                        <th scope="row">
                          <code>{row.endpoint}</code>
                        </th>
                        <td className="num">{formatNumber(row.calls)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </Section>
        </div>
      )}
    </Page>
  );
}
