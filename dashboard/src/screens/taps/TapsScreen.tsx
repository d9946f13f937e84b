// NFC tap analytics: taps per day by verdict, the verdict mix, the most tapped products and the tags showing clone
// signals, for the brand or one product over 7, 30 or 90 days.
import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { api, dataOf } from "../../api/client";
import { allows, useSession } from "../../session";
import { SelectField, TextField } from "../../ui/fields";
import { formatNumber } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { TableScroll } from "../../ui/TableScroll";
import { SuspiciousTags } from "./SuspiciousTags";
import "./taps.css";
import { DailyChart } from "../../ui/DailyChart";
import { shareOf, totalOf, VERDICTS, type TapAnalytics } from "./verdicts";

const PERIODS = ["7", "30", "90"];

export function TapsScreen() {
  const session = useSession();
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const uid = search.get("uid") ?? "";
  const days = PERIODS.includes(search.get("days") ?? "") ? search.get("days")! : "30";
  const [draft, setDraft] = useState({ uid, days });

  const analytics = useResource(() => dataOf(api.GET("/api/dashboard/taps/analytics", { params: { query: { ...(uid ? { uid } : {}), days } } })), [uid, days]);
  const data = analytics.data;

  const go = (next: { uid: string; days: string }) => {
    const query = new URLSearchParams();
    if (next.uid) query.set("uid", next.uid);
    if (next.days !== "30") query.set("days", next.days);
    const text = query.toString();
    setDraft(next);
    navigate(text ? `/taps?${text}` : "/taps");
  };

  return (
    <Page
      title="NFC taps"
      subtitle="Every tap of your tags, what its check concluded, and the tags that look copied."
      actions={
        <Link className="button secondary" href="/taps/tags">
          {allows(session, "tags.assign") ? "Tags and provisioning" : "Your tags"}
        </Link>
      }
    >
      <div className="taps">
        <Section title="Filter" id="taps-filter">
          <form
            role="search"
            className="filters"
            onSubmit={(event) => {
              event.preventDefault();
              go({ uid: draft.uid.trim().toUpperCase(), days: draft.days });
            }}
          >
            <TextField label="Filter by product UID" className="mono" maxLength={43} hint="e.g. DEMO-7K3M9Q2X; empty for all" value={draft.uid} onChange={(e) => setDraft({ ...draft, uid: e.target.value })} />
            <SelectField label="Period" value={draft.days} onChange={(e) => setDraft({ ...draft, days: e.target.value })}>
              {PERIODS.map((period) => (
                <option key={period} value={period}>
                  Last {period} days
                </option>
              ))}
            </SelectField>
            <div className="filter-actions">
              <button type="submit">Show taps</button>
              {uid && (
                <button type="button" className="secondary" onClick={() => go({ uid: "", days })}>
                  All products
                </button>
              )}
            </div>
          </form>
        </Section>
        {analytics.loading && !data && <Loading what="tap analytics" />}
        {analytics.error && <ErrorNotice error={analytics.error} title="The tap analytics could not be loaded." />}
        {data && <Analytics data={data} uid={uid} days={days} />}
      </div>
    </Page>
  );
}

function Analytics({ data, uid, days }: { data: TapAnalytics; uid: string; days: string }) {
  const total = totalOf(data.verdict_mix);
  const scope = uid ? ` of ${uid}` : "";
  return (
    <>
      <Section title={`Suspicious tags${scope}`} id="taps-suspicious">
        <p className="muted small">
          A tag is listed when its taps look like a copy: a replayed URL, a counter that jumped (the tag was read many times elsewhere), two authentic
          taps from different regions minutes apart, or a burst of forged signatures on one product in a day. Each signal says the threshold it crossed.
        </p>
        <SuspiciousTags tags={data.suspicious} />
      </Section>
      <Section title={`Taps per day${scope}`} id="taps-daily">
        {total === 0 ? <Empty>No taps in the last {days} days.</Empty> : (
          <DailyChart title={`Taps per day by verdict, last ${days} days`} rows={data.daily} series={VERDICTS} stacked={{ totalLabel: "All taps" }} />
        )}
      </Section>
      <div className="grid">
        <Section title="Verdict mix" id="taps-mix">
          <p>
            {formatNumber(total)} {total === 1 ? "tap" : "taps"} in the last {days} days.
          </p>
          <ul className="verdict-mix">
            {VERDICTS.map((verdict) => {
              const count = data.verdict_mix[verdict.key];
              return (
                <li key={verdict.key}>
                  <div className="meter-text">
                    <span className="meter-label">
                      <span className={`swatch ${verdict.className}`} aria-hidden="true" /> {verdict.label}
                    </span>
                    <span>
                      {formatNumber(count)} ({shareOf(count, total)})
                    </span>
                  </div>
                  <span className="meaning">{verdict.meaning}</span>
                  <div className="meter-track" aria-hidden="true">
                    <div className={`meter-fill ${verdict.className}`} style={{ width: total ? `${(count / total) * 100}%` : 0 }} />
                  </div>
                </li>
              );
            })}
          </ul>
        </Section>
        <Section title="Most tapped products" id="taps-products">
          {data.by_product.length === 0 ? (
            <Empty>No product was tapped in this period.</Empty>
          ) : (
            <TableScroll label="Most tapped products">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Product</th>
                    <th scope="col" className="num">
                      Taps
                    </th>
                    <th scope="col" className="num">
                      Authentic
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.by_product.map((product) => (
                    <tr key={product.uid}>
                      <th scope="row">
                        <Link href={`/products/${product.uid}`}>{product.name}</Link>
                        <div className="muted mono small">{product.uid}</div>
                      </th>
                      <td className="num">{formatNumber(product.taps)}</td>
                      <td className="num">
                        {formatNumber(product.authentic)} <span className="muted small">({shareOf(product.authentic, product.taps)})</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </Section>
      </div>
    </>
  );
}
