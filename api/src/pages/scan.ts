// The scan page (GET /scan/{uid}): what a shopper sees after tapping the NFC tag, mobile first.
import { DEFAULT_LANG, formatDateTime, type Lang } from "../i18n/languages";
import { messagesFor } from "../i18n/messages";
import { careText, categoryName, fibreName } from "../i18n/product-words";
import type { StageAttestation } from "../i18n/textile-words";
import type { PublicRecord } from "../passports/public-record";
import { shopperWords, type TagChip, type TapVerdict } from "../tags/verdicts";
import { formatKg, ratingOf } from "./carbon";
import { html, type SafeHtml } from "./html";
import { brandHeader, dppFooter, openGraph, renderPage, type PageBrand, type RenderedPage } from "./layout";
import { machineReadableCard, machineReadableHead, type MachineLinks } from "./machine-readable";
import { ORDERS_SCRIPT_PATH, PURCHASE_CSS, purchaseSection, type PurchaseOffer } from "./purchase";
import {
  careSymbolsCard, durabilityCard, endOfLifeCard, madeWhereCard, materialsCard, productDetailsCard, repairCard, substancesCard,
  TEXTILE_CSS, textileCarbonCard, textilePhotos, type InheritedMark,
} from "./textile-sections";

/** "fibre_sourced" → "Fibre sourced" (or its Bengali name); a stage the catalogue lacks is spelled out. */
export function stageName(stage: string, lang: Lang = DEFAULT_LANG): string {
  const known = messagesFor(lang).stages[stage];
  if (known) return known;
  const words = stage.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * English: "2026-11-22 09:10 UTC", one unambiguous form for every reader. Bengali: the date with Bengali month
 * names (Intl, bn-BD), Latin digits and UTC.
 */
export function formatTime(iso: string | Date, lang: Lang = DEFAULT_LANG): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  if (lang !== "en") return formatDateTime(date, lang);
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The headline verdict: verified at confirmation depth, or not (yet). */
export function verificationBadge(record: PublicRecord, lang: Lang = DEFAULT_LANG): SafeHtml {
  const t = messagesFor(lang);
  const chain = record.blockchain;
  if (chain.verified) return html`<p class="status verified">${t.verifiedOn(chain.network)}</p>`;
  const note =
    chain.status === "pending" || chain.status === "confirming"
      ? html`<p class="muted">${t.beingWritten(chain.network)}</p>`
      : "";
  return html`<p class="status unverified">${t.notYetCertified}</p>${note}`;
}

/** Red for lost and stolen, a note for recovered; integrity warning when the content no longer matches the chain. */
export function passportWarnings(record: PublicRecord, lang: Lang = DEFAULT_LANG): SafeHtml {
  const t = messagesFor(lang);
  const chain = record.blockchain;
  const warnings: SafeHtml[] = [];
  if (chain.passport_status === "stolen") {
    warnings.push(html`<p class="alert danger" role="alert">${t.reportedStolen(record.content.brand.name)}</p>`);
  } else if (chain.passport_status === "lost") {
    warnings.push(html`<p class="alert danger" role="alert">${t.reportedLost}</p>`);
  } else if (chain.passport_status === "recovered") {
    warnings.push(html`<p class="alert info">${t.recovered}</p>`);
  }
  if (chain.data_hash_matches === false) {
    warnings.push(html`<p class="alert danger" role="alert">${t.hashMismatch}</p>`);
  }
  return html`${warnings}`;
}

/** `from`: the discreet mark of a figure taken from the model or the batch (inheritedMark). */
export function carbonCard(rating: string, kg: number, lang: Lang = DEFAULT_LANG, from?: SafeHtml): SafeHtml {
  const t = messagesFor(lang);
  const letter = ratingOf(rating, kg);
  return html`<section class="card carbon" aria-label="${t.carbonFootprint}">
<div class="disc r${letter}" aria-hidden="true">${letter}</div>
<div><p class="label">${t.carbonLabels[letter]} <span class="chip">${t.ratingChip(letter)}</span>${from ?? ""}</p>
<p class="kg">${formatKg(kg)}</p>
<p class="muted">${t.carbonNote(letter, t.carbonBounds[letter])}</p></div>
</section>`;
}

/**
 * " from the model" (or the batch), small and muted, after a value this passport took from its model or batch
 * passport; nothing for a value of its own. `fields`: the content fields the value shows, as `inherited` names them
 * (`care_instructions`, `product.description`); a field inside one of them, or one holding it, counts too.
 */
export function inheritedMark(record: PublicRecord, fields: string[], lang: Lang = DEFAULT_LANG): SafeHtml {
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}.`);
  const entry = record.lineage.inherited.find((candidate) => fields.some((field) => within(candidate.field, field) || within(field, candidate.field)));
  return entry ? html` <span class="from">${messagesFor(lang).inheritedFrom[entry.from]}</span>` : html``;
}

/** The link to a model or batch passport: "Model: <name> · passport <uid>", and a note when it changed since. */
function parentLine(label: string, parent: NonNullable<PublicRecord["lineage"]["model"]>, shown: string, lang: Lang): SafeHtml {
  const t = messagesFor(lang);
  const changed = parent.pinned_is_current === false ? html` <span class="muted">(${t.changedSince})</span>` : "";
  return html`<li>${label}: <a href="/scan/${encodeURIComponent(parent.uid)}">${shown} · <span class="uid">${t.linkedPassport(parent.uid)}</span></a>${changed}</li>`;
}

/**
 * What this passport covers and what it was made from: for an item, its model and batch passports; for a model or a
 * batch, what a passport of that level stands for (and a batch's model). Nothing for an item without links.
 */
export function lineageCard(record: PublicRecord, lang: Lang = DEFAULT_LANG): SafeHtml {
  const t = messagesFor(lang);
  const { granularity, model, batch } = record.lineage;
  if (!showsLineage(record)) return html``;
  const covers =
    granularity === "model" ? html`<p>${t.modelPassportCovers}</p>` : granularity === "batch" ? html`<p>${t.batchPassportCovers(record.content.product.lot ?? null)}</p>` : "";
  const links = [
    ...(model ? [parentLine(t.model, model, model.name ?? model.uid, lang)] : []),
    ...(batch ? [parentLine(t.batch, batch, batch.lot ?? batch.name ?? batch.uid, lang)] : []),
  ];
  return html`<section class="card lineage" aria-label="${t.lineage}">${covers}${links.length > 0 ? html`<ul class="plain">${links}</ul>` : ""}</section>`;
}

/**
 * The inherited-value mark is a word, not a badge (and not in the heading's capitals), so it never competes with the
 * value it qualifies; a linked passport's UID does not break at its hyphen.
 */
export const LINEAGE_CSS = `
.from{color:#57606a;font-size:13px;font-weight:400;font-style:italic;text-transform:none;letter-spacing:0}
.lineage p{margin:0 0 6px}
.lineage li{margin:4px 0}
.uid{white-space:nowrap}`;

/** Whether the pages have anything to say of the passport's level or links (an item without links: nothing). */
export function showsLineage(record: PublicRecord): boolean {
  return record.lineage.granularity !== "item" || record.lineage.model !== null || record.lineage.batch !== null;
}

function fibreCard(record: PublicRecord, lang: Lang): SafeHtml {
  const shares = record.content.fiber_composition;
  if (shares.length === 0) return html``;
  return html`<section class="card"><h2>${messagesFor(lang).fibreComposition}${inheritedMark(record, ["fiber_composition"], lang)}</h2><ul class="plain">${shares.map(
    (s) => html`<li><div class="fibre"><span>${fibreName(s.fiber, lang)}</span><span>${s.percent}%</span></div><progress max="100" value="${s.percent}">${s.percent}%</progress></li>`,
  )}</ul></section>`;
}

function certificationsCard(record: PublicRecord, lang: Lang): SafeHtml {
  const t = messagesFor(lang);
  // A brand may give its certifications to authorised readers only (docs/access.md): no card then.
  const certs = record.content.certifications as PublicRecord["content"]["certifications"] | undefined;
  if (!certs) return html``;
  return html`<section class="card"><h2>${t.certifications}${inheritedMark(record, ["certifications"], lang)}</h2>${
    certs.length === 0
      ? html`<p class="muted">${t.noCertifications}</p>`
      : html`<ul class="plain">${certs.map(
          (c) => html`<li><strong>${c.code}</strong> · ${c.issuer} · ${t.certificationNumber(c.number)} · ${t.validUntil(c.valid_until)}${
            c.evidence_url ? html` · <a href="${safeLink(c.evidence_url)}" rel="noopener noreferrer">${t.evidence}</a>` : ""
          }</li>`,
        )}</ul>`
  }</section>`;
}

/** Who says this factory made the product: the factory itself, or only the brand. */
export function attributionWords(maker: NonNullable<PublicRecord["manufacturer"]>, lang: Lang = DEFAULT_LANG): string {
  const t = messagesFor(lang);
  return maker.attribution === "confirmed_by_factory" ? t.confirmedByFactory : t.declaredByBrand;
}

function manufacturerCard(record: PublicRecord, lang: Lang): SafeHtml {
  const t = messagesFor(lang);
  const maker = record.manufacturer;
  if (!maker) return html`<section class="card"><h2>${t.manufacturer}</h2><p class="muted">${t.notDeclaredYet}</p></section>`;
  // The registry's verdict on a factory says nothing about a product that factory never confirmed: not shown then.
  const confirmed = maker.attribution === "confirmed_by_factory";
  return html`<section class="card"><h2>${t.manufacturer}${inheritedMark(record, ["manufacturer", "country_of_manufacture"], lang)}</h2><dl class="facts">
<dt>${t.factory}</dt><dd>${maker.name}</dd>
<dt>${t.location}</dt><dd>${[maker.city, maker.country].filter(Boolean).join(", ")}</dd>
<dt>${t.attribution}</dt><dd>${confirmed ? attributionWords(maker, lang) : html`<span class="muted">${attributionWords(maker, lang)}</span>`}</dd>
${confirmed ? html`<dt>${t.registry}</dt><dd>${maker.verified ? html`<span class="ok">${t.verifiedFactory}</span>` : html`<span class="muted">${t.notVerified}</span>`}</dd>` : ""}
</dl></section>`;
}

function timelineCard(record: PublicRecord, lang: Lang): SafeHtml {
  const t = messagesFor(lang);
  const events = record.supply_chain_events;
  if (events.length === 0) return html``;
  return html`<section class="card"><h2>${t.supplyChain}</h2><ol class="timeline">${events.map(
    (e) => html`<li><p class="stage">${stageName(e.stage, lang)}</p>
<p class="muted">${[e.factory_name, e.place].filter(Boolean).join(" · ")}${e.factory_name || e.place ? html`<br>` : ""}${formatTime(e.time, lang)} · <a href="${e.explorer_url}">${t.transactionLink}</a></p></li>`,
  )}</ol></section>`;
}

function careCard(record: PublicRecord, lang: Lang): SafeHtml {
  if (record.content.care_instructions === undefined) return html``;
  const care = careText(record.content, lang).trim();
  if (!care) return html``;
  return html`<section class="card"><h2>${messagesFor(lang).careInstructions}${inheritedMark(record, ["care_instructions"], lang)}</h2><p>${care}</p></section>`;
}

/** The facilities' confirmations of the textile stages, by stage index: the record's `textile_stages`, outside the anchored content. */
function stageAttestations(record: PublicRecord): StageAttestation[] {
  return record.textile_stages.map((stage) => stage.confirmation);
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
export function tapCard(notice: TapNotice, brandName: string, lang: Lang = DEFAULT_LANG): SafeHtml {
  const t = messagesFor(lang);
  // The tone stays the verdict module's; the words come from the page's catalogue (English matches shopperWords).
  const { tone: verdictTone } = shopperWords(notice.verdict, brandName);
  const words = t.tapWords(notice.verdict, brandName);
  const tone = verdictTone === "neutral" ? "info" : verdictTone;
  const mark = tone === "ok" ? "✓ " : tone === "danger" ? "✗ " : "";
  const role = tone === "danger" || tone === "warning" ? html` role="alert"` : html``;
  const assurance = notice.verdict === "authentic" && notice.chip === "NTAG424" ? html`<p class="detail">${t.secureTag}</p>` : "";
  return html`<section class="alert ${tone} tap" aria-label="${t.tagCheck}"${role}><p>${mark}${words.headline}</p><p class="detail">${words.detail}</p>${assurance}</section>`;
}

/**
 * `purchase`: the brand sells the product here (a price and at least one way to pay); adds the Buy section.
 * `texts`: the product's name and description in the page's language (productTexts), else the anchored ones.
 */
export function scanPage(input: {
  record: PublicRecord;
  brand: PageBrand;
  pageUrl: string;
  pdfUrl: string | null;
  tap?: TapNotice;
  purchase?: PurchaseOffer;
  lang?: Lang;
  texts?: { name: string; description: string };
  machine?: MachineLinks;
  /** The elements the public does not see (passport-page.ts): when any, one line says authorised readers see more. */
  withheld?: readonly string[];
}): RenderedPage {
  const { record, brand } = input;
  const lang = input.lang ?? DEFAULT_LANG;
  const t = messagesFor(lang);
  const product = record.content.product;
  const name = input.texts?.name ?? product.name;
  const description = input.texts ? input.texts.description : product.description;
  const certified = record.blockchain.verified;
  const title = `${name} · ${brand.name}`;
  const pdfUrl = input.pdfUrl && lang !== DEFAULT_LANG ? `${input.pdfUrl}?lang=${lang}` : input.pdfUrl;
  // Version 4 passports: the textile section's cards take the place of the fibre, care and carbon cards they extend.
  const textile = record.content.textile;
  const mark: InheritedMark = (fields) => inheritedMark(record, fields, lang);
  // Absent when the brand gives it to authorised readers only (docs/access.md).
  const carbon = record.content.carbon as PublicRecord["content"]["carbon"] | undefined;
  const body = html`${brandHeader(brand, { lang })}
<main>
${input.tap ? tapCard(input.tap, brand.name, lang) : ""}
${passportWarnings(record, lang)}
<section class="card"><p class="eyebrow category">${categoryName(product.category, lang)}</p><h1>${name}</h1>${verificationBadge(record, lang)}
${description ? html`<p>${description}${inheritedMark(record, ["product.description"], lang)}</p>` : ""}</section>
${textile ? textilePhotos(textile, name, lang) : ""}
${lineageCard(record, lang)}
${input.purchase ? purchaseSection(input.purchase, lang) : ""}
${textile?.carbon ? textileCarbonCard(textile.carbon, lang, mark) : carbon ? carbonCard(carbon.rating, carbon.kg_co2e, lang, inheritedMark(record, ["carbon"], lang)) : ""}
${textile ? madeWhereCard(textile, stageAttestations(record), lang, mark) : ""}
${textile?.materials?.length ? materialsCard(textile, lang, mark) : fibreCard(record, lang)}
${textile ? html`${substancesCard(textile, lang, mark)}${durabilityCard(textile, lang, mark)}` : ""}
${textile?.care?.symbols.length ? careSymbolsCard(textile, careText(record.content, lang).trim(), lang, mark) : careCard(record, lang)}
${textile ? html`${repairCard(textile, lang, mark)}${endOfLifeCard(textile, lang, mark)}${productDetailsCard(textile, lang, mark)}` : ""}
${certificationsCard(record, lang)}
${input.withheld?.includes("manufacturer") ? "" : manufacturerCard(record, lang)}
${timelineCard(record, lang)}
${input.withheld?.length ? html`<p class="muted withheld">${t.withheldForAuthorised}</p>` : ""}
<section class="card"><h2>${t.certificate}</h2>
<a class="button" href="/dpp-certificate/${encodeURIComponent(record.uid)}">${certified ? t.viewCertificate : t.certificateStatus}</a>${
    pdfUrl ? html`<a class="button plain" href="${pdfUrl}">${t.downloadPdf}</a>` : ""
  }
<p class="muted">${t.passportUid(record.uid)}</p></section>
${input.machine ? machineReadableCard(input.machine, lang) : ""}
</main>
${dppFooter(brand, lang)}`;
  const extraCss =
    (input.tap ? TAP_CSS : "") + (input.purchase ? PURCHASE_CSS : "") + (showsLineage(record) || textile ? LINEAGE_CSS : "") + (textile ? TEXTILE_CSS : "");
  const letter = carbon ? ratingOf(carbon.rating, carbon.kg_co2e) : undefined;
  return renderPage({
    title,
    body,
    brand,
    lang,
    ...(extraCss ? { extraCss } : {}),
    // The purchase section's script posts the order and reads its state, on this origin only.
    ...(input.purchase ? { security: { scripts: true } } : {}),
    head: html`${openGraph({
      title,
      description: letter ? t.scanDescription(certified, t.carbonLabels[letter]) : title,
      url: input.pageUrl,
      image: brand.branding.logo_url,
      siteName: brand.name,
    })}
<meta name="robots" content="noindex">${input.machine ? machineReadableHead(input.machine) : ""}${input.purchase ? html`
<script src="${ORDERS_SCRIPT_PATH}" defer></script>` : ""}`,
  });
}
