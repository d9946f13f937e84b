// The brand's month at a glance: meters against the plan, scans and certificates per day, products, recent activity.
// A cashier, whose role may not read those, gets the till instead.
import { Link } from "wouter";
import { api, dataOf } from "../../api/client";
import { allows, useSession } from "../../session";
import { DailyChart } from "../../ui/DailyChart";
import { formatNumber } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { MeterBar } from "../../ui/MeterBar";
import { ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { ActivityList } from "./ActivityList";
import { TillOverview } from "./TillOverview";

export function OverviewScreen() {
  const session = useSession();
  if (!allows(session, "dashboard.read"))
    return (
      <Page title="Overview" subtitle={session ? `${session.brand.name} · at the till` : undefined}>
        {allows(session, "orders.confirm") ? <TillOverview /> : <p className="notice">Your role has no overview. Use the navigation to open a screen.</p>}
      </Page>
    );
  return <BrandOverview />;
}

function BrandOverview() {
  const session = useSession();
  const overview = useResource(() => dataOf(api.GET("/api/dashboard/overview")), []);
  const data = overview.data;

  return (
    <Page title="Overview" subtitle={session ? `${session.brand.name} · ${session.brand.plan} plan` : undefined}>
      {overview.loading && !data && <Loading what="the overview" />}
      {overview.error && <ErrorNotice error={overview.error} title="The overview could not be loaded." />}
      {data && (
        <div className="grid">
          <Section title={`This month (${data.period})`} id="meters">
            <MeterBar label="API calls" used={data.meters.api_calls.used} limit={data.meters.api_calls.limit} />
            <MeterBar label="Certificates issued this month" used={data.meters.certs.used} limit={data.meters.certs.limit} />
            <MeterBar label="Scans" used={data.meters.scans.used} limit={data.meters.scans.limit} />
            <MeterBar label="Carbon ratings" used={data.meters.carbon_ratings.used} limit={data.meters.carbon_ratings.limit} />
            <p>
              <Link href="/usage">Plan and usage details</Link>
            </p>
          </Section>
          <Section title="Products" id="products-count">
            <dl className="stats">
              <div>
                <dt>Products</dt>
                <dd>{formatNumber(data.products.total)}</dd>
              </div>
              <div>
                <dt>With a certificate, issued in any month</dt>
                <dd>{formatNumber(data.products.certified)}</dd>
              </div>
            </dl>
            <p className="muted">{certificateCounts(data.products.certified, data.meters.certs.used)}</p>
            <p>
              <Link href="/products">All products</Link>
            </p>
          </Section>
          <Section title="Scans and certificates, last 30 days" id="daily">
            <DailyChart
              title="Scans and certificates per day"
              rows={data.daily}
              series={[
                { key: "scans", label: "Scans", className: "series-a" },
                { key: "certificates", label: "Certificates", className: "series-b" },
              ]}
            />
          </Section>
          <Section title="Recent activity" id="activity">
            <ActivityList entries={data.recent_activity} />
          </Section>
        </div>
      )}
    </Page>
  );
}

/**
 * Why "with a certificate" and "certificates issued this month" differ, in words: one counts every product whose
 * passport was ever issued, the other only this month's issuances, the ones the plan meters.
 */
export function certificateCounts(certified: number, issuedThisMonth: number): string {
  const all = `${formatNumber(certified)} ${certified === 1 ? "product has" : "products have"} a certificate`;
  const month = `${formatNumber(issuedThisMonth)} ${issuedThisMonth === 1 ? "was" : "were"} issued this month`;
  if (certified <= issuedThisMonth) return `${all}, all issued this month: the plan's meter above counts them.`;
  const other = certified - issuedThisMonth;
  return `${all}; ${month}. The meter above counts only the certificates issued this month against your plan: the other ${formatNumber(other)} ${other === 1 ? "was" : "were"} issued before, so ${other === 1 ? "it is" : "they are"} not in it.`;
}
