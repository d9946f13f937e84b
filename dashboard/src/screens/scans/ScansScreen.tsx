// Scans of the brand's tags: per day as a chart, and one by one, optionally for one product UID.
import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { api, pageOf } from "../../api/client";
import { Badge } from "../../ui/badges";
import { DailyChart } from "../../ui/DailyChart";
import { SelectField, TextField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { Pager } from "../../ui/Pager";
import { TableScroll } from "../../ui/TableScroll";

const PER_PAGE = 50;
const PERIODS = ["7", "30", "90"];

export function ScansScreen() {
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const uid = search.get("uid") ?? "";
  const days = PERIODS.includes(search.get("days") ?? "") ? search.get("days")! : "30";
  const page = Math.max(1, Number(search.get("page")) || 1);
  const [draft, setDraft] = useState({ uid, days });

  const scans = useResource(
    () =>
      pageOf(
        api.GET("/api/dashboard/scans", {
          params: { query: { ...(uid ? { uid } : {}), days, page: String(page), per_page: String(PER_PAGE) } },
        }),
      ),
    [uid, days, page],
  );

  const go = (next: { uid: string; days: string }, nextPage = 1) => {
    const query = new URLSearchParams();
    if (next.uid) query.set("uid", next.uid);
    if (next.days !== "30") query.set("days", next.days);
    if (nextPage > 1) query.set("page", String(nextPage));
    const text = query.toString();
    navigate(text ? `/scans?${text}` : "/scans");
  };

  return (
    <Page title="Scans">
      <Section title="Filter" id="scan-filter">
        <form
          role="search"
          className="filters"
          onSubmit={(event) => {
            event.preventDefault();
            go({ uid: draft.uid.trim().toUpperCase(), days: draft.days });
          }}
        >
          <TextField label="Filter by product UID" className="mono" maxLength={64} hint="e.g. DEMO-7K3M9Q2X; empty for all" value={draft.uid} onChange={(e) => setDraft({ ...draft, uid: e.target.value })} />
          <SelectField label="Period" value={draft.days} onChange={(e) => setDraft({ ...draft, days: e.target.value })}>
            {PERIODS.map((period) => (
              <option key={period} value={period}>
                Last {period} days
              </option>
            ))}
          </SelectField>
          <div className="filter-actions">
            <button type="submit">Show scans</button>
          </div>
        </form>
      </Section>
      {scans.loading && !scans.data && <Loading what="scans" />}
      {scans.error && <ErrorNotice error={scans.error} title="The scans could not be loaded." />}
      {scans.data && (
        <>
          <Section title={uid ? `Scans of ${uid} per day` : "Scans per day"} id="scans-daily">
            <DailyChart title={`Scans per day, last ${days} days`} rows={scans.data.data.daily} series={[{ key: "scans", label: "Scans", className: "series-a" }]} />
          </Section>
          <Section title="Scan list" id="scan-list">
            {scans.data.data.items.length === 0 ? (
              <Empty>No scans in this period.</Empty>
            ) : (
              <>
                <TableScroll label="Scan list">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">When</th>
                        <th scope="col">Product</th>
                        <th scope="col">Passport</th>
                      </tr>
                    </thead>
                    <tbody>
                      {scans.data.data.items.map((scan) => (
                        <tr key={scan.id}>
                          <td>{formatDateTime(scan.scanned_at)}</td>
                          <th scope="row">
                            <Link href={`/products/${scan.uid}`}>{scan.product_name}</Link>
                            <div className="muted mono small">{scan.uid}</div>
                          </th>
                          <td>{scan.verified ? <Badge tone="ok">Verified on chain</Badge> : <Badge tone="neutral">Not verified on chain</Badge>}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
                <Pager page={scans.data.meta.page} perPage={scans.data.meta.per_page} total={scans.data.meta.total} noun="scans" onPage={(next) => go({ uid, days }, next)} />
              </>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}
