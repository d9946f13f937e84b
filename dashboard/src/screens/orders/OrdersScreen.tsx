// Orders: the brand's orders, newest first, filtered by state, method and a search, a page at a time; each order's
// own page (/orders/:orderId) has its transitions and the refund form.
import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { api, dataOf } from "../../api/client";
import { Badge } from "../../ui/badges";
import { SelectField, TextField } from "../../ui/fields";
import { formatDateTime } from "../../ui/format";
import { useResource } from "../../ui/hooks";
import { Empty, ErrorNotice, Loading } from "../../ui/notices";
import { Page, Section } from "../../ui/Page";
import { Pager } from "../../ui/Pager";
import { TableScroll } from "../../ui/TableScroll";
import { OrderDetail } from "./OrderDetail";
import { formatMinor, METHOD_KEYS, methodLabel, ORDER_STATE_KEYS, stateOf, type OrderState, type PaymentMethod } from "./words";

const PER_PAGE = 25;

type Filters = { status: OrderState | ""; method: PaymentMethod | ""; q: string };

const isState = (value: string | null): value is OrderState => ORDER_STATE_KEYS.includes(value as OrderState);
const isMethod = (value: string | null): value is PaymentMethod => METHOD_KEYS.includes(value as PaymentMethod);

export function OrdersScreen({ orderId }: { orderId?: string }) {
  if (orderId) return <OrderDetail orderId={orderId} />;
  return <OrderList />;
}

function OrderList() {
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const status = search.get("status");
  const method = search.get("method");
  const filters: Filters = {
    status: isState(status) ? status : "",
    method: isMethod(method) ? method : "",
    q: (search.get("q") ?? "").slice(0, 100),
  };
  const page = Math.max(1, Number(search.get("page")) || 1);
  const [draft, setDraft] = useState(filters);

  const orders = useResource(
    () =>
      dataOf(
        api.GET("/api/dashboard/orders", {
          params: {
            query: {
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.method ? { method: filters.method } : {}),
              ...(filters.q ? { q: filters.q } : {}),
              page: String(page),
              per_page: String(PER_PAGE),
            },
          },
        })
      ),
    [filters.status, filters.method, filters.q, page]
  );

  const go = (next: Filters, nextPage = 1) => {
    const query = new URLSearchParams();
    if (next.status) query.set("status", next.status);
    if (next.method) query.set("method", next.method);
    if (next.q) query.set("q", next.q);
    if (nextPage > 1) query.set("page", String(nextPage));
    const text = query.toString();
    navigate(text ? `/orders?${text}` : "/orders");
  };
  const filtered = Boolean(filters.status || filters.method || filters.q);

  return (
    <Page title="Orders" subtitle="What shoppers bought on your scan pages, and how each payment went.">
      <Section title="Find orders" id="order-filter">
        <form
          role="search"
          className="filters"
          onSubmit={(event) => {
            event.preventDefault();
            go({ ...draft, q: draft.q.trim() });
          }}
        >
          <TextField
            label="Search"
            maxLength={100}
            hint="An order number, a product UID or the gateway's transaction id, exactly"
            value={draft.q}
            onChange={(e) => setDraft({ ...draft, q: e.target.value })}
          />
          <SelectField label="State" value={draft.status} onChange={(e) => setDraft({ ...draft, status: isState(e.target.value) ? e.target.value : "" })}>
            <option value="">Any state</option>
            {ORDER_STATE_KEYS.map((state) => (
              <option key={state} value={state}>
                {stateOf(state).text}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Payment method"
            value={draft.method}
            onChange={(e) => setDraft({ ...draft, method: isMethod(e.target.value) ? e.target.value : "" })}
          >
            <option value="">Any method</option>
            {METHOD_KEYS.map((method) => (
              <option key={method} value={method}>
                {methodLabel(method)}
              </option>
            ))}
          </SelectField>
          <div className="filter-actions">
            <button type="submit">Show orders</button>
            {filtered && (
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDraft({ status: "", method: "", q: "" });
                  go({ status: "", method: "", q: "" });
                }}
              >
                Clear
              </button>
            )}
          </div>
        </form>
      </Section>
      <Section title="Order list" id="order-list">
        {orders.loading && !orders.data && <Loading what="orders" />}
        {orders.error && <ErrorNotice error={orders.error} title="The orders could not be loaded." />}
        {orders.data && orders.data.total === 0 && (
          <Empty>
            {filtered ? "No orders match these filters." : "No orders yet. Once sales are on in Gateway keys, shoppers can buy from your scan pages."}
          </Empty>
        )}
        {orders.data && orders.data.total > 0 && (
          <>
            <TableScroll label="Orders">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Product</th>
                    <th scope="col" className="num">
                      Amount
                    </th>
                    <th scope="col">Method</th>
                    <th scope="col">State</th>
                    <th scope="col" className="wide-only">
                      Paid
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {orders.data.orders.map((order) => {
                    const state = stateOf(order.status);
                    return (
                      <tr key={order.order_id}>
                        <th scope="row">
                          <Link href={`/orders/${order.order_id}`} className="mono">
                            {order.order_id}
                          </Link>
                          <div className="muted small">
                            <time dateTime={order.created_at}>{formatDateTime(order.created_at)}</time>
                          </div>
                        </th>
                        <td>
                          {order.product_name}
                          <div className="muted small mono">{order.uid}</div>
                        </td>
                        <td className="num">
                          {formatMinor(order.amount_minor, order.currency)}
                          {order.refunded_minor > 0 && <div className="muted small">{formatMinor(order.refunded_minor, order.currency)} refunded</div>}
                        </td>
                        <td>{methodLabel(order.method)}</td>
                        <td>
                          <Badge tone={state.tone}>{state.text}</Badge>
                        </td>
                        <td className="wide-only">
                          {order.paid_at ? <time dateTime={order.paid_at}>{formatDateTime(order.paid_at)}</time> : <span className="muted">—</span>}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableScroll>
            <Pager page={orders.data.page} perPage={orders.data.per_page} total={orders.data.total} noun="orders" onPage={(next) => go(filters, next)} />
          </>
        )}
      </Section>
    </Page>
  );
}
