// Tags showing clone signals, the newest signal first: the tag, its product, its latest tap and each signal in
// words (the server's detail names the numbers and the threshold crossed).
import { Link } from "wouter";
import { Badge } from "../../ui/badges";
import { formatDateTime, formatNumber } from "../../ui/format";
import { Empty } from "../../ui/notices";
import { SIGNALS, type SuspiciousTag } from "./verdicts";

export function SuspiciousTags({ tags }: { tags: SuspiciousTag[] }) {
  if (tags.length === 0) return <Empty>No clone signals in this period.</Empty>;
  return (
    <ul className="suspicious-list">
      {tags.map((tag) => {
        const unlisted = tag.signal_count - tag.signals.length;
        return (
          <li key={`${tag.tag_uid ?? "no-tag"}:${tag.product_uid}`}>
            <h3>{tag.tag_uid ? <>Tag <span className="mono">{tag.tag_uid}</span></> : "No tag bound"}</h3>
            <p className="tag-facts">
              Product <Link href={`/products/${tag.product_uid}`}>{tag.product_uid}</Link> · last tap <time dateTime={tag.last_tap_at}>{formatDateTime(tag.last_tap_at)}</time> ·{" "}
              <Link href={`/taps?uid=${encodeURIComponent(tag.product_uid)}`}>
                only this product's taps<span className="sr-only"> ({tag.product_uid})</span>
              </Link>
            </p>
            <ul className="signal-list" aria-label={`Signals of ${tag.tag_uid ? `tag ${tag.tag_uid}` : `product ${tag.product_uid}`}`}>
              {tag.signals.map((signal, index) => (
                <li key={index}>
                  <Badge tone={SIGNALS[signal.kind].tone}>{SIGNALS[signal.kind].label}</Badge>
                  <span>{signal.detail}</span>
                  <time dateTime={signal.at}>{formatDateTime(signal.at)}</time>
                </li>
              ))}
            </ul>
            {unlisted > 0 && <p className="muted small">and {formatNumber(unlisted)} older signals of this tag in the period.</p>}
          </li>
        );
      })}
    </ul>
  );
}
