// Mark a minted product lost, stolen or recovered: a status change on chain that shoppers' scans show.
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import type { ChainAction, ProductDetail } from "../../api/types";
import { ConfirmButton } from "../../ui/buttons";
import { TxLink } from "../../ui/chain";
import { useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Section } from "../../ui/Page";
import type { AwaitChain } from "./ProductScreen";

export function ChainStatusActions({ product, awaitChain }: { product: ProductDetail; awaitChain: AwaitChain }) {
  const change = useAction();
  const [result, setResult] = useState<ChainAction>();
  const flagged = product.chain_status === "lost" || product.chain_status === "stolen";

  const mark = (status: "lost" | "stolen" | "active", message: string) =>
    change.run(async () => {
      const answer = await dataOf(api.POST("/api/dashboard/products/{uid}/status", { params: { path: { uid: product.uid } }, body: { status } }));
      setResult(answer);
      awaitChain((next) => next.chain_status === answer.status || (answer.status === "recovered" && next.chain_status === "active"));
      return message;
    });

  return (
    <Section title="Lost or stolen" id="chain-status">
      <p>
        {flagged
          ? "Scans of this product warn shoppers that it was reported " + product.chain_status + "."
          : "If this item goes missing, mark it: every scan of its tag will then show the warning."}
      </p>
      <div className="actions">
        {!flagged && (
          <>
            <ConfirmButton label="Mark lost" confirmLabel="Yes, mark lost" question="Mark this product lost on chain?" disabled={change.busy} onConfirm={() => mark("lost", "Marked lost.")} />
            <ConfirmButton label="Mark stolen" confirmLabel="Yes, mark stolen" question="Mark this product stolen on chain?" disabled={change.busy} onConfirm={() => mark("stolen", "Marked stolen.")} />
          </>
        )}
        {flagged && (
          <ConfirmButton
            label="Mark recovered"
            confirmLabel="Yes, mark recovered"
            question="Mark this product recovered?"
            className="primary"
            disabled={change.busy}
            onConfirm={() => mark("active", "Marked recovered.")}
          />
        )}
      </div>
      <ActionStatus action={change} busyText="Sending the status to the chain…" />
      {result && <TxLink hash={result.tx_hash} url={result.explorer_url} label="Status transaction" />}
    </Section>
  );
}
