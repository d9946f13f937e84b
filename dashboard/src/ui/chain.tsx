// Chain facts as links: a transaction opens in the explorer (on the local chain, the API's own transaction page), so
// every hash the dashboard shows is one click from its proof.
import { shortHash } from "./format";

export function TxLink({ hash, url, label = "View transaction" }: { hash: string | null | undefined; url: string | null | undefined; label?: string }) {
  if (!hash) return <span className="muted">not on chain yet</span>;
  if (!url) return <code title={hash}>{shortHash(hash)}</code>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className="tx-link">
      {label} <code title={hash}>{shortHash(hash)}</code>
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

/** A full hash, wrapped on small screens, selectable for copying. */
export function HashValue({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  return <code className="hash">{value}</code>;
}
