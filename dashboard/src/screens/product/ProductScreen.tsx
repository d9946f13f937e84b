// One product: its passport as the public sees it and the chain facts behind it (every transaction a click away),
// and what the role may do to it: issue the certificate, assign an NFC tag, mark it lost, stolen or recovered, edit
// it (re-anchoring the new data hash), with the history of anchored versions.
import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { api, dataOf } from "../../api/client";
import type { ProductDetail } from "../../api/types";
import { allows, useSession } from "../../session";
import { ChainStatusBadge, PassportBadge } from "../../ui/badges";
import { useResource } from "../../ui/hooks";
import { ErrorNotice, Loading } from "../../ui/notices";
import { Page } from "../../ui/Page";
import { ChainStatusActions } from "./ChainStatusActions";
import { EditProductForm } from "./EditProductForm";
import { IssueCertificate } from "./IssueCertificate";
import { PassportPanel } from "./PassportPanel";
import { SupplyChain } from "./SupplyChain";
import { TagPanel } from "./TagPanel";
import { VersionHistory } from "./VersionHistory";

/** How often, and how many times at most, to look again while the chain and the indexer catch up with a change. */
const POLL_MS = 3000;
const POLL_TRIES = 40;

/** A mint or an edit still waiting for its confirmations. */
function isOnChainPending(product: ProductDetail): boolean {
  return product.passport_status === "pending" || product.passport_status === "confirming" || product.versions.some((version) => version.status === "pending");
}

/** What a child panel hands back after a chain write: the state of the product once the indexer has seen it. */
export type AwaitChain = (settled: (product: ProductDetail) => boolean) => void;

export function ProductScreen({ uid }: { uid: string }) {
  const session = useSession();
  const product = useResource(() => dataOf(api.GET("/api/dashboard/products/{uid}", { params: { path: { uid } } })), [uid]);
  const data = product.data;
  const [awaited, setAwaited] = useState<{ settled: (product: ProductDetail) => boolean; tries: number }>();
  const statusLine = useRef<HTMLParagraphElement>(null);
  const pending = data ? isOnChainPending(data) || (awaited !== undefined && !awaited.settled(data) && awaited.tries < POLL_TRIES) : false;

  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(() => {
      setAwaited((current) => current && { ...current, tries: current.tries + 1 });
      product.reload();
    }, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, product.reload, data]);

  const awaitChain: AwaitChain = useCallback(
    (settled) => {
      setAwaited({ settled, tries: 0 });
      product.reload();
    },
    [product.reload],
  );

  const minted = data ? data.passport_status !== "unissued" : false;

  return (
    <Page
      title={data ? data.name : "Product"}
      subtitle={
        <>
          <Link href="/products">Products</Link> / <span className="mono">{uid}</span>
        </>
      }
      actions={
        data && (
          <>
            {allows(session, "certificates.issue") && data.passport_status === "unissued" && (
              <IssueCertificate
                uid={data.uid}
                onIssued={() => {
                  // The button goes away with the unissued state: the reader continues at the status line.
                  awaitChain((next) => next.passport_status === "verified");
                  statusLine.current?.focus();
                }}
              />
            )}
            {minted && (
              <a className="button secondary" href={data.links.pdf_url} download>
                Download PDF
              </a>
            )}
          </>
        )
      }
    >
      {product.loading && !data && <Loading what="the product" />}
      {product.error && <ErrorNotice error={product.error} title={product.error.status === 404 ? "There is no such product in your brand." : "The product could not be loaded."} />}
      {data && (
        <>
          <p className="badges" tabIndex={-1} ref={statusLine}>
            <PassportBadge status={data.passport_status} /> <ChainStatusBadge status={data.chain_status} />{" "}
            <span role="status" className="muted">
              {pending ? "Waiting for the chain; this page updates by itself." : ""}
            </span>
          </p>
          <div className="grid">
            <PassportPanel product={data} />
            <TagPanel product={data} canAssign={allows(session, "tags.assign")} awaitChain={awaitChain} />
            {allows(session, "products.write") && minted && <ChainStatusActions product={data} awaitChain={awaitChain} />}
          </div>
          {allows(session, "products.write") && <EditProductForm product={data} onSaved={product.setData} />}
          <VersionHistory versions={data.versions} />
          {data.passport && data.passport.supply_chain_events.length > 0 && <SupplyChain events={data.passport.supply_chain_events} />}
        </>
      )}
    </Page>
  );
}
