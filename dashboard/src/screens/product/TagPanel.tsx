// The product's NFC tag: the assigned tag's hash and its transaction, or the form to assign one (on chain; the
// product must be minted first).
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import type { ProductDetail } from "../../api/types";
import { HashValue, TxLink } from "../../ui/chain";
import { TextField } from "../../ui/fields";
import { focusFirstInvalid, useAction } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import { Section } from "../../ui/Page";
import type { AwaitChain } from "./ProductScreen";

const TAG_UID = /^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$/;

export function TagPanel({ product, canAssign, awaitChain }: { product: ProductDetail; canAssign: boolean; awaitChain: AwaitChain }) {
  const [tagUid, setTagUid] = useState("");
  const [formatProblem, setFormatProblem] = useState<string>();
  const assign = useAction();
  const minted = product.passport_status !== "unissued";

  return (
    <Section title="NFC tag" id="nfc-tag">
      {product.tag ? (
        <dl className="facts">
          <div>
            <dt>Tag hash</dt>
            <dd>
              <HashValue value={product.tag.tag_hash} />
            </dd>
          </div>
          <div>
            <dt>Assignment transaction</dt>
            <dd>
              <TxLink hash={product.tag.tx_hash} url={product.tag.explorer_url} />
            </dd>
          </div>
        </dl>
      ) : (
        <p>No tag is assigned to this product.</p>
      )}
      {canAssign && !minted && <p className="muted">Issue the certificate first: a tag is linked to a minted passport.</p>}
      {canAssign && minted && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const value = tagUid.replace(/[\s:]/g, "").toUpperCase();
            if (!TAG_UID.test(value)) {
              setFormatProblem("A tag UID is 8, 14 or 20 hexadecimal digits (e.g. 04A2B3C4D5E6F7).");
              focusFirstInvalid(event.currentTarget);
              return;
            }
            setFormatProblem(undefined);
            void assign.run(async () => {
              const assigned = await dataOf(api.POST("/api/dashboard/products/{uid}/tag", { params: { path: { uid: product.uid } }, body: { tag_uid: value } }));
              setTagUid("");
              awaitChain((next) => next.tag?.tag_hash === assigned.tag_hash);
              return "Tag assigned. It is confirmed once the transaction has its confirmations.";
            });
          }}
        >
          <TextField
            label={product.tag ? "New tag UID" : "Tag UID"}
            className="mono"
            maxLength={29}
            autoComplete="off"
            hint="As read from the tag, e.g. 04A2B3C4D5E6F7"
            value={tagUid}
            onChange={(e) => setTagUid(e.target.value)}
            error={formatProblem ?? assign.error?.problemWith("tag_uid")}
          />
          <ActionStatus action={assign} busyText="Assigning the tag…" />
          <button type="submit" aria-disabled={assign.busy || undefined}>
            Assign tag
          </button>
        </form>
      )}
    </Section>
  );
}
