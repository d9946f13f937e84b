// How much of a plan's allowance is used: the numbers in words (what is read out) and a bar (what is seen).
import { formatNumber } from "./format";

export function MeterBar({ label, used, limit }: { label: string; used: number; limit: number | null }) {
  const share = limit ? Math.min(1, used / limit) : 0;
  const percent = limit ? Math.round((used / limit) * 1000) / 10 : null;
  const level = percent === null ? "" : percent >= 100 ? " full" : percent >= 80 ? " high" : "";
  return (
    <div className="meter">
      <div className="meter-text">
        <span className="meter-label">{label}</span>
        <span>
          {limit === null ? (
            <>
              {formatNumber(used)} <span className="muted">(no limit)</span>
            </>
          ) : (
            <>
              {formatNumber(used)} of {formatNumber(limit)} <span className="muted">({percent}%)</span>
            </>
          )}
        </span>
      </div>
      <div className={`meter-track${level}`} aria-hidden="true">
        <div className="meter-fill" style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  );
}
