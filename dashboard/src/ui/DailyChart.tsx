// A per-day bar chart drawn as inline SVG (no chart library), bars side by side or stacked, with the same numbers as a
// table for anyone who does not see the picture: the SVG has a text summary, the table sits in a <details> below it.
import { useId } from "react";
import { formatDay, formatNumber } from "./format";
import { TableScroll } from "./TableScroll";

export type Series<Row> = { key: keyof Row & string; label: string; className: string };

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 44;
const BOTTOM = 26;
const TOP = 8;

/** `stacked`: one bar a day made of the series' parts (their sum is the scale), and a total column in the table. */
export function DailyChart<Row extends { date: string }>({
  title,
  rows,
  series,
  stacked,
}: {
  title: string;
  rows: Row[];
  series: readonly Series<Row>[];
  stacked?: { totalLabel: string };
}) {
  const id = useId();
  const value = (row: Row, key: keyof Row) => Number(row[key] ?? 0);
  const total = (row: Row) => series.reduce((sum, s) => sum + value(row, s.key), 0);
  const max = Math.max(1, ...rows.flatMap((row) => (stacked ? [total(row)] : series.map((s) => value(row, s.key)))));
  const totals = series.map((s) => `${formatNumber(rows.reduce((sum, row) => sum + value(row, s.key), 0))} ${s.label.toLowerCase()}`);
  const range = rows.length ? `${formatDay(rows[0]!.date)} to ${formatDay(rows[rows.length - 1]!.date)}` : "no days";
  const summary = `${title}, ${range}: ${totals.join(", ")} in total.`;

  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const slot = rows.length ? plotWidth / rows.length : plotWidth;
  const barWidth = stacked ? Math.max(1, slot * 0.7) : Math.max(1, (slot * 0.8) / series.length);
  const y = (v: number) => TOP + plotHeight - (v / max) * plotHeight;
  const labelEvery = Math.max(1, Math.ceil(rows.length / 5));

  /** The series' parts of one day's bar, bottom up; an empty part draws nothing. */
  const stackedBar = (row: Row, x: number) => {
    let base = TOP + plotHeight;
    return (
      <>
        {series.map((s) => {
          const v = value(row, s.key);
          const height = (v / max) * plotHeight;
          if (height === 0) return null;
          base -= height;
          return (
            <rect key={s.key} className={s.className} x={x} y={base} width={barWidth} height={height}>
              <title>{`${formatDay(row.date)}: ${formatNumber(v)} ${s.label.toLowerCase()}`}</title>
            </rect>
          );
        })}
      </>
    );
  };

  return (
    <figure className="chart">
      <figcaption id={`${id}-caption`}>{title}</figcaption>
      <ul className="legend" aria-hidden="true">
        {series.map((s) => (
          <li key={s.key}>
            <span className={`swatch ${s.className}`} /> {s.label}
          </li>
        ))}
      </ul>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} preserveAspectRatio="xMidYMid meet">
        <line className="axis" x1={LEFT} x2={WIDTH} y1={TOP + plotHeight} y2={TOP + plotHeight} />
        <line className="gridline" x1={LEFT} x2={WIDTH} y1={TOP} y2={TOP} />
        <text className="tick" x={LEFT - 6} y={TOP + 10} textAnchor="end">
          {formatNumber(max)}
        </text>
        <text className="tick" x={LEFT - 6} y={TOP + plotHeight} textAnchor="end">
          0
        </text>
        {rows.map((row, index) => (
          <g key={row.date}>
            {stacked ? stackedBar(row, LEFT + index * slot + (slot - barWidth) / 2) : series.map((s, position) => {
              const v = value(row, s.key);
              const top = y(v);
              return (
                <rect
                  key={s.key}
                  className={s.className}
                  x={LEFT + index * slot + slot * 0.1 + position * barWidth}
                  y={top}
                  width={barWidth}
                  height={Math.max(0, TOP + plotHeight - top)}
                >
                  <title>{`${formatDay(row.date)}: ${formatNumber(v)} ${s.label.toLowerCase()}`}</title>
                </rect>
              );
            })}
            {index % labelEvery === 0 && (
              <text className="tick" x={LEFT + index * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle">
                {formatDay(row.date, true)}
              </text>
            )}
          </g>
        ))}
      </svg>
      <details>
        <summary>Show the numbers as a table</summary>
        <TableScroll label={title}>
          <table>
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((s) => (
                  <th scope="col" key={s.key} className="num">
                    {s.label}
                  </th>
                ))}
                {stacked && (
                  <th scope="col" className="num">
                    {stacked.totalLabel}
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.date}>
                  <th scope="row">{formatDay(row.date)}</th>
                  {series.map((s) => (
                    <td key={s.key} className="num">
                      {formatNumber(value(row, s.key))}
                    </td>
                  ))}
                  {stacked && <td className="num">{formatNumber(total(row))}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </figure>
  );
}
