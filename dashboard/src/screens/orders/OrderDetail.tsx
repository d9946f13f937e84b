// One order: what was bought, for how much and how, every change of its state in order, and the refund form for
// the roles that may refund.
import { Link } from "wouter";
import { api, dataOf } from "../../api/client";
import type { DataOf } from "../../api/types";
import { allows, useSession } from "../../session";
import { Badge } from "../../ui/badges";
import { formatDateTime } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { RefundSection } from "./RefundForm";
import { formatMinor, methodLabel, stateOf, type Tone } from "./words";

export type Order = DataOf<"/api/dashboard/orders/{order_id}", "get">;

export function OrderDetail({ orderId }: { orderId: string }) {
  const session = useSession();
  const order = useResource(() => dataOf(api.GET("/api/dashboard/orders/{order_id}", { params: { path: { order_id: orderId } } })), [orderId]);
  const data = order.data;

  return (
    <Page title={`Order ${orderId}`} subtitle={<Link href="/orders">All orders</Link>}>
      {order.loading && !data && <Loading what="the order" />}
      {order.error && (
        <ErrorNotice error={order.error} title={order.error.status === 404 ? "There is no such order in your brand." : "The order could not be loaded."} />
      )}
      {data && (
        <>
          <Section title="Summary" id="order-summary">
            <Summary order={data} />
          </Section>
          <Section title="What happened" id="order-timeline">
            <Timeline order={data} />
          </Section>
          <Section title="Refund" id="order-refund">
            {data.refunds.length > 0 && <Refunds order={data} />}
            {allows(session, "orders.refund") ? (
              <RefundSection order={data} onRefunded={order.reload} />
            ) : (
              <p>Only an owner or admin of your brand can refund an order.</p>
            )}
          </Section>
        </>
      )}
    </Page>
  );
}

function Summary({ order }: { order: Order }) {
  const state = stateOf(order.status);
  return (
    <dl className="facts">
      <div>
        <dt>State</dt>
        <dd>
          <Badge tone={state.tone}>{state.text}</Badge> <span className="muted small">{state.meaning}</span>
        </dd>
      </div>
      <div>
        <dt>Product</dt>
        <dd>
          <Link href={`/products/${order.uid}`}>{order.product_name}</Link> <span className="muted small mono">{order.uid}</span>
        </dd>
      </div>
      <div>
        <dt>Amount</dt>
        <dd>{formatMinor(order.amount_minor, order.currency)}</dd>
      </div>
      {order.refunded_minor > 0 && (
        <div>
          <dt>Refunded</dt>
          <dd>{formatMinor(order.refunded_minor, order.currency)}</dd>
        </div>
      )}
      <div>
        <dt>Method</dt>
        <dd>{methodLabel(order.method)}</dd>
      </div>
      <div>
        <dt>Gateway transaction</dt>
        <dd className="mono">{order.gateway_trx_id ?? "—"}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{formatDateTime(order.created_at)}</dd>
      </div>
      <div>
        <dt>Paid</dt>
        <dd>{formatDateTime(order.paid_at)}</dd>
      </div>
      <div>
        <dt>Verified</dt>
        <dd>{formatDateTime(order.verified_at)}</dd>
      </div>
    </dl>
  );
}

function Timeline({ order }: { order: Order }) {
  return (
    <ol className="plain-list">
      {order.transitions.map((step, index) => (
        <li key={index}>
          <span>
            <strong>{step.from ? `${stateOf(step.from).text} → ${stateOf(step.to).text}` : stateOf(step.to).text}</strong>
            <br />
            <span className="muted small">
              {step.reason} · by {step.actor}
            </span>
          </span>
          <time dateTime={step.at}>{formatDateTime(step.at)}</time>
        </li>
      ))}
    </ol>
  );
}

const REFUND_STATES: Record<Order["refunds"][number]["state"], { text: string; tone: Tone }> = {
  requested: { text: "Requested", tone: "neutral" },
  pending: { text: "Pending at the gateway", tone: "warn" },
  unknown: { text: "Unconfirmed: being checked with the gateway", tone: "warn" },
  refunded: { text: "Refunded", tone: "ok" },
  failed: { text: "Failed", tone: "bad" },
};

/** The refunds made so far, oldest first, each with its state at the gateway. */
function Refunds({ order }: { order: Order }) {
  return (
    <ul className="plain-list refunds">
      {order.refunds.map((refund, index) => (
        <li key={index}>
          <span>
            <strong>{formatMinor(refund.amount_minor, order.currency)}</strong>{" "}
            <Badge tone={REFUND_STATES[refund.state].tone}>{REFUND_STATES[refund.state].text}</Badge>
            <br />
            <span className="muted small">
              {refund.reason} · by {refund.actor}
            </span>
          </span>
          <time dateTime={refund.created_at}>{formatDateTime(refund.created_at)}</time>
        </li>
      ))}
    </ul>
  );
}
