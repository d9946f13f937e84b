// The printable certificate of an issued passport: an A4 PDF with the chain record and a QR link on its first page,
// and a textile passport's facts (issue 26) on the pages after it.
import { createHash } from "node:crypto";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, PageSizes, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage, type RGB } from "pdf-lib";
import QRCode from "qrcode";
import { DEFAULT_LANG, type Lang } from "../i18n/languages";
import { messagesFor, type Messages } from "../i18n/messages";
import { countryName, recycledPercentOfWeight, stagesInOrder, type StageAttestation } from "../i18n/textile-words";
import { fibreName } from "../i18n/product-words";
import type { TextileData } from "../passports/textile";
import { bengaliFace, drawGlyphRun, embedBengali, hasBengali, scriptRuns, type BengaliFace } from "./bengali-shaping";

export type CertificatePdfInput = {
  brand: { name: string; slug: string; primaryColor?: string /* #RRGGBB, optional white-label colour */ };
  product: { name: string; sku: string; category: string };
  uid: string;
  tokenId: string; // decimal, up to 78 digits
  contractAddress: string; // 0x…40 hex
  network: string; // e.g. "hardhat-local", "polygon-amoy"
  chainId: number;
  txHash: string; // 0x…64 hex
  dataHash: string; // 0x…64 hex
  issuedAt: Date;
  certificateUrl: string; // the QR code points here
  explorerUrl: string;
  carbon?: { kg: number; rating: string };
  /**
   * What the passport covers (model, batch or item) and the UIDs of the model and batch passports it was made from;
   * absent for an item without links, whose certificate reads as before.
   */
  lineage?: { granularity: "model" | "batch" | "item"; model?: string; batch?: string; lot?: string | null };
  /** The language of the fixed words; English when absent. The product name is the caller's (a translation or not). */
  lang?: Lang;
  /** The passport's textile section (content version 4), printed on the pages after the first; absent otherwise. */
  textile?: TextileData;
  /** The facilities' confirmations of the textile stages, by stage index (absent or null: declared by the brand). */
  stageAttestations?: StageAttestation[];
};

const PRODUCER = "Passport Registry";
const DEFAULT_BRAND_COLOR = "#1F3A5F";

/** Every position and size on the page, in PDF points (1/72 inch); y grows upwards from the bottom edge. */
const LAYOUT = {
  page: { width: PageSizes.A4[0], height: PageSizes.A4[1] },
  margin: 48,
  lineHeight: 1.3, // × font size
  capHeight: 0.72, // × font size, Helvetica's
  band: { height: 68, nameSize: 16 },
  title: { size: 17, maxLines: 2, gapBefore: 26 },
  productName: { size: 14, maxLines: 2, gapBefore: 6 },
  accentRule: { thickness: 2, gapBefore: 10 },
  section: { headingSize: 10, gapBefore: 18, gapAfter: 8 },
  row: { labelWidth: 100, labelSize: 7.5, gap: 6 },
  /** The textile pages: a thin band, a wider label column (stage and property names are long), room for the footer. */
  textile: { bandHeight: 62, nameSize: 13, labelWidth: 150, labelMaxLines: 2, valueMaxLines: 6, bottom: 96 },
  value: { size: 10, maxLines: 2 },
  mono: { size: 9, maxLines: 4 },
  url: { size: 9, maxLines: 3 },
  qr: { size: 132, gutter: 24, captionSize: 8, urlSize: 7.5, urlMaxLines: 4, gap: 6 },
  paragraph: { size: 9, maxLines: 12 },
  footer: { size: 7.5, maxLines: 2, ruleGap: 6, ruleThickness: 0.5 },
  color: {
    text: rgb(0.07, 0.09, 0.15),
    muted: rgb(0.36, 0.39, 0.45),
    rule: rgb(0.82, 0.84, 0.86),
  },
} as const;

const CONTENT_WIDTH = LAYOUT.page.width - 2 * LAYOUT.margin;
const ELLIPSIS = "…";

/** Changes whenever the same input would render differently (layout, wording, fonts): bump it with such a change. */
const RENDERING_VERSION = 1;

/**
 * A hash of everything the certificate shows, so a caller can name the PDF (an ETag, a cache key) without rendering
 * it: equal digests, equal bytes.
 */
