// The badge demo page (GET /embed/demo?uid=…): a host page that includes /embed/badge.js, for trying the badge.
import { html } from "./html";
import { dppFooter, renderPage, type RenderedPage } from "./layout";

export function badgeDemoPage(input: { uid: string | undefined; baseUrl: string }): RenderedPage {
  const { uid, baseUrl } = input;
  const snippet = uid
    ? `<script src="${baseUrl}/embed/badge.js"></script>   <!-- once, in <head> -->\n<div class="service-badge" data-uid="${uid}"></div>`
    : "";
  const body = html`<header class="brand-bar"><div class="inner"><p class="brand-name">Badge demo</p></div></header>
<main>
<section class="card">
<h1>Embeddable passport badge</h1>
<form method="get" action="/embed/demo"><label>Product UID <input name="uid" value="${uid ?? ""}" maxlength="43" pattern="[A-Za-z0-9]{2,10}-[A-Za-z0-9]{4,32}" required></label>
<button type="submit">Show badge</button></form>
</section>
${
  uid
    ? html`<section class="card"><h2>The badge</h2>
<div class="service-badge" data-uid="${uid}"></div>
</section>
<section class="card hostile"><h2>Inside a host page with aggressive CSS</h2>
<p class="muted">This card's stylesheet sets every div and span to red serif text with a dashed border; the badge renders in a Shadow DOM and stays intact.</p>
<div class="service-badge" data-uid="${uid}"></div>
</section>
<section class="card"><h2>Paste this into your shop</h2><pre><code>${snippet}</code></pre>
<p class="muted">The script reads the UID from each <code>div.service-badge[data-uid]</code>, including badges added later, and asks
<code>${baseUrl}/api/badge/${uid}</code> for the rating, label, kg CO2e and certification.</p></section>`
    : html`<section class="card"><p class="muted">Enter the UID of a product to see its badge.</p></section>`
}
</main>
${dppFooter(undefined)}`;
  return renderPage({
    title: uid ? `Badge demo · ${uid}` : "Badge demo",
    body,
    head: html`
<script src="/embed/badge.js"></script>
<meta name="robots" content="noindex">`,
    security: { scripts: true, forms: true },
    extraCss: ".hostile div,.hostile span{color:red!important;font:24px/3 serif!important;border:2px dashed red!important}",
  });
}
