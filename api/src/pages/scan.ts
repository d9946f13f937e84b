// The scan page (GET /scan/{uid}): what a shopper sees after tapping the NFC tag, mobile first.
import type { PublicRecord } from "../passports/public-record";
import { shopperWords, type TagChip, type TapVerdict } from "../tags/verdicts";
import { CARBON_BOUNDS, CARBON_LABELS, formatKg, ratingOf } from "./carbon";
import { html, type SafeHtml } from "./html";
import { brandHeader, dppFooter, openGraph, renderPage, type PageBrand, type RenderedPage } from "./layout";
import { ORDERS_SCRIPT_PATH, PURCHASE_CSS, purchaseSection, type PurchaseOffer } from "./purchase";

/** "fibre_sourced" → "Fibre sourced". */
export function stageName(stage: string): string {
  const words = stage.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "2026-11-22 09:10 UTC": one unambiguous form for every reader. */
export function formatTime(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The headline verdict: verified at confirmation depth, or not (yet). */
export function verificationBadge(record: PublicRecord): SafeHtml {
  const chain = record.blockchain;
  if (chain.verified) return html`<p class="status verified">✓ Verified on ${chain.network}</p>`;
  const note =
    chain.status === "pending" || chain.status === "confirming"
      ? html`<p class="muted">The certificate is being written to ${chain.network}; it shows as verified once confirmed.</p>`
      : "";
  return html`<p class="status unverified">Not yet certified</p>${note}`;
}

/** Red for lost and stolen, a note for recovered; integrity warning when the content no longer matches the chain. */
export function passportWarnings(record: PublicRecord): SafeHtml {
  const chain = record.blockchain;
  const warnings: SafeHtml[] = [];
  if (chain.passport_status === "stolen") {
    warnings.push(html`<p class="alert danger" role="alert">This product has been reported stolen. If it was offered to you, contact ${record.content.brand.name}.</p>`);
  } else if (chain.passport_status === "lost") {
    warnings.push(html`<p class="alert danger" role="alert">This product has been reported lost.</p>`);
  } else if (chain.passport_status === "recovered") {
    warnings.push(html`<p class="alert info">This product was reported lost or stolen and has since been recovered.</p>`);
  }
  if (chain.data_hash_matches === false) {
    warnings.push(html`<p class="alert danger" role="alert">The passport data shown here differs from what was certified on chain.</p>`);
  }
  return html`${warnings}`;
}

export function carbonCard(rating: string, kg: number): SafeHtml {
  const letter = ratingOf(rating, kg);
  return html`<section class="card carbon" aria-label="Carbon footprint">
<div class="disc r${letter}" aria-hidden="true">${letter}</div>
<div><p class="label">${CARBON_LABELS[letter]} <span class="chip">Rating ${letter}</span></p>
<p class="kg">${formatKg(kg)}</p>
<p class="muted">Estimated cradle-to-gate footprint; rating ${letter} means ${CARBON_BOUNDS[letter]}.</p></div>
</section>`;
}

function fibreCard(record: PublicRecord): SafeHtml {
  const shares = record.content.fiber_composition;
  if (shares.length === 0) return html``;
  return html`<section class="card"><h2>Fibre composition</h2><ul class="plain">${shares.map(
    (s) => html`<li><div class="fibre"><span>${s.fiber}</span><span>${s.percent}%</span></div><progress max="100" value="${s.percent}">${s.percent}%</progress></li>`,
  )}</ul></section>`;
}

function certificationsCard(record: PublicRecord): SafeHtml {
  const certs = record.content.certifications;
  return html`<section class="card"><h2>Certifications</h2>${
    certs.length === 0
      ? html`<p class="muted">No certifications declared for this product.</p>`
      : html`<ul class="plain">${certs.map(
          (c) => html`<li><strong>${c.code}</strong> · ${c.issuer} · no. ${c.number} · valid until ${c.valid_until}${
            c.evidence_url ? html` · <a href="${safeLink(c.evidence_url)}" rel="noopener noreferrer">evidence</a>` : ""
          }</li>`,
        )}</ul>`
  }</section>`;
}

/** Who says this factory made the product: the factory itself, or only the brand. */
export function attributionWords(maker: NonNullable<PublicRecord["manufacturer"]>): string {
  return maker.attribution === "confirmed_by_factory" ? "Confirmed by the factory" : "Declared by the brand";
}

function manufacturerCard(record: PublicRecord): SafeHtml {
  const maker = record.manufacturer;
  if (!maker) return html`<section class="card"><h2>Manufacturer</h2><p class="muted">Not declared yet.</p></section>`;
  // The registry's verdict on a factory says nothing about a product that factory never confirmed: not shown then.
  const confirmed = maker.attribution === "confirmed_by_factory";
  return html`<section class="card"><h2>Manufacturer</h2><dl class="facts">
<dt>Factory</dt><dd>${maker.name}</dd>
<dt>Location</dt><dd>${[maker.city, maker.country].filter(Boolean).join(", ")}</dd>
<dt>Attribution</dt><dd>${confirmed ? attributionWords(maker) : html`<span class="muted">${attributionWords(maker)}</span>`}</dd>
${confirmed ? html`<dt>Registry</dt><dd>${maker.verified ? html`<span class="ok">✓ Verified factory</span>` : html`<span class="muted">Not verified</span>`}</dd>` : ""}
</dl></section>`;
}

function timelineCard(record: PublicRecord): SafeHtml {
  const events = record.supply_chain_events;
  if (events.length === 0) return html``;
  return html`<section class="card"><h2>Supply chain</h2><ol class="timeline">${events.map(
    (e) => html`<li><p class="stage">${stageName(e.stage)}</p>
<p class="muted">${[e.factory_name, e.place].filter(Boolean).join(" · ")}${e.factory_name || e.place ? html`<br>` : ""}${formatTime(e.time)} · <a href="${e.explorer_url}">transaction</a></p></li>`,
  )}</ol></section>`;
}

function careCard(record: PublicRecord): SafeHtml {
  const care = record.content.care_instructions.trim();
  if (!care) return html``;
  return html`<section class="card"><h2>Care instructions</h2><p>${care}</p></section>`;
}

/** Only http(s) links reach an href: a stored evidence URL is checked at registration, this keeps it that way. */
export function safeLink(url: string): string {
  return /^https?:\/\//i.test(url) ? url : "#";
}

/** The verdict of a checked tap (a URL with SUN parameters), as the scan page shows it. */
export type TapNotice = { verdict: Exclude<TapVerdict, "unverified">; chip: TagChip | null };

/** Tones of the tap card: the theme has danger and info alerts; a warning and a confirmation are this page's own. */
const TAP_CSS = `
.alert.warning{background:#fff8c5;color:#7d4e00;border:1px solid #d4a72c}
.alert.ok{background:#dafbe1;color:#116329;border:1px solid #4ac26b}
.alert .detail{font-weight:400;margin:4px 0 0}`;

/**
 * The headline of a checked tap, first on the page: green for an authentic tap, amber for a replayed link or an
 * unknown tag, red for a forged or misplaced tag. The words are for shoppers (tags/verdicts.ts).
 */
export function tapCard(notice: TapNotice, brandName: string): SafeHtml {
  const words = shopperWords(notice.verdict, brandName);
  const tone = words.tone === "neutral" ? "info" : words.tone;
  const mark = tone === "ok" ? "✓ " : tone === "danger" ? "✗ " : "";
  const role = tone === "danger" || tone === "warning" ? html` role="alert"` : html``;
  const assurance =
    notice.verdict === "authentic" && notice.chip === "NTAG424" ? html`<p class="detail">Secure tag (NTAG 424 DNA): it cannot be copied without the brand's keys.</p>` : "";
  return html`<section class="alert ${tone} tap" aria-label="Tag check"${role}><p>${mark}${words.headline}</p><p class="detail">${words.detail}</p>${assurance}</section>`;
}

/** `purchase`: the brand sells the product here (a price and at least one way to pay); adds the Buy section. */
export function scanPage(input: { record: PublicRecord; brand: PageBrand; pageUrl: string; pdfUrl: string | null; tap?: TapNotice; purchase?: PurchaseOffer }): RenderedPage {
  const { record, brand } = input;
  const product = record.content.product;
  const certified = record.blockchain.verified;
  const title = `${product.name} · ${brand.name}`;
  const body = html`${brandHeader(brand)}
<main>
${input.tap ? tapCard(input.tap, brand.name) : ""}
${passportWarnings(record)}
<section class="card"><p class="eyebrow category">${product.category}</p><h1>${product.name}</h1>${verificationBadge(record)}
${product.description ? html`<p>${product.description}</p>` : ""}</section>
${input.purchase ? purchaseSection(input.purchase) : ""}
${carbonCard(record.content.carbon.rating, record.content.carbon.kg_co2e)}
${fibreCard(record)}
${certificationsCard(record)}
${manufacturerCard(record)}
${timelineCard(record)}
${careCard(record)}
<section class="card"><h2>Certificate</h2>
<a class="button" href="/dpp-certificate/${encodeURIComponent(record.uid)}">${certified ? "View certificate" : "Certificate status"}</a>${
    input.pdfUrl ? html`<a class="button plain" href="${input.pdfUrl}">Download PDF</a>` : ""
  }
<p class="muted">Passport ${record.uid}</p></section>
</main>
${dppFooter(brand)}`;
  const extraCss = (input.tap ? TAP_CSS : "") + (input.purchase ? PURCHASE_CSS : "");
  return renderPage({
    title,
    body,
    brand,
    ...(extraCss ? { extraCss } : {}),
    // The purchase section's script posts the order and reads its state, on this origin only.
    ...(input.purchase ? { security: { scripts: true } } : {}),
    head: html`${openGraph({
      title,
      description: `${certified ? "Verified" : "Digital"} product passport: ${CARBON_LABELS[ratingOf(record.content.carbon.rating, record.content.carbon.kg_co2e)]} carbon footprint, materials, origin and care.`,
      url: input.pageUrl,
      image: brand.branding.logo_url,
      siteName: brand.name,
    })}
<meta name="robots" content="noindex">${input.purchase ? html`
<script src="${ORDERS_SCRIPT_PATH}" defer></script>` : ""}`,
  });
}
