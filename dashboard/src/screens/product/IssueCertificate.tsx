// The Issue certificate button: mints the passport on chain (uses one certificate of the plan's quota).
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import type { IssueResult } from "../../api/types";
import { TxLink } from "../../ui/chain";
import { useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";

export function IssueCertificate({ uid, onIssued }: { uid: string; onIssued: () => void }) {
  const issue = useAction();
  const [result, setResult] = useState<IssueResult>();
  return (
    <div className="issue">
      <button
        type="button"
        aria-disabled={issue.busy || undefined}
        onClick={() =>
          issue.run(async () => {
            const issued = await dataOf(api.POST("/api/dashboard/products/{uid}/certificate", { params: { path: { uid } } }));
            setResult(issued);
            onIssued();
            return "Certificate issued: the passport is being anchored on chain.";
          })
        }
      >
        Issue certificate
      </button>
      <ActionStatus action={issue} busyText="Issuing the certificate…" />
      {result && <TxLink hash={result.tx_hash} url={result.explorer_url} label="Mint transaction" />}
    </div>
  );
}
