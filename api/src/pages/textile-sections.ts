// The scan page's cards for a passport's textile section (content version 4, issue 26): made where per stage,
// materials with recycled content, substances of concern, durability, care pictograms, repair, end of life, photos,
// production date and commodity code, and the carbon figure named with its method.
import type { Lang } from "../i18n/languages";
import { messagesFor } from "../i18n/messages";
import { fibreName } from "../i18n/product-words";
import { countryName, recycledPercentOfWeight, stagesInOrder, type StageAttestation, type TextileStageEntry } from "../i18n/textile-words";
import type { TextileData } from "../passports/textile";
import { formatKg } from "./carbon";
import { careSymbolSvg } from "./care-symbols";
import { html, type SafeHtml } from "./html";

/** The discreet "from the model" mark of the scan page, for the content fields a card shows. */
export type InheritedMark = (fields: string[]) => SafeHtml;

/** Only https links reach an href or an img (the schema requires https; this keeps it so). */
const httpsOnly = (url: string | undefined): string | null => (url && /^https:\/\//i.test(url) ? url : null);
/** A block explorer's link is ours (config), and may be http on a local chain. */
const httpsOrLocal = (url: string | undefined): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

/** A date that does not break at its hyphens (non-breaking hyphens), inside a sentence that may wrap. */
const unbroken = (date: string) => date.replace(/-/g, "\u2011");

/** Short codes joined by " · ", each kept on one line. */
const unbrokenList = (items: string[]) => items.map((item, i) => html`${i > 0 ? " · " : ""}<span class="nowrap">${item}</span>`);

/** A country as its code in a chip and its name in the page's language: a code reads on every phone, a flag does not. */
function country(code: string, lang: Lang): SafeHtml {
  return html`<span class="cc" aria-hidden="true">${code}</span> ${countryName(code, lang)}`;
}

export function textilePhotos(textile: TextileData, productName: string, lang: Lang): SafeHtml {
  const t = messagesFor(lang);
  const urls = (textile.images ?? []).map(httpsOnly).filter((url): url is string => url !== null);
  if (urls.length === 0) return html``;
  return html`<section class="photos" aria-label="${t.productPhotos}">${urls.map(
    (url, i) => html`<img src="${url}" alt="${t.productPhotoAlt(productName, i + 1, urls.length)}" loading="lazy" decoding="async" width="320" height="320">`,
  )}</section>`;
}

/**
 * The figure with its method, never a seal (Directive (EU) 2024/825): the brand's PEF study by its reference, or our
 * estimate, always called so. No rating disc here: a coloured letter would read as a label.
 */
export function textileCarbonCard(carbon: NonNullable<TextileData["carbon"]>, lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const method = carbon.method === "pef_study" ? t.carbonFromPefStudy(carbon.study_reference ?? "") : t.carbonOurEstimate;
  return html`<section class="card" aria-label="${t.carbonFootprint}"><h2>${t.carbonFootprint}${mark(["textile.carbon"])}</h2>
<p class="figure">${formatKg(carbon.kg_co2e)}</p>
<p class="method"><span class="muted">${t.carbonMethod}:</span> ${method}</p></section>`;
}

/**
 * One row per stage in processing order: what was done, by which facility, in which country, when, and who says so:
 * the facility itself (its confirmation, with the transaction that recorded it) or only the brand.
 * `attestations`: by the stage's index in the section.
 */
export function madeWhereCard(textile: TextileData, attestations: readonly StageAttestation[], lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const stages = stagesInOrder(textile.stages ?? []);
  if (stages.length === 0) return html``;
  return html`<section class="card made-where"><h2>${t.madeWhere}${mark(["textile.stages"])}</h2><ol class="timeline">${stages.map(({ stage, index }) => {
    const attestation = attestations[index] ?? null;
    // A reader's access class may withhold the facility's name or identifier (docs/access.md): the row keeps the rest.
    const facility: Partial<TextileStageEntry["facility"]> = stage.facility;
    const explorer = httpsOrLocal(attestation?.explorer_url);
    const id = facility.id ? html`<p class="muted">${t.facilityIdSchemes[facility.id.scheme]} <span class="mono">${facility.id.value}</span></p>` : "";
    const dates = t.stageDates(stage.started ?? null, stage.completed ?? null);
    return html`<li><p class="stage">${t.textileStages[stage.stage]}</p>
${facility.name ? html`<p class="facility">${facility.name}</p>` : ""}${id}
${facility.country || dates ? html`<p class="place">${facility.country ? country(facility.country, lang) : ""}${dates ? html` <span class="muted">${facility.country ? "· " : ""}<span class="nowrap">${dates}</span></span>` : ""}</p>` : ""}
<p class="attest">${
      attestation
        ? html`<span class="ok">${t.confirmedByFacility(unbroken(attestation.confirmed_at.slice(0, 10)))}</span>${explorer ? html` · <a href="${explorer}">${t.transactionLink}</a>` : ""}`
        : html`<span class="muted">${t.declaredByBrand}</span>`
    }</p></li>`;
  })}</ol></section>`;
}

export function materialsCard(textile: TextileData, lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const materials = textile.materials ?? [];
  if (materials.length === 0) return html``;
  const recycled = recycledPercentOfWeight(materials);
  return html`<section class="card"><h2>${t.materials}${mark(["textile.materials"])}</h2>${recycled ? html`<p class="recycled-total">♻ ${t.recycledTotal(recycled)}</p>` : ""}<ul class="plain">${materials.map((m) => {
    const details = [
      ...(m.origin_country ? [html`${t.materialOrigin} ${country(m.origin_country, lang)}`] : []),
      ...((m.recycled_percent ?? 0) > 0 ? [html`<strong class="nowrap">${t.recycledShare(m.recycled_percent!, m.recycled_origin ? t.recycledOrigins[m.recycled_origin] : null)}</strong>`] : []),
      ...(m.certification ? [html`${m.certification.code} ${t.certificationNumber(m.certification.number)}`] : []),
    ];
    return html`<li><div class="fibre"><span>${fibreName(m.fibre, lang)}</span><span>${m.mass_percent}%</span></div><progress max="100" value="${m.mass_percent}">${m.mass_percent}%</progress>${
      details.length > 0 ? html`<p class="muted">${details.map((d, i) => html`${i > 0 ? " · " : ""}${d}`)}</p>` : ""
    }</li>`;
  })}</ul></section>`;
}

export function substancesCard(textile: TextileData, lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const substances = textile.substances_of_concern ?? [];
  if (substances.length === 0) return html``;
  return html`<section class="card"><h2>${t.substancesOfConcern}${mark(["textile.substances_of_concern"])}</h2><ul class="plain">${substances.map((s) => {
    const ids = [s.cas ? t.substanceIds(s.cas, null) : "", s.ec ? t.substanceIds(null, s.ec) : ""].filter(Boolean);
    return html`<li class="substance"><p><strong>${s.name}</strong></p>${ids.length > 0 ? html`<p class="muted mono">${unbrokenList(ids)}</p>` : ""}<dl class="stacked">
<dt>${t.concentrationLabel}</dt><dd>${t.concentration(s.concentration_percent)}</dd>
<dt>${t.whereInProduct}</dt><dd>${s.location}</dd>
${s.safe_use ? html`<dt>${t.safeUse}</dt><dd>${s.safe_use}</dd>` : ""}</dl></li>`;
  })}</ul></section>`;
}

export function durabilityCard(textile: TextileData, lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const results = textile.durability ?? [];
  if (results.length === 0) return html``;
  return html`<section class="card"><h2>${t.durability}${mark(["textile.durability"])}</h2><ul class="plain">${results.map(
    (d) => html`<li><div class="result"><strong>${t.durabilityProperties[d.property]}</strong>${d.class ? html`<span class="chip nowrap">${t.durabilityClass(d.class)}</span>` : ""}</div>
<p>${d.result} <span class="muted">· ${t.testedTo(d.standard)}</span></p></li>`,
  )}</ul></section>`;
}

/** The pictograms with their words under each (the accessible label), then the brand's care text or the passport's. */
export function careSymbolsCard(textile: TextileData, fallbackText: string, lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const care = textile.care;
  const text = care?.text ?? fallbackText;
  if (!care || care.symbols.length === 0) return html``;
  return html`<section class="card"><h2>${t.careInstructions}${mark(["textile.care"])}</h2><ul class="care-symbols" aria-label="${t.careSymbolsLabel}">${care.symbols.map(
    (code) => html`<li>${careSymbolSvg(code)}<span>${t.careSymbols[code]}</span></li>`,
  )}</ul>${text ? html`<p>${text}</p>` : ""}</section>`;
}

export function repairCard(textile: TextileData, lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const repair = textile.repair;
  const service = httpsOnly(repair?.service_url);
  if (!repair || (!repair.instructions && !(repair.spare_parts ?? []).length && !service)) return html``;
  return html`<section class="card"><h2>${t.repair}${mark(["textile.repair"])}</h2>${repair.instructions ? html`<p class="about">${repair.instructions}</p>` : ""}${
    (repair.spare_parts ?? []).length > 0 ? html`<p><span class="muted">${t.spareParts}:</span> ${repair.spare_parts!.join(", ")}</p>` : ""
  }${service ? html`<a class="button plain" href="${service}" rel="noopener noreferrer">${t.repairService}</a>` : ""}</section>`;
}

export function endOfLifeCard(textile: TextileData, lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const end = textile.end_of_life;
  const link = httpsOnly(end?.take_back_url);
  if (!end || (!end.recyclability && !end.take_back && !link)) return html``;
  return html`<section class="card"><h2>${t.endOfLife}${mark(["textile.end_of_life"])}</h2><dl class="stacked">
${end.recyclability ? html`<dt>${t.recyclability}</dt><dd>${end.recyclability}</dd>` : ""}
${end.take_back ? html`<dt>${t.takeBack}</dt><dd>${end.take_back}</dd>` : ""}</dl>${
    link ? html`<a class="button plain" href="${link}" rel="noopener noreferrer">${t.takeBackLink}</a>` : ""
  }</section>`;
}

export function productDetailsCard(textile: TextileData, lang: Lang, mark: InheritedMark): SafeHtml {
  const t = messagesFor(lang);
  const code = textile.commodity_code;
  const codes = [code?.hs6 ? t.commodityCodes(code.hs6, null) : "", code?.cn8 ? t.commodityCodes(null, code.cn8) : ""].filter(Boolean);
  if (!textile.production_date && codes.length === 0) return html``;
  return html`<section class="card"><h2>${t.productDetails}${mark(["textile.production_date", "textile.commodity_code"])}</h2><dl class="facts">
${textile.production_date ? html`<dt>${t.productionDate}</dt><dd>${textile.production_date}</dd>` : ""}
${codes.length > 0 ? html`<dt>${t.commodityCode}</dt><dd class="mono">${unbrokenList(codes)}</dd>` : ""}</dl></section>`;
}

/** Fixed CSS of the textile cards (appended to the theme; never input). Photos scroll sideways on a phone. */
export const TEXTILE_CSS = `
.photos{display:flex;gap:8px;overflow-x:auto;margin:0 0 12px;scroll-snap-type:x mandatory}
.photos img{flex:none;width:72%;max-width:320px;height:auto;aspect-ratio:1/1;object-fit:cover;border-radius:12px;background:#e5e7eb;scroll-snap-align:start}
.figure{font-size:24px;font-weight:700;margin:0 0 4px}
.method{margin:0}
.cc{display:inline-block;min-width:28px;text-align:center;font:700 12px/18px ui-monospace,SFMono-Regular,Menlo,monospace;border:1px solid #d0d7de;border-radius:4px;padding:0 3px;color:#424a53;vertical-align:1px}
.made-where p{margin:0 0 2px}
.nowrap{white-space:nowrap}
.result{display:flex;justify-content:space-between;align-items:baseline;gap:8px}
.made-where .facility{font-weight:500}
.attest{font-size:14px}
.recycled-total{font-weight:600;color:#116329}
dl.stacked{margin:0}
dl.stacked dt{font-size:14px;margin:6px 0 0}
dl.stacked dd{margin:0}
dl.stacked + .button{margin-top:12px}
.substance{border-top:1px solid #eaeef2;padding:8px 0}
.substance:first-child{border-top:0;padding-top:0}
ul.care-symbols{list-style:none;padding:0;margin:0 0 8px;display:grid;grid-template-columns:repeat(auto-fill,minmax(92px,1fr));gap:12px 8px}
ul.care-symbols li{display:flex;flex-direction:column;align-items:center;text-align:center;font-size:13px;line-height:1.3;gap:4px}
.care-icon{width:48px;height:48px;color:#1b1f24}`;