export function certificateDigest(input: CertificatePdfInput): string {
  // Fields in a fixed order, so the digest does not depend on how the caller built the object.
  const shown = [
    RENDERING_VERSION,
    input.brand.name, input.brand.slug, input.brand.primaryColor ?? null,
    input.product.name, input.product.sku, input.product.category,
    input.uid, input.tokenId, input.contractAddress, input.network, input.chainId, input.txHash, input.dataHash,
    input.issuedAt.getTime(), input.certificateUrl, input.explorerUrl,
    input.carbon ? [input.carbon.kg, input.carbon.rating] : null,
    input.lang ?? DEFAULT_LANG,
    // Appended only when shown, so the certificates without it keep their digests.
    ...(input.lineage ? [[input.lineage.granularity, input.lineage.model ?? null, input.lineage.batch ?? null, input.lineage.lot ?? null]] : []),
    ...(input.textile ? [["textile", input.textile, (input.stageAttestations ?? []).map((a) => a?.confirmed_at ?? null)]] : []),
  ];
  return createHash("sha256").update(JSON.stringify(shown)).digest("base64url");
}

/** Renders the certificate; the same input always gives the same bytes (the caller derives an ETag from the input). */
export async function renderCertificatePdf(input: CertificatePdfInput): Promise<Uint8Array> {
  if (Number.isNaN(input.issuedAt.getTime())) throw new RangeError("issuedAt is not a valid date");

  const lang = input.lang ?? DEFAULT_LANG;
  const t = messagesFor(lang);
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const fonts: Fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
    mono: await pdf.embedFont(StandardFonts.Courier),
  };
  setMetadata(pdf, input, t);

  const page = pdf.addPage([LAYOUT.page.width, LAYOUT.page.height]);
  const brandColor = parseHexColor(input.brand.primaryColor) ?? parseHexColor(DEFAULT_BRAND_COLOR)!;
  const painter = new Painter(page, fonts, await bengaliFonts(pdf, input, lang));

  let top = drawHeader(painter, input, brandColor, t);
  top = drawProductSection(painter, input, top, await qrCodeImage(pdf, input.certificateUrl), t);
  top = drawChainSection(painter, input, top, t);
  drawVerification(painter, input, top, t);
  drawFooter(painter, input, t);
  if (input.textile) drawTextilePages(pdf, painter, input, input.textile, brandColor, lang);

  return pdf.save();
}

type Fonts = { regular: PDFFont; bold: PDFFont; mono: PDFFont };
type FontName = keyof Fonts;

/** The Bengali faces of a certificate, embedded in its document: regular (also for mono) and bold. */
type BengaliFonts = { pdf: PDFDocument; faces: Record<FontName, { font: PDFFont; face: BengaliFace }> };

/**
 * Noto Sans Bengali, embedded when the certificate is in Bengali or shows a Bengali name (a brand's or product's own
 * name in Bengali on an English certificate). Latin text keeps the standard fonts.
 */
async function bengaliFonts(pdf: PDFDocument, input: CertificatePdfInput, lang: Lang): Promise<BengaliFonts | undefined> {
  const shown = `${input.brand.name} ${input.product.name} ${input.product.category} ${input.textile ? JSON.stringify(input.textile) : ""}`;
  if (lang !== "bn" && !hasBengali(shown)) return undefined;
  pdf.registerFontkit(fontkit);
  const [regularFace, boldFace] = await Promise.all([bengaliFace(400), bengaliFace(700)]);
  const regular = { font: await embedBengali(pdf, regularFace, "NotoSansBengali-Regular"), face: regularFace };
  const bold = { font: await embedBengali(pdf, boldFace, "NotoSansBengali-Bold"), face: boldFace };
  return { pdf, faces: { regular, bold, mono: regular } };
}

function setMetadata(pdf: PDFDocument, input: CertificatePdfInput, t: Messages): void {
  if (input.lang && input.lang !== DEFAULT_LANG) pdf.setLanguage(input.lang);
  // Metadata strings are written as UTF-16, so they keep the original names; only the drawn text is sanitised.
  const title = input.lang && input.lang !== DEFAULT_LANG ? t.certificateOfAuthenticity : "Certificate of Authenticity";
  pdf.setTitle(`${title} ${input.uid} — ${input.product.name}`, { showInWindowTitleBar: true });
  pdf.setSubject(`Digital Product Passport of ${input.product.name} (SKU ${input.product.sku}), anchored on ${input.network}`);
  pdf.setAuthor(input.brand.name);
  pdf.setCreator(PRODUCER);
  pdf.setProducer(PRODUCER);
  pdf.setKeywords(["digital product passport", input.uid, input.tokenId, input.txHash, input.dataHash, input.brand.slug]);
  pdf.setCreationDate(input.issuedAt);
  // Not "now": a re-render must give identical bytes.
  pdf.setModificationDate(input.issuedAt);
}

