// The landing page (GET /): what the service is, and links to its API reference, a demo passport, its figures and health.
import type { ShowcasePassport } from "../passports/showcase";
import { html } from "./html";
import { dppFooter, renderPage, type RenderedPage } from "./layout";

const CSS = `
.lede{font-size:18px;margin:0 0 8px}
ul.links{list-style:none;padding:0;margin:0}
ul.links li{padding:6px 0;border-top:1px solid #eaeef2}
ul.links li:first-child{border-top:0}
ul.links a{font-weight:600}
ul.links .muted{display:block}
`;

export function landingPage(input: { demo: ShowcasePassport | undefined }): RenderedPage {
  const { demo } = input;
  const body = html`<header class="brand-bar"><div class="inner"><p class="brand-name">Passport Registry</p></div></header>
<main>
<section class="card" aria-labelledby="what">
<h1 id="what">Digital Product Passports, anchored on chain</h1>
<p class="lede">Brands register products through a metered REST API and each gets an EU Digital Product Passport, minted as an ERC-721 token.</p>
<p>Shoppers tap the tag to see the passport; anyone can recompute its hash from the public record and compare it with the chain.</p>
</section>
<section class="card" aria-labelledby="api">
<h2 id="api">API</h2>
<ul class="links">
<li><a href="/docs">API reference</a><span class="muted">Every endpoint, its parameters and its responses, rendered from the OpenAPI document.</span></li>
<li><a href="/api/openapi.json">OpenAPI document</a><span class="muted">OpenAPI 3.1, JSON: generate a typed client from it.</span></li>
</ul>
</section>
<section class="card" aria-labelledby="demo">
<h2 id="demo">Demo passport</h2>
${
  demo
    ? html`<p><strong>${demo.name}</strong> <span class="muted">by ${demo.brandName} · <span class="mono">${demo.uid}</span></span></p>
<ul class="links">
<li><a href="${demo.scanUrl}">Scan page</a><span class="muted">What a shopper sees after tapping the tag.</span></li>
<li><a href="${demo.certificateUrl}">Certificate page</a><span class="muted">Token, contract, transaction and how to verify it yourself.</span></li>
<li><a href="${demo.recordUrl}">Public record</a><span class="muted">GET /api/dpp/{uid}: JSON with the data hash to recompute (a browser gets it as a page).</span></li>
</ul>`
    : html`<p class="muted">No passport has been issued yet.</p>`
}
</section>
<section class="card" aria-labelledby="platform">
<h2 id="platform">Platform</h2>
<ul class="links">
<li><a href="/api/stats">Statistics</a><span class="muted">Brands, products, passports and scans, a few seconds old.</span></li>
<li><a href="/readyz">Readiness</a><span class="muted">Whether Postgres, the chain and the indexer are up.</span></li>
<li><a href="/dashboard">Brand dashboard</a><span class="muted">Products, certificates, payments and usage for brand staff: sign in with your brand account.</span></li>
</ul>
</section>
</main>
${dppFooter(undefined)}`;
  return renderPage({ title: "Passport Registry", body, extraCss: CSS });
}
