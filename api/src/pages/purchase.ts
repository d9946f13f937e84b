// The scan page's purchase section: the price and one button per way to pay that the brand offers for the product,
// and the Cash QR view that the page's script (assets/orders.client.js) fills in once the order is placed.
import { DEFAULT_LANG, INTL_LOCALES, type Lang } from "../i18n/languages";
import { messagesFor } from "../i18n/messages";
import { ORDER_STATES, type OrderState } from "../orders/state-machine";
import type { PaymentMethod } from "../plans/catalogue";
import { html, type SafeHtml } from "./html";

/** What the scan page offers: the product's price and the methods availableMethods() returned, in that order. */
export type PurchaseOffer = {
  uid: string;
  /** The product's price as stored ("150.00"). */
  price: string;
  currency: string;
  methods: ReadonlyArray<{ method: string; label: string }>;
};

/** The shopper's name of a way to pay, in the page's language (the dashboard's label for one the catalogue lacks). */
function shopperLabel(method: { method: string; label: string }, lang: Lang): string {
  return messagesFor(lang).methodNames[method.method as PaymentMethod] ?? method.label;
}

/** The script of the purchase section and of the order status page, served by the pages router. */
export const ORDERS_SCRIPT_PATH = "/assets/orders.js";

/** The Intl locale of amounts: "en" in English ("BDT 1,990.00", "$25.00"), the language's own otherwise ("1,990.00৳"). */
export function moneyLocale(lang: Lang): string {
  return lang === DEFAULT_LANG ? "en" : INTL_LOCALES[lang];
}

/** "BDT 1,990.00", "$25.00": the amount as the shopper reads it, in the page's language (Latin digits). */
export function formatMoney(amount: string | number, currency: string, lang: Lang = DEFAULT_LANG): string {
  const value = Number(amount);
  try {
    return new Intl.NumberFormat(moneyLocale(lang), { style: "currency", currency }).format(value);
  } catch {
    // Not a currency Intl knows (a bad row): the code and the figure still say it.
    return `${currency} ${value.toFixed(2)}`;
  }
}

/**
 * What the page's script says and how it writes amounts and times, in the page's language: the script has no words
 * of its own, so the Buy section and the order page carry these in `data-page-words`. "{method}", "{reference}" and
 * "{order}" are filled in by the script. `dateLocale` is null in English, where times read "2026-11-22 09:10 UTC" as
 * on the scan page; otherwise the script writes them as formatDateTime does.
 */
export function scriptWords(lang: Lang) {
  const t = messagesFor(lang);
  const messages = Object.fromEntries(ORDER_STATES.map((state) => [state, t.orderMessage(state, "{method}", false)])) as Record<OrderState, string>;
  return {
    moneyLocale: moneyLocale(lang),
    dateLocale: lang === DEFAULT_LANG ? null : INTL_LOCALES[lang],
    states: t.orderStates,
    messages,
    pendingCash: t.orderMessage("pending", "", true),
    methods: t.methodNames,
    paymentReceived: t.paymentReceived,
    waitingForCashier: t.waitingForCashier,
    placingOrder: t.placingOrder,
    takingYouTo: t.takingYouTo("{method}"),
    shopUnreachable: t.shopUnreachable,
    tooManyAttempts: t.tooManyAttempts,
    notOnSale: t.notOnSale,
    methodUnavailable: t.methodUnavailable("{method}"),
    gatewayUnavailable: t.gatewayUnavailable("{method}"),
    productGone: t.productGone,
    orderRefused: t.orderRefused,
    orderFailed: t.orderFailed("{reference}"),
    orderFailedNoReference: t.orderFailedNoReference,
    noNextStep: t.noNextStep,
    noSuchOrder: t.noSuchOrder,
    busyConnection: t.busyConnection,
    connectionLost: t.connectionLost,
    shopBusy: t.shopBusy,
    stoppedChecking: t.stoppedChecking,
    noKey: t.noKey("{order}"),
    beingConfirmedWithProvider: t.beingConfirmedWithProvider,
  };
}

/** The page's words for its script, as an attribute (escaped by `html`, read with JSON.parse). */
export function scriptWordsAttribute(lang: Lang): SafeHtml {
  return html`data-page-words="${JSON.stringify(scriptWords(lang))}"`;
}

/**
 * The purchase section's own rules, appended to the page's theme. `[hidden]` must win over the display of the
 * elements the script shows and hides.
 */
export const PURCHASE_CSS = `
[hidden]{display:none!important}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.buy{border-top:4px solid var(--primary)}
.buy .price{font-size:28px;font-weight:800;margin:0 0 12px}
.methods{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:8px;margin:0 0 8px}
.methods .button{margin:0;border:0;font:inherit;font-weight:700;min-height:48px;cursor:pointer;width:100%}
.methods .button[aria-disabled="true"]{opacity:.6;cursor:progress}
.purchase-error{background:#ffebe9;color:#a40e26;border:1px solid #ff8182;border-radius:8px;padding:10px 12px;font-weight:600}
.purchase-error:empty{display:none}
.cash-qr{text-align:center}
.cash-qr:focus{outline:none}
.cash-qr h3{font-size:20px;margin:8px 0 4px}
.cash-qr .amount{font-size:32px;font-weight:800;margin:0 0 8px}
.cash-qr img{width:240px;height:240px;max-width:100%;background:#fff;padding:8px;border:1px solid #d0d7de;border-radius:8px}
.cash-qr .show{font-size:18px;margin:8px 0}
.paid-state{background:#dafbe1;color:#116329;border:1px solid #4ac26b;border-radius:12px;padding:16px;font-size:20px;font-weight:700;text-align:center}
.order-state{font-weight:600}`;

/**
 * The "Buy" card. The form posts to POST /api/orders through the script, which shows it (hidden without JavaScript,
 * since the API takes JSON) and answers each refusal in words; one submit button per method, in the brand's colour.
 */
export function purchaseSection(offer: PurchaseOffer, lang: Lang = DEFAULT_LANG): SafeHtml {
  const t = messagesFor(lang);
  return html`<section class="card buy" id="buy" aria-labelledby="buy-title" ${scriptWordsAttribute(lang)}>
<h2 id="buy-title">${t.buy}</h2>
<p class="price" data-field="price"><span class="sr-only">${t.pricePrefix}</span>${formatMoney(offer.price, offer.currency, lang)}</p>
<noscript><p class="muted">${t.payNeedsScript}</p></noscript>
<form class="pay" method="post" action="/api/orders" hidden>
<input type="hidden" name="uid" value="${offer.uid}">
<p class="muted" id="pay-with">${t.chooseHowToPay}</p>
<div class="methods" role="group" aria-labelledby="pay-with">${offer.methods.map(
    (m) => html`<button type="submit" class="button method" name="method" value="${m.method}">${shopperLabel(m, lang)}</button>`,
  )}</div>
<p class="muted" role="status" data-field="busy"></p>
<p class="purchase-error" role="alert" data-field="error"></p>
</form>
<div class="cash-qr" data-field="cash" tabindex="-1" hidden>
<h3>${t.payAtTill}</h3>
<p class="amount" data-field="amount"></p>
<div data-field="qr-block">
<img data-field="qr" alt="${t.cashierQrAlt}" width="240" height="240">
<p class="show"><strong>${t.showCashier}</strong></p>
<p class="muted">${t.cashierScans}</p>
</div>
<p role="status" class="order-state" data-field="state"></p>
<p><a data-field="status-link" href="#">${t.yourOrderPage}</a></p>
</div>
</section>`;
}