function drawHeader(painter: Painter, input: CertificatePdfInput, brandColor: RGB, t: Messages): number {
  const { page, margin, band, title, productName, accentRule } = LAYOUT;
  const bandBottom = page.height - band.height;
  painter.page.drawRectangle({ x: 0, y: bandBottom, width: page.width, height: band.height, color: brandColor });
  // Centre the cap height of the brand name in the band.
  const baseline = bandBottom + (band.height - band.nameSize * LAYOUT.capHeight) / 2;
  painter.paragraph(input.brand.name, {
    x: margin, top: baseline + band.nameSize, width: CONTENT_WIDTH, font: "bold", size: band.nameSize,
    maxLines: 1, color: contrastingText(brandColor),
  });

  let top = bandBottom - title.gapBefore;
  top = painter.paragraph(t.pdfTitle, { x: margin, top, width: CONTENT_WIDTH, font: "bold", size: title.size, maxLines: title.maxLines });
  top -= productName.gapBefore;
  top = painter.paragraph(input.product.name, {
    x: margin, top, width: CONTENT_WIDTH, font: "regular", size: productName.size, maxLines: productName.maxLines,
  });
  top -= accentRule.gapBefore;
  painter.page.drawRectangle({ x: margin, y: top - accentRule.thickness, width: CONTENT_WIDTH, height: accentRule.thickness, color: brandColor });
  return top - accentRule.thickness;
}

function drawProductSection(painter: Painter, input: CertificatePdfInput, sectionTop: number, qr: PDFImage, t: Messages): number {
  const { margin, qr: qrBox } = LAYOUT;
  const qrX = LAYOUT.page.width - margin - qrBox.size;
  const rowsWidth = qrX - qrBox.gutter - margin;

  let top = painter.sectionHeading(t.pdfProduct, sectionTop, rowsWidth);
  const rows: Row[] = [
    { label: t.brand, value: input.brand.name },
    { label: t.sku, value: input.product.sku },
    { label: t.category, value: input.product.category },
    { label: t.pdfUid, value: input.uid, mono: true },
    { label: t.pdfIssuedUtc, value: formatIssuedAt(input.issuedAt) },
  ];
  // A textile passport's own figure is printed with its method on its textile page, and not beside a second one here.
  if (input.carbon && !input.textile?.carbon) rows.push({ label: t.carbonFootprint, value: formatCarbon(input.carbon, t) });
  if (input.lineage) rows.push({ label: t.pdfCovers, value: t.pdfLineage(input.lineage.granularity, input.lineage) });
  if (input.textile) rows.push({ label: t.pdfTextile, value: t.pdfTextileFollows });
  for (const row of rows) top = painter.row(row, top, rowsWidth);

  // The QR column starts level with the section heading.
  let qrTop = sectionTop - LAYOUT.section.gapBefore;
  painter.page.drawImage(qr, { x: qrX, y: qrTop - qrBox.size, width: qrBox.size, height: qrBox.size });
  qrTop -= qrBox.size + qrBox.gap;
  qrTop = painter.paragraph(t.pdfScanToOpen, {
    x: qrX, top: qrTop, width: qrBox.size, font: "bold", size: qrBox.captionSize, maxLines: 1,
  });
  qrTop = painter.paragraph(input.certificateUrl, {
    x: qrX, top: qrTop, width: qrBox.size, font: "regular", size: qrBox.urlSize, maxLines: qrBox.urlMaxLines, color: LAYOUT.color.muted,
  });
  return Math.min(top, qrTop);
}

function drawChainSection(painter: Painter, input: CertificatePdfInput, sectionTop: number, t: Messages): number {
  let top = painter.sectionHeading(t.pdfBlockchainRecord, sectionTop, CONTENT_WIDTH);
  const rows: Row[] = [
    { label: t.network, value: t.networkWithChainId(input.network, input.chainId) },
    { label: t.contract, value: input.contractAddress, mono: true },
    { label: t.pdfTokenId, value: input.tokenId, mono: true },
    { label: t.transaction, value: input.txHash, mono: true },
    { label: t.pdfDataHash, value: input.dataHash, mono: true },
    { label: t.pdfExplorer, value: input.explorerUrl, url: true },
  ];
  for (const row of rows) top = painter.row(row, top, CONTENT_WIDTH);
  return top;
}

