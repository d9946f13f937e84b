// The shopper's order status page (GET /orders/{order_id}): where a gateway sends the browser back after paying
// (#s=<secret>) and where the scan page links. The server knows nothing it may show without the order's secret,
// which never reaches it in a URL, so it renders the frame for any well-formed order id and the page's script
// (assets/orders.client.js) reads the order with GET /api/orders/{order_id} and fills it in.
import { DEFAULT_LANG, type Lang } from "../i18n/languages";
import { messagesFor } from "../i18n/messages";
import { html } from "./html";
import { dppFooter, renderPage, serviceHeader, type RenderedPage } from "./layout";
import { ORDERS_SCRIPT_PATH, PURCHASE_CSS, scriptWordsAttribute } from "./purchase";

/** State words as badges: always the word, the colour only repeats it. */
const ORDER_CSS = `
.status.good{background:#dafbe1;color:#116329}
.status.waiting{background:#fff8c5;color:#7d4e00}
.status.bad{background:#ffebe9;color:#a40e26}
.status.neutral{background:#eaeef2;color:#424a53}
.order .amount{font-size:28px;font-weight:800;margin:4px 0 8px}
.receipt dl.facts{margin:0 0 12px}
.order .alert{overflow-wrap:anywhere}`;

/** The page's words follow `lang`, and so do the script's (assets/orders.client.js), which it reads from the page. */
export function orderStatusPage(orderId: string, lang: Lang = DEFAULT_LANG): RenderedPage {
  const t = messagesFor(lang);
  const body = html`${serviceHeader(lang)}
<main>
<section class="card order" id="order" data-order-id="${orderId}" aria-labelledby="order-title" ${scriptWordsAttribute(lang)}>
<p class="eyebrow">${t.order} <span class="mono">${orderId}</span></p>
<h1 id="order-title" data-field="title">${t.yourOrder}</h1>
<noscript><p>${t.orderNeedsScript}</p></noscript>
<p class="muted" role="status" data-field="loading" hidden>${t.loadingOrder}</p>
<div data-field="details" hidden>
<p class="amount" data-field="amount"></p>
<p><span class="status" data-field="state"></span></p>
<p role="status" data-field="message"></p>
<p><a data-field="product-link" href="#">${t.backToProduct}</a></p>
</div>
<div class="alert info" role="alert" data-field="problem" hidden></div>
</section>
<section class="card receipt" data-field="receipt" aria-labelledby="receipt-title" hidden>
<h2 id="receipt-title">${t.receipt}</h2>
<dl class="facts">
<dt>${t.order}</dt><dd class="mono">${orderId}</dd>
<dt>${t.product}</dt><dd data-field="r-product"></dd>
<dt>${t.passport}</dt><dd><a class="mono" data-field="r-uid" href="#"></a></dd>
<dt>${t.amount}</dt><dd data-field="r-amount"></dd>
<dt>${t.paidWith}</dt><dd data-field="r-method"></dd>
<dt>${t.paid}</dt><dd data-field="r-paid"></dd>
<dt>${t.confirmed}</dt><dd data-field="r-verified"></dd>
</dl>
<p class="muted">${t.keepReceipt}</p>
</section>
</main>
${dppFooter(undefined, lang)}`;
  return renderPage({
    title: t.yourOrder,
    lang,
    body,
    extraCss: PURCHASE_CSS + ORDER_CSS,
    security: { scripts: true },
    head: html`
<meta name="robots" content="noindex">
<script src="${ORDERS_SCRIPT_PATH}" defer></script>`,
  });
}
