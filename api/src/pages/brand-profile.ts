// The brand profile page (GET /brand/{slug}): who the brand is, how many of its products carry a certified
// passport, and its latest certified products.
import { DEFAULT_LANG, type Lang } from "../i18n/languages";
import { messagesFor } from "../i18n/messages";
import { formatKg, ratingOf } from "./carbon";
import { html } from "./html";
import { brandHeader, dppFooter, openGraph, renderPage, socialLinks, type PageBrand, type RenderedPage } from "./layout";

export type ProfileProduct = { uid: string; name: string; category: string; carbonRating: string; carbonKg: number };

export function brandProfilePage(input: {
  brand: PageBrand;
  pageUrl: string;
  counts: { products: number; certified: number };
  latest: ProfileProduct[];
  lang?: Lang;
  /** Names of the latest products in the page's language, by UID (the brand's translations); others keep theirs. */
  translatedNames?: ReadonlyMap<string, string>;
}): RenderedPage {
  const { brand, counts, latest } = input;
  const lang = input.lang ?? DEFAULT_LANG;
  const t = messagesFor(lang);
  const links = socialLinks(brand, lang);
  const body = html`${brandHeader(brand, { large: true, lang })}
<main>
${brand.branding.about ? html`<section class="card"><h2>${t.about}</h2><p class="about">${brand.branding.about}</p></section>` : ""}
${links.length > 0 ? html`<section class="card"><h2>${t.findUs}</h2><nav class="muted">${links.map((link, i) => html`${i > 0 ? " · " : ""}${link}`)}</nav></section>` : ""}
<section class="card counts" aria-label="${t.passports}">
<div><strong>${counts.products}</strong><span class="muted">${t.productsCount}</span></div>
<div><strong>${counts.certified}</strong><span class="muted">${t.certifiedOnChain}</span></div>
</section>
<section class="card"><h2>${t.latestCertified}</h2>${
    latest.length === 0
      ? html`<p class="muted">${t.noCertifiedYet}</p>`
      : html`<ul class="plain">${latest.map((p) => {
          const rating = ratingOf(p.carbonRating, p.carbonKg);
          const name = input.translatedNames?.get(p.uid) ?? p.name;
          return html`<li><a href="/scan/${encodeURIComponent(p.uid)}"><strong>${name}</strong></a><br><span class="muted">${p.category} · ${t.carbonSummary(rating, t.carbonLabels[rating], formatKg(p.carbonKg))}</span></li>`;
        })}</ul>`
  }</section>
</main>
${dppFooter(brand, lang)}`;
  return renderPage({
    title: brand.name,
    body,
    brand,
    lang,
    head: openGraph({
      title: brand.name,
      description: brand.branding.tagline ?? t.brandDescription(brand.name),
      url: input.pageUrl,
      image: brand.branding.logo_url,
      siteName: brand.name,
    }),
  });
}
