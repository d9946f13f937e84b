// The refund part of an order's page: the form (the amount, the refundable rest unless changed; a reason; a
// confirmation in place naming the amount and the gateway before anything is sent), or why there is none. The
// outcome of a refund stays announced even when the order is no longer refundable after it.
import { useEffect, useRef, useState } from "react";
import { api, dataOf } from "../../api/client";
import { TextAreaField, TextField } from "../../ui/fields";
import { focusFirstInvalid, useAction, type Action } from "../../ui/hooks";
import { ActionStatus } from "../../ui/notices";
import type { Order } from "./OrderDetail";
import "./orders.css";
import { formatMinor, majorText, methodLabel, parseMajor } from "./words";

const REASON_MAX = 200;

export function RefundSection({ order, onRefunded }: { order: Order; onRefunded: () => void }) {
  const refund = useAction();
  return (
    <>
      {order.refundable ? (
        <RefundForm key={order.refundable_minor} order={order} refund={refund} onRefunded={onRefunded} />
      ) : (
        <p>{order.not_refundable_reason ?? "This order cannot be refunded."}</p>
      )}
      <ActionStatus action={refund} busyText={`Asking ${methodLabel(order.method)} for the refund…`} />
    </>
  );
}

function RefundForm({ order, refund, onRefunded }: { order: Order; refund: Action; onRefunded: () => void }) {
  const [amount, setAmount] = useState(majorText(order.refundable_minor));
  const [reason, setReason] = useState("");
  const [problems, setProblems] = useState<{ amount?: string; reason?: string }>({});
  /** The amount in minor units awaiting the user's confirmation. */
  const [asking, setAsking] = useState<number>();
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (asking !== undefined) confirmRef.current?.focus();
  }, [asking]);

  const money = (minor: number) => formatMinor(minor, order.currency);

  return (
    <form
      className="refund-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const minor = parseMajor(amount);
        const found: typeof problems = {};
        if (minor === undefined || minor <= 0) found.amount = "Write an amount above zero, with at most two decimals, such as 150.00.";
        else if (minor > order.refundable_minor) found.amount = `At most ${money(order.refundable_minor)} can be refunded.`;
        if (!reason.trim()) found.reason = "Say why, for your records and the audit log.";
        setProblems(found);
        if (found.amount || found.reason) {
          focusFirstInvalid(event.currentTarget);
          return;
        }
        refund.reset();
        setAsking(minor);
      }}
    >
      <p>
        Paid {money(order.amount_minor)} with {methodLabel(order.method)}
        {order.refunded_minor > 0 ? `; ${money(order.refunded_minor)} already refunded` : ""}. The refund goes back through {methodLabel(order.method)}.
      </p>
      <TextField
        label={`Amount to refund (${order.currency})`}
        inputMode="decimal"
        autoComplete="off"
        maxLength={16}
        hint={`At most ${money(order.refundable_minor)}.`}
        error={problems.amount ?? refund.error?.problemWith("amount_minor")}
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
      />
      <TextAreaField
        label="Reason"
        rows={2}
        maxLength={REASON_MAX}
        hint="Kept with the order and in the audit log."
        error={problems.reason ?? refund.error?.problemWith("reason")}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {asking === undefined ? (
        <div className="actions">
          <button type="submit" className="secondary danger-text" aria-disabled={refund.busy || undefined}>
            Refund…
          </button>
        </div>
      ) : (
        <div className="confirm" role="group" aria-label="Confirm the refund">
          <span className="confirm-question">
            Refund {money(asking)} to the shopper through {methodLabel(order.method)}? This cannot be undone.
          </span>
          <button
            type="button"
            ref={confirmRef}
            className="danger"
            onClick={() => {
              const minor = asking;
              setAsking(undefined);
              void refund.run(async () => {
                const updated = await dataOf(
                  api.POST("/api/dashboard/orders/{order_id}/refund", {
                    params: { path: { order_id: order.order_id } },
                    body: { amount_minor: minor, reason: reason.trim() },
                  })
                );
                onRefunded();
                setReason("");
                return updated.status === "refund_pending"
                  ? `Refund of ${money(minor)} asked of ${methodLabel(order.method)}; it shows here once it settles.`
                  : `Refunded ${money(minor)}.`;
              });
            }}
          >
            Yes, refund {money(asking)}
          </button>
          <button type="button" className="secondary" onClick={() => setAsking(undefined)}>
            Cancel
          </button>
        </div>
      )}
    </form>
  );
}
