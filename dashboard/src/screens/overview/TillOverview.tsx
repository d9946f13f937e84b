// A cashier's overview: the till. The Cash QR orders waiting for cash, what to do with one, and nothing of the
// brand's figures or activity (the API refuses a cashier the brand-wide overview).
import { useEffect } from "react";
import { api, dataOf } from "../../api/client";
import type { DataOf } from "../../api/types";
import { formatDateTime } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Section } from "../../ui/Page";
import { formatAmount } from "../orders/words";

type WaitingOrder = DataOf<"/api/dashboard/cashier/till", "get">["waiting"][number];

/** A till is looked at, not reloaded: the list follows new orders by itself. */
const REFRESH_MS = 20_000;

export function TillOverview() {
  const till = useResource(() => dataOf(api.GET("/api/dashboard/cashier/till")), []);
  const { reload } = till;
  useEffect(() => {
    const timer = window.setInterval(reload, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [reload]);
  const waiting = till.data?.waiting;

  return (
    <div className="grid">
      <Section title="Waiting for cash" id="till-waiting">
        {till.loading && !waiting && <Loading what="the orders waiting at the till" />}
        {till.error && <ErrorNotice error={till.error} title="The orders waiting at the till could not be loaded." />}
        {waiting && waiting.length === 0 && <Empty>No Cash QR order is waiting. A shopper's order shows here from the moment they choose to pay in cash until it is paid or expires.</Empty>}
        {waiting && waiting.length > 0 && (
          <ul className="activity">
            {waiting.map((order) => (
              <WaitingLine key={order.order_id} order={order} />
            ))}
          </ul>
        )}
      </Section>
      <Section title="Taking a cash payment" id="till-steps">
        <ol>
          <li>The shopper shows the QR code on their phone's order screen.</li>
          <li>Scan it with this phone's camera: it opens the order here, with the product and the amount.</li>
          <li>Take the cash, then press Confirm. The shopper's screen shows the payment received.</li>
        </ol>
      </Section>
    </div>
  );
}

function WaitingLine({ order }: { order: WaitingOrder }) {
  return (
    <li>
      <span>
        <strong>{formatAmount(order.amount, order.currency)}</strong> for {order.product_name} <code>{order.uid}</code>
      </span>
      <span className="muted">
        expires <time dateTime={order.expires_at}>{formatDateTime(order.expires_at)}</time>
      </span>
    </li>
  );
}