function drawVerification(painter: Painter, input: CertificatePdfInput, sectionTop: number, t: Messages): number {
  const top = painter.sectionHeading(t.pdfHowToVerify, sectionTop, CONTENT_WIDTH);
  const text = t.pdfVerifyText(dppPath(input, t), input.contractAddress, input.network, input.chainId);
  return painter.paragraph(text, {
    x: LAYOUT.margin, top, width: CONTENT_WIDTH, font: "regular", size: LAYOUT.paragraph.size, maxLines: LAYOUT.paragraph.maxLines,
  });
}

function drawFooter(painter: Painter, input: CertificatePdfInput, t: Messages): void {
  const { margin, footer } = LAYOUT;
  const text = t.pdfFooter(PRODUCER, input.brand.name, formatIssuedAt(input.issuedAt));
  const lines = painter.wrap(text, "regular", footer.size, CONTENT_WIDTH, footer.maxLines);
  const lineHeight = footer.size * LAYOUT.lineHeight;
  const top = margin + lines.length * lineHeight;
  painter.page.drawLine({
    start: { x: margin, y: top + footer.ruleGap },
    end: { x: margin + CONTENT_WIDTH, y: top + footer.ruleGap },
    thickness: footer.ruleThickness,
    color: LAYOUT.color.rule,
  });
  painter.lines(lines, { x: margin, top, font: "regular", size: footer.size, color: LAYOUT.color.muted });
}

/** One titled list of the textile pages: rows of a label and its value. */
type TextileSection = { heading: string; rows: Row[] };

/**
 * The textile section in words, list by list: made where (stage by stage, in processing order), materials with
 * their recycled content, substances of concern, durability, care as words with their ISO 3758 codes, repair, end of
 * life, product details and the carbon figure with its method (never a seal: Directive (EU) 2024/825).
 */
