// Taps per day as stacked bars, one colour per verdict, drawn as inline SVG like the overview's chart; the same
// numbers as a table for anyone who does not see the picture (the SVG has a text summary, the table sits below).
import { useId } from "react";
import { formatDay, formatNumber } from "../../ui/format";
import { TableScroll } from "../../ui/TableScroll";
import { totalOf, VERDICTS, type TapAnalytics } from "./verdicts";

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 44;
const BOTTOM = 26;
const TOP = 8;

export function VerdictChart({ title, rows }: { title: string; rows: TapAnalytics["daily"] }) {
  const id = useId();
  const max = Math.max(1, ...rows.map(totalOf));
  const totals = VERDICTS.map((verdict) => `${formatNumber(rows.reduce((sum, row) => sum + row[verdict.key], 0))} ${verdict.label.toLowerCase()}`);
  const range = rows.length ? `${formatDay(rows[0]!.date)} to ${formatDay(rows[rows.length - 1]!.date)}` : "no days";
  const summary = `${title}, ${range}: ${totals.join(", ")}.`;

  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const slot = rows.length ? plotWidth / rows.length : plotWidth;
  const barWidth = Math.max(1, slot * 0.7);
  const scale = (v: number) => (v / max) * plotHeight;
  const labelEvery = Math.max(1, Math.ceil(rows.length / 5));

  return (
    <figure className="chart">
      <figcaption id={`${id}-caption`}>{title}</figcaption>
      <ul className="legend" aria-hidden="true">
        {VERDICTS.map((verdict) => (
          <li key={verdict.key}>
            <span className={`swatch ${verdict.className}`} /> {verdict.label}
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
        {rows.map((row, index) => {
          let base = TOP + plotHeight;
          return (
            <g key={row.date}>
              {VERDICTS.map((verdict) => {
                const height = scale(row[verdict.key]);
                if (height === 0) return null;
                base -= height;
                return (
                  <rect key={verdict.key} className={verdict.className} x={LEFT + index * slot + (slot - barWidth) / 2} y={base} width={barWidth} height={height}>
                    <title>{`${formatDay(row.date)}: ${formatNumber(row[verdict.key])} ${verdict.label.toLowerCase()}`}</title>
                  </rect>
                );
              })}
              {index % labelEvery === 0 && (
                <text className="tick" x={LEFT + index * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle">
                  {formatDay(row.date, true)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details>
        <summary>Show the numbers as a table</summary>
        <TableScroll label={title}>
          <table>
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {VERDICTS.map((verdict) => (
                  <th scope="col" key={verdict.key} className="num">
                    {verdict.label}
                  </th>
                ))}
                <th scope="col" className="num">
                  All taps
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.date}>
                  <th scope="row">{formatDay(row.date)}</th>
                  {VERDICTS.map((verdict) => (
                    <td key={verdict.key} className="num">
                      {formatNumber(row[verdict.key])}
                    </td>
                  ))}
                  <td className="num">{formatNumber(totalOf(row))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </figure>
  );
}
