// The cashier's Cash QR confirmation, opened on a phone by scanning the QR code on the shopper's screen
// (/dashboard/cashier/<orderId>#t=<token>): the product and the amount to take in large type, one big Confirm
// button, then a clear confirmed state. An order of another brand or an expired link says so.
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { api, dataOf, type ApiError } from "../../api/client";
import type { DataOf } from "../../api/types";
import { allows, useSession } from "../../session";
import { useAction, useResource } from "../../ui/hooks";
import { ActionStatus, ErrorNotice, Loading } from "../../ui/notices";
import { Page } from "../../ui/Page";
import { formatAmount, stateOf, type OrderState } from "../orders/words";
import { cashierToken, forgetCashierToken, keepCashierToken } from "./token";
import "./cashier.css";

// Before the app's first render: the session check may send the browser to sign in, which drops the fragment.
keepCashierToken();

type Lookup = DataOf<"/api/dashboard/cashier/lookup", "post">;
type Confirmed = DataOf<"/api/dashboard/cashier/confirm", "post">;

export function CashierScreen({ orderId }: { orderId: string }) {
  const [token] = useState(() => cashierToken(orderId));
  if (!token)
    return (
      <Page title="Confirm a cash payment">
        <div className="card cashier">
          <p role="alert" className="cashier-verdict bad">
            This link is incomplete: it has no confirmation code.
          </p>
          <p>Scan the QR code on the shopper's screen again, with this phone's camera.</p>
        </div>
      </Page>
    );
  return <CashierConfirm orderId={orderId} token={token} />;
}

function CashierConfirm({ orderId, token }: { orderId: string; token: string }) {
  const order = useResource(() => dataOf(api.POST("/api/dashboard/cashier/lookup", { body: { order_id: orderId, token } })), [orderId, token]);
  const [confirmed, setConfirmed] = useState<Confirmed>();
  const confirm = useAction();
  const outcome = useRef<HTMLDivElement>(null);
  const session = useSession();

  useEffect(() => {
    if (confirmed) outcome.current?.focus();
  }, [confirmed]);

  const data = order.data;
  return (
    <Page title="Confirm a cash payment">
      <div className="card cashier">
        {order.loading && !data && <Loading what="the order" />}
        {order.error && <LookupError error={order.error} />}
        {data && !confirmed && (
          <>
            <OrderFacts order={data} />
            {!data.brand_matches ? (
              <p role="alert" className="cashier-verdict bad">
                This order is another brand's: it cannot be confirmed with your account. Sign in with the account of the brand that sold it.
              </p>
            ) : data.status === "pending" && Date.parse(data.expires_at) <= Date.now() ? (
              <StateVerdict status="expired" />
            ) : data.status === "pending" ? (
              <>
                <ActionStatus action={confirm} busyText="Confirming…" />
                <button
                  type="button"
                  className="cashier-confirm"
                  aria-disabled={confirm.busy || undefined}
                  onClick={() =>
                    void confirm.run(async () => {
                      const result = await dataOf(api.POST("/api/dashboard/cashier/confirm", { body: { order_id: orderId, token } }));
                      forgetCashierToken(orderId);
                      setConfirmed(result);
                    })
                  }
                >
                  Confirm {formatAmount(data.amount, data.currency)} received
                </button>
                <p className="muted small">Take the cash first. Confirming tells the shopper's screen the payment is received.</p>
              </>
            ) : (
              <StateVerdict status={data.status} />
            )}
          </>
        )}
        {confirmed && (
          <div ref={outcome} tabIndex={-1} className="cashier-outcome">
            <OrderFacts order={confirmed} />
            <p role="status" className="cashier-verdict ok">
              {confirmed.already_confirmed ? "✓ This payment was already confirmed." : "✓ Payment confirmed"}
            </p>
            <p>The shopper's screen now shows the payment as received.</p>
            {allows(session, "dashboard.read") ? <Link href={`/orders/${orderId}`}>See the order</Link> : <Link href="/">Back to the till</Link>}
          </div>
        )}
      </div>
    </Page>
  );
}

function OrderFacts({ order }: { order: Pick<Lookup, "product_name" | "uid" | "amount" | "currency"> }) {
  return (
    <>
      <p className="cashier-product">{order.product_name}</p>
      <p className="muted small mono">{order.uid}</p>
      <p className="cashier-amount">{formatAmount(order.amount, order.currency)}</p>
    </>
  );
}

/** An order the cashier cannot confirm (any more), in words. */
function StateVerdict({ status }: { status: OrderState }) {
  if (status === "verified" || status === "paid")
    return (
      <p role="status" className="cashier-verdict ok">
        ✓ This payment is already confirmed. Nothing more to do.
      </p>
    );
  if (status === "expired")
    return (
      <p role="alert" className="cashier-verdict bad">
        This order expired before it was paid. Ask the shopper to start again from the product's page.
      </p>
    );
  return (
    <p role="alert" className="cashier-verdict bad">
      This order cannot be confirmed: it is {stateOf(status).text.toLowerCase()}.
    </p>
  );
}

function LookupError({ error }: { error: ApiError }) {
  if (error.status === 404)
    return (
      <p role="alert" className="cashier-verdict bad">
        No cash order matches this QR code: it may be incomplete or mistyped. Scan the shopper's QR code again, or ask the shopper to start again.
      </p>
    );
  return <ErrorNotice error={error} title="The order could not be looked up." />;
}
