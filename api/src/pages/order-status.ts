// The shopper's order status page (GET /orders/{order_id}): where a gateway sends the browser back after paying
// (#s=<secret>) and where the scan page links. The server knows nothing it may show without the order's secret,
// which never reaches it in a URL, so it renders the frame for any well-formed order id and the page's script
// (assets/orders.client.js) reads the order with GET /api/orders/{order_id} and fills it in.
import { html } from "./html";
import { dppFooter, renderPage, serviceHeader, type RenderedPage } from "./layout";
import { ORDERS_SCRIPT_PATH, PURCHASE_CSS } from "./purchase";

/** State words as badges: always the word, the colour only repeats it. */
const ORDER_CSS = `
.status.good{background:#dafbe1;color:#116329}
.status.waiting{background:#fff8c5;color:#7d4e00}
.status.bad{background:#ffebe9;color:#a40e26}
.status.neutral{background:#eaeef2;color:#424a53}
.order .amount{font-size:28px;font-weight:800;margin:4px 0 8px}
.receipt dl.facts{margin:0 0 12px}
.order .alert{overflow-wrap:anywhere}`;

export function orderStatusPage(orderId: string): RenderedPage {
  const body = html`${serviceHeader()}
<main>
<section class="card order" id="order" data-order-id="${orderId}" aria-labelledby="order-title">
<p class="eyebrow">Order <span class="mono">${orderId}</span></p>
<h1 id="order-title" data-field="title">Your order</h1>
<noscript><p>This page needs JavaScript to show your order: the order's key stays in your browser and never travels in a link's address.</p></noscript>
<p class="muted" role="status" data-field="loading" hidden>Loading your order…</p>
<div data-field="details" hidden>
<p class="amount" data-field="amount"></p>
<p><span class="status" data-field="state"></span></p>
<p role="status" data-field="message"></p>
<p><a data-field="product-link" href="#">Back to the product</a></p>
</div>
<div class="alert info" role="alert" data-field="problem" hidden></div>
</section>
<section class="card receipt" data-field="receipt" aria-labelledby="receipt-title" hidden>
<h2 id="receipt-title">Receipt</h2>
<dl class="facts">
<dt>Order</dt><dd class="mono">${orderId}</dd>
<dt>Product</dt><dd data-field="r-product"></dd>
<dt>Passport</dt><dd><a class="mono" data-field="r-uid" href="#"></a></dd>
<dt>Amount</dt><dd data-field="r-amount"></dd>
<dt>Paid with</dt><dd data-field="r-method"></dd>
<dt>Paid</dt><dd data-field="r-paid"></dd>
<dt>Confirmed</dt><dd data-field="r-verified"></dd>
</dl>
<p class="muted">Keep this page, or note the order number, in case you need to ask the shop about this payment.</p>
</section>
</main>
${dppFooter(undefined)}`;
  return renderPage({
    title: "Your order",
    body,
    extraCss: PURCHASE_CSS + ORDER_CSS,
    security: { scripts: true },
    head: html`
<meta name="robots" content="noindex">
<script src="${ORDERS_SCRIPT_PATH}" defer></script>`,
  });
}