export function textileSections(textile: TextileData, attestations: readonly StageAttestation[], lang: Lang): TextileSection[] {
  const t = messagesFor(lang);
  const place = (code: string) => `${countryName(code, lang)} (${code})`;
  const join = (parts: Array<string | null | undefined | false>) => parts.filter(Boolean).join(" · ");
  const sections: TextileSection[] = [];
  const stages = stagesInOrder(textile.stages ?? []);
  if (stages.length > 0) {
    sections.push({
      heading: t.madeWhere,
      rows: stages.map(({ stage, index }) => {
        const attestation = attestations[index] ?? null;
        // A reader's access class may withhold the facility's name or identifier (docs/access.md).
        const facility: Partial<typeof stage.facility> = stage.facility;
        return {
          label: t.textileStages[stage.stage],
          value: join([
            facility.name,
            facility.country && place(facility.country),
            facility.id && `${t.facilityIdSchemes[facility.id.scheme]} ${facility.id.value}`,
            t.stageDates(stage.started ?? null, stage.completed ?? null),
            // The PDF's fonts draw no check mark; the words say it.
            attestation ? t.confirmedByFacility(attestation.confirmed_at.slice(0, 10)).replace(/^✓ /, "") : t.declaredByBrand,
          ]),
        };
      }),
    });
  }
  const materials = textile.materials ?? [];
  if (materials.length > 0) {
    const recycled = recycledPercentOfWeight(materials);
    sections.push({
      heading: t.materials,
      rows: [
        ...materials.map((m) => ({
          label: fibreName(m.fibre, lang),
          value: join([
            `${m.mass_percent}%`,
            m.origin_country && `${t.materialOrigin} ${place(m.origin_country)}`,
            (m.recycled_percent ?? 0) > 0 && t.recycledShare(m.recycled_percent!, m.recycled_origin ? t.recycledOrigins[m.recycled_origin] : null),
            m.certification && `${m.certification.code} ${t.certificationNumber(m.certification.number)}`,
          ]),
        })),
        ...(recycled ? [{ label: "", value: t.recycledTotal(recycled) }] : []),
      ],
    });
  }
  const substances = textile.substances_of_concern ?? [];
  if (substances.length > 0) {
    sections.push({
      heading: t.substancesOfConcern,
      rows: substances.map((s) => ({
        label: s.name,
        value: join([
          t.substanceIds(s.cas ?? null, s.ec ?? null),
          t.concentration(s.concentration_percent),
          `${t.whereInProduct}: ${s.location}`,
          s.safe_use && `${t.safeUse}: ${s.safe_use}`,
        ]),
      })),
    });
  }
  const durability = textile.durability ?? [];
  if (durability.length > 0) {
    sections.push({
      heading: t.durability,
      rows: durability.map((d) => ({
        label: t.durabilityProperties[d.property],
        value: join([d.result, t.testedTo(d.standard), d.class && t.durabilityClass(d.class)]),
      })),
    });
  }
  const care = textile.care;
  if (care && (care.symbols.length > 0 || care.text)) {
    sections.push({
      heading: t.careInstructions,
      rows: [
        ...care.symbols.map((code) => ({ label: "", value: `${t.careSymbols[code]} [ISO 3758: ${code}]` })),
        ...(care.text ? [{ label: "", value: care.text }] : []),
      ],
    });
  }
  const repair = textile.repair;
  if (repair && (repair.instructions || repair.spare_parts?.length || repair.service_url)) {
    sections.push({
      heading: t.repair,
      rows: [
        ...(repair.instructions ? [{ label: "", value: repair.instructions }] : []),
        ...(repair.spare_parts?.length ? [{ label: t.spareParts, value: repair.spare_parts.join(", ") }] : []),
        ...(repair.service_url ? [{ label: t.repairService, value: repair.service_url, url: true }] : []),
      ],
    });
  }
  const end = textile.end_of_life;
  if (end && (end.recyclability || end.take_back || end.take_back_url)) {
    sections.push({
      heading: t.endOfLife,
      rows: [
        ...(end.recyclability ? [{ label: t.recyclability, value: end.recyclability }] : []),
        ...(end.take_back ? [{ label: t.takeBack, value: end.take_back }] : []),
        ...(end.take_back_url ? [{ label: t.takeBackLink, value: end.take_back_url, url: true }] : []),
      ],
    });
  }
  const code = textile.commodity_code;
  const codes = code ? t.commodityCodes(code.hs6 ?? null, code.cn8 ?? null) : "";
  if (textile.production_date || codes) {
    sections.push({
      heading: t.productDetails,
      rows: [
        ...(textile.production_date ? [{ label: t.productionDate, value: textile.production_date }] : []),
        ...(codes ? [{ label: t.commodityCode, value: codes }] : []),
      ],
    });
  }
  if (textile.carbon) {
    const { carbon } = textile;
    sections.push({
      heading: t.carbonFootprint,
      rows: [
        { label: "", value: `${carbon.kg_co2e.toFixed(2)} kg CO2e` },
        { label: t.carbonMethod, value: carbon.method === "pef_study" ? t.carbonFromPefStudy(carbon.study_reference ?? "") : t.carbonOurEstimate },
      ],
    });
  }
  return sections;
}

/**
 * The textile pages: a thin band with the brand, the title, product and UID, then the lists; a list that does not
 * fit goes on to a new page, row by row. Every page keeps the certificate's footer.
 */
function drawTextilePages(pdf: PDFDocument, first: Painter, input: CertificatePdfInput, textile: TextileData, brandColor: RGB, lang: Lang): void {
  const t = messagesFor(lang);
  const { page, margin, textile: layout } = LAYOUT;
  const options = { labelWidth: layout.labelWidth, labelMaxLines: layout.labelMaxLines, maxLines: layout.valueMaxLines };
  let painter = first;
  let top = 0;
  const newPage = (continued: boolean) => {
    painter = first.onPage(pdf.addPage([page.width, page.height]));
    painter.page.drawRectangle({ x: 0, y: page.height - layout.bandHeight, width: page.width, height: layout.bandHeight, color: brandColor });
    // The brand name's cap height centred in the band, as on the first page.
    const baseline = page.height - layout.bandHeight + (layout.bandHeight - layout.nameSize * LAYOUT.capHeight) / 2;
    painter.paragraph(input.brand.name, {
      x: margin, top: baseline + layout.nameSize, width: CONTENT_WIDTH, font: "bold", size: layout.nameSize, maxLines: 1, color: contrastingText(brandColor),
    });
    top = page.height - layout.bandHeight - 20;
    top = painter.paragraph(continued ? t.pdfTextileContinued(input.uid) : t.pdfTextile, {
      x: margin, top, width: CONTENT_WIDTH, font: "bold", size: continued ? 11 : LAYOUT.title.size, maxLines: 1,
    });
    if (!continued) {
      top = painter.paragraph(`${input.product.name} · ${input.uid}`, {
        x: margin, top: top - 4, width: CONTENT_WIDTH, font: "regular", size: 10, maxLines: 2, color: LAYOUT.color.muted,
      });
    }
    top -= LAYOUT.accentRule.gapBefore;
    painter.page.drawRectangle({ x: margin, y: top - LAYOUT.accentRule.thickness, width: CONTENT_WIDTH, height: LAYOUT.accentRule.thickness, color: brandColor });
    // A list continued from the page before starts below the rule, as a heading would.
    top -= LAYOUT.accentRule.thickness + (continued ? LAYOUT.section.gapAfter : 0);
    drawFooter(painter, input, t);
  };
  newPage(false);
  const headingHeight = LAYOUT.section.gapBefore + LAYOUT.section.headingSize * LAYOUT.lineHeight + LAYOUT.section.gapAfter;
  for (const section of textileSections(textile, input.stageAttestations ?? [], lang)) {
    // A heading never ends a page: it moves on with its first row.
    if (top - headingHeight - painter.rowHeight(section.rows[0]!, CONTENT_WIDTH, options) < layout.bottom) newPage(true);
    top = painter.sectionHeading(section.heading, top, CONTENT_WIDTH);
    for (const row of section.rows) {
      if (top - painter.rowHeight(row, CONTENT_WIDTH, options) < layout.bottom) newPage(true);
      top = painter.row(row, top, CONTENT_WIDTH, options);
    }
  }
}

