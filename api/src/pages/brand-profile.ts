// The brand profile page (GET /brand/{slug}): who the brand is, how many of its products carry a certified
// passport, and its latest certified products.
import { CARBON_LABELS, formatKg, ratingOf } from "./carbon";
import { html } from "./html";
import { brandHeader, dppFooter, openGraph, renderPage, socialLinks, type PageBrand, type RenderedPage } from "./layout";

export type ProfileProduct = { uid: string; name: string; category: string; carbonRating: string; carbonKg: number };

export function brandProfilePage(input: {
  brand: PageBrand;
  pageUrl: string;
  counts: { products: number; certified: number };
  latest: ProfileProduct[];
}): RenderedPage {
  const { brand, counts, latest } = input;
  const links = socialLinks(brand);
  const body = html`${brandHeader(brand, { large: true })}
<main>
${brand.branding.about ? html`<section class="card"><h2>About</h2><p class="about">${brand.branding.about}</p></section>` : ""}
${links.length > 0 ? html`<section class="card"><h2>Find us</h2><nav class="muted">${links.map((link, i) => html`${i > 0 ? " · " : ""}${link}`)}</nav></section>` : ""}
<section class="card counts" aria-label="Passports">
<div><strong>${counts.products}</strong><span class="muted">products</span></div>
<div><strong>${counts.certified}</strong><span class="muted">certified on chain</span></div>
</section>
<section class="card"><h2>Latest certified products</h2>${
    latest.length === 0
      ? html`<p class="muted">No certified products yet.</p>`
      : html`<ul class="plain">${latest.map((p) => {
          const rating = ratingOf(p.carbonRating, p.carbonKg);
          return html`<li><a href="/scan/${encodeURIComponent(p.uid)}"><strong>${p.name}</strong></a><br><span class="muted">${p.category} · carbon ${rating} (${CARBON_LABELS[rating]}, ${formatKg(p.carbonKg)})</span></li>`;
        })}</ul>`
  }</section>
</main>
${dppFooter(brand)}`;
  return renderPage({
    title: brand.name,
    body,
    brand,
    head: openGraph({
      title: brand.name,
      description: brand.branding.tagline ?? `${brand.name}: products with EU Digital Product Passports.`,
      url: input.pageUrl,
      image: brand.branding.logo_url,
      siteName: brand.name,
    }),
  });
}
