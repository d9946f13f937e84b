// Previous / next through a paged list, with where the reader is in words.
import { formatNumber } from "./format";

export function Pager({ page, perPage, total, noun, onPage }: { page: number; perPage: number; total: number; noun: string; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {formatNumber(page)} of {formatNumber(pages)} ({formatNumber(total)} {noun})
      </span>
      <button type="button" className="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