type Row = { label: string; value: string; mono?: boolean; url?: boolean };
/** A row's column and line limits where they differ from the first page's (the textile pages). */
type RowOptions = { labelWidth?: number; labelMaxLines?: number; maxLines?: number };
type TextOptions = { x: number; top: number; font: FontName; size: number; color?: RGB };

/** Draws text top-down: each call takes the top of its box and returns the top of the space left below it. */
class Painter {
  private readonly charsets = new Map<FontName, Set<number>>();
  private readonly charWidths = new Map<string, number>();

  constructor(
    readonly page: PDFPage,
    private readonly fonts: Fonts,
    private readonly bengali?: BengaliFonts,
  ) {}

  sectionHeading(text: string, sectionTop: number, width: number): number {
    const { section } = LAYOUT;
    const top = this.paragraph(text.toUpperCase(), {
      x: LAYOUT.margin, top: sectionTop - section.gapBefore, width, font: "bold", size: section.headingSize, maxLines: 1,
    });
    return top - section.gapAfter;
  }

  /** The same text, fonts and Bengali faces on another page of the document. */
  onPage(page: PDFPage): Painter {
    return new Painter(page, this.fonts, this.bengali);
  }

  /** A label in the left column and its value, wrapped, to its right. */
  row(row: Row, top: number, width: number, options: RowOptions = {}): number {
    const { row: layout } = LAYOUT;
    const { style, labelWidth, labelLines, valueLines } = this.rowLines(row, width, options);
    // Labels share the value's first baseline, so a smaller label sits level with it.
    const labelTop = top - (style.size - layout.labelSize);
    const labelBottom = this.lines(labelLines, { x: LAYOUT.margin, top: labelTop, font: "bold", size: layout.labelSize, color: LAYOUT.color.muted });
    const valueBottom = this.lines(valueLines, { x: LAYOUT.margin + labelWidth, top, ...style });
    return Math.min(valueBottom, labelBottom) - layout.gap;
  }

  /** The height `row` takes, without drawing it. */
  rowHeight(row: Row, width: number, options: RowOptions = {}): number {
    const { style, labelLines, valueLines } = this.rowLines(row, width, options);
    const label = labelLines.length * LAYOUT.row.labelSize * LAYOUT.lineHeight + (style.size - LAYOUT.row.labelSize);
    return Math.max(valueLines.length * style.size * LAYOUT.lineHeight, label) + LAYOUT.row.gap;
  }

  private rowLines(row: Row, width: number, options: RowOptions) {
    const { row: layout, value, mono, url } = LAYOUT;
    const style = row.mono
      ? { font: "mono" as const, size: mono.size, maxLines: mono.maxLines }
      : row.url
        ? { font: "regular" as const, size: url.size, maxLines: url.maxLines }
        : { font: "regular" as const, size: value.size, maxLines: options.maxLines ?? value.maxLines };
    const labelWidth = options.labelWidth ?? layout.labelWidth;
    const labelLines = row.label ? this.wrap(row.label.toUpperCase(), "bold", layout.labelSize, labelWidth - layout.gap, options.labelMaxLines ?? 1) : [];
    let valueLines = this.wrap(row.value, style.font, style.size, width - labelWidth, style.maxLines);
    // A line break consumes the space it replaces, so only values without spaces can be re-cut.
    if (row.mono && !/\s/.test(row.value)) valueLines = evenly(valueLines);
    return { style, labelWidth, labelLines, valueLines };
  }

