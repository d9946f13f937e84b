// Previous / next through a paged list, with where the reader is in words.
import { formatNumber } from "./format";

/**
 * `totalIsLowerBound`: the list counted its matches only up to `total` and there are more ("10,000+"); next stays
 * open past the pages counted, and closes on a page shorter than `perPage` (`shown`), the last one. `hasNext`, where
 * the list says whether a page follows, decides instead.
 */
export function Pager({
  page,
  perPage,
  total,
  totalIsLowerBound = false,
  shown,
  hasNext,
  noun,
  onPage,
}: {
  page: number;
  perPage: number;
  total: number;
  totalIsLowerBound?: boolean;
  shown?: number;
  hasNext?: boolean;
  noun: string;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const more = totalIsLowerBound ? "+" : "";
  let last = totalIsLowerBound ? shown !== undefined && shown < perPage : page >= pages;
  if (hasNext !== undefined) last = !hasNext;
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        {totalIsLowerBound && page > pages
          ? `Page ${formatNumber(page)} (more than ${formatNumber(total)} ${noun})`
          : `Page ${formatNumber(page)} of ${formatNumber(pages)}${more} (${formatNumber(total)}${more} ${noun})`}
      </span>
      <button type="button" className="secondary" disabled={last} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