  paragraph(text: string, options: TextOptions & { width: number; maxLines: number }): number {
    return this.lines(this.wrap(text, options.font, options.size, options.width, options.maxLines), options);
  }

  lines(lines: string[], { x, top, font, size, color = LAYOUT.color.text }: TextOptions): number {
    const lineHeight = size * LAYOUT.lineHeight;
    lines.forEach((line, i) => {
      // The baseline sits one font size below the top of the line box, leaving room for the descender below.
      const y = top - size - i * lineHeight;
      if (!this.bengali || !hasBengali(line)) {
        this.page.drawText(line, { x, y, font: this.fonts[font], size, color });
        return;
      }
      // Mixed text: Bengali runs shaped by HarfBuzz in the Bengali face, the rest in the standard font, side by side.
      let runX = x;
      for (const run of scriptRuns(line)) {
        if (run.bengali) {
          const { font: pdfFont, face } = this.bengali.faces[font];
          runX += drawGlyphRun(this.page, pdfFont, face, run.text, { x: runX, y, size, color });
        } else {
          this.page.drawText(run.text, { x: runX, y, font: this.fonts[font], size, color });
          runX += this.latinWidth(run.text, font, size);
        }
      }
    });
    return top - lines.length * lineHeight;
  }

  /**
   * Splits sanitised text into lines no wider than `width`: at spaces where it can, inside a word (a hash, a URL)
   * where it must. Past `maxLines` the last line ends in an ellipsis.
   */
  wrap(text: string, fontName: FontName, size: number, width: number, maxLines: number): string[] {
    const fits = (s: string) => this.width(s, fontName, size) <= width;
    let rest = this.sanitise(text, fontName);
    const lines: string[] = [];
    while (rest.length > 0) {
      const last = lines.length === maxLines - 1;
      if (fits(rest)) {
        lines.push(rest);
        break;
      }
      const suffix = last ? ELLIPSIS : "";
      let end = longestFittingPrefix(rest, (n) => fits(rest.slice(0, n).trimEnd() + suffix));
      if (rest[end] !== " ") end = breakBefore(rest, end);
      lines.push(rest.slice(0, end).trimEnd() + suffix);
      if (last) break;
      rest = rest.slice(end).trimStart();
    }
    return lines;
  }

  /**
   * Standard fonts only encode WinAnsi, and pdf-lib throws on anything else. Characters outside it become their
   * unaccented form where one exists ("ő" → "o"), a close ASCII stand-in, or "?"; whitespace runs become one space.
   */
  sanitise(text: string, fontName: FontName): string {
    const charset = this.charset(fontName);
    let out = "";
    for (const ch of text.normalize("NFC")) {
      if (/[\s\p{Cc}]/u.test(ch)) out += " ";
      else if (/\p{Cf}/u.test(ch) && !(this.bengali && /[\u200C\u200D]/u.test(ch))) continue; // soft hyphens, zero-width joiners (kept in Bengali: they choose a conjunct's form)
      else if (charset.has(ch.codePointAt(0)!)) out += ch;
      else if (this.bengali && /[\u0980-\u09FF\u0964\u0965\u200C\u200D]/u.test(ch)) out += ch; // drawn in the Bengali face
      else if (/\p{M}/u.test(ch)) continue; // stray combining marks, emoji variation selectors
      else if (STAND_INS[ch] !== undefined) out += STAND_INS[ch];
      else {
        const plain = ch.normalize("NFKD").replace(/\p{M}/gu, "");
        out += plain.length > 0 && [...plain].every((c) => charset.has(c.codePointAt(0)!)) ? plain : "?";
      }
    }
    return out.replace(/ {2,}/g, " ").trim();
  }

  /**
   * The width a viewer draws. pdf-lib's widthOfTextAtSize subtracts kerning, but a plain Tj string is drawn
   * unkerned, so a line measured that way can come out wider than its box.
   */
  width(text: string, fontName: FontName, size: number): number {
    if (!this.bengali || !hasBengali(text)) return this.latinWidth(text, fontName, size);
    return scriptRuns(text).reduce(
      (sum, run) => sum + (run.bengali ? this.bengali!.faces[fontName].face.width(run.text, size) : this.latinWidth(run.text, fontName, size)),
      0,
    );
  }

  private latinWidth(text: string, fontName: FontName, size: number): number {
    let total = 0;
    for (const ch of text) {
      const key = `${fontName}:${ch}`;
      let unit = this.charWidths.get(key);
      if (unit === undefined) {
        unit = this.fonts[fontName].widthOfTextAtSize(ch, 1);
        this.charWidths.set(key, unit);
      }
      total += unit;
    }
    return total * size;
  }

  private charset(fontName: FontName): Set<number> {
    let charset = this.charsets.get(fontName);
    if (!charset) {
      charset = new Set(this.fonts[fontName].getCharacterSet());
      this.charsets.set(fontName, charset);
    }
    return charset;
  }
}

/** ASCII stand-ins for common typographic characters that WinAnsi lacks. */
const STAND_INS: Readonly<Record<string, string>> = {
  "≈": "~", "≠": "!=", "≤": "<=", "≥": ">=", "−": "-", "‐": "-", "‑": "-", "‒": "-", "′": "'", "″": '"', "→": "->", "←": "<-",
  // Letters with a stroke have no decomposition to strip.
  "Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i",
};

/** Where to end a line that must stop by `end`: after a space, else after URL or SKU punctuation, else at `end`. */
function breakBefore(text: string, end: number): number {
  const space = text.lastIndexOf(" ", end);
  if (space > 0) return space;
  // Punctuation only counts in the second half of the line, or a long URL would leave most of it empty.
  for (let i = end - 1; i >= Math.ceil(end / 2); i--) if (SOFT_BREAKS.has(text[i]!)) return i + 1;
  return end;
}

const SOFT_BREAKS = new Set(["/", "?", "&", "=", "-", "_", ".", ","]);

/**
 * A monospaced value cut into lines of equal length (a token id over two halves rather than a line and a stub).
 * n lines of at most w characters hold the value, so lines of ceil(length / n) characters fit too, every character
 * being equally wide. A value cut short with an ellipsis keeps its lines.
 */
function evenly(lines: string[]): string[] {
  const joined = lines.join("");
  if (lines.length < 2 || joined.endsWith(ELLIPSIS)) return lines;
  const perLine = Math.ceil(joined.length / lines.length);
  return lines.map((_, i) => joined.slice(i * perLine, (i + 1) * perLine)).filter((line) => line.length > 0);
}

/** The largest n (at least 1, so wrapping always advances) for which `fits(n)` holds; `fits` is monotone. */
function longestFittingPrefix(text: string, fits: (n: number) => boolean): number {
  let low = 1;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

async function qrCodeImage(pdf: PDFDocument, url: string): Promise<PDFImage> {
  const png = await QRCode.toBuffer(url, { errorCorrectionLevel: "M", margin: 1, width: 300 });
  return pdf.embedPng(png);
}

/** The public record's address: the certificate URL's own path when it has the usual shape, else the route. */
function dppPath(input: CertificatePdfInput, t: Messages): string {
  const certificateSuffix = `/dpp-certificate/${input.uid}`;
  if (input.certificateUrl.endsWith(certificateSuffix)) {
    return `${input.certificateUrl.slice(0, -certificateSuffix.length)}/api/dpp/${input.uid}`;
  }
  return t.pdfRecordOnIssuer(`/api/dpp/${input.uid}`);
}

function formatIssuedAt(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function formatCarbon(carbon: { kg: number; rating: string }, t: Messages): string {
  const kg = Number.isFinite(carbon.kg) ? `${carbon.kg.toFixed(2)} kg CO2e` : t.pdfNotKnown;
  return t.pdfCarbon(kg, carbon.rating);
}

function parseHexColor(value: string | undefined): RGB | undefined {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value ?? "");
  if (!match) return undefined;
  const [r, g, b] = match.slice(1).map((hex) => parseInt(hex, 16) / 255) as [number, number, number];
  return rgb(r, g, b);
}

/** Black or white, whichever reads better on `background` (WCAG relative luminance). */
function contrastingText(background: RGB): RGB {
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * linear(background.red) + 0.7152 * linear(background.green) + 0.0722 * linear(background.blue);
  return luminance > 0.179 ? rgb(0, 0, 0) : rgb(1, 1, 1);
}
