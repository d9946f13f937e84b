// Bengali text for the certificate PDF. pdf-lib lays text out glyph by glyph from the cmap, which cannot form
// conjuncts (ক্ষ), reorder pre-base vowel signs (কি, কে) or place marks (কু, র্ক); HarfBuzz, shaping with the same
// font file the PDF embeds, gives the glyph ids and their positions, and drawGlyphRun writes exactly those glyphs.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { inflateSync } from "node:zlib";
import {
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  setFillingRgbColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  type PDFDocument,
  type PDFFont,
  type PDFPage,
  type RGB,
} from "pdf-lib";
import { FONT_PACKAGE_DIR } from "../pages/fonts";

type HarfBuzz = typeof import("harfbuzzjs");
type HbFont = InstanceType<HarfBuzz["Font"]>;

/** One shaped glyph, in font units: HarfBuzz's glyph id, advance and offsets. */
export type ShapedGlyph = { id: number; advance: number; dx: number; dy: number };

/** Bengali letters and signs, the danda, ZWNJ/ZWJ and the dotted circle: what goes to the Bengali font. */
// eslint-disable-next-line no-misleading-character-class -- ZWNJ and ZWJ belong to the run as characters of their own
export const BENGALI_RUN = /[\u0980-\u09FF\u0964\u0965\u200C\u200D\u25CC]+/gu;

export function hasBengali(text: string): boolean {
  return /[\u0980-\u09FF]/u.test(text);
}

/** Text cut into runs for the Bengali font and runs for the Latin fonts, in order. */
export function scriptRuns(text: string): Array<{ text: string; bengali: boolean }> {
  const runs: Array<{ text: string; bengali: boolean }> = [];
  let last = 0;
  for (const match of text.matchAll(BENGALI_RUN)) {
    if (match.index > last) runs.push({ text: text.slice(last, match.index), bengali: false });
    runs.push({ text: match[0], bengali: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) runs.push({ text: text.slice(last), bengali: false });
  return runs;
}

/**
 * WOFF 1.0 (what @fontsource ships besides WOFF2) back to the OpenType file it wraps: each table zlib-inflated when
 * it was compressed, then laid out with a fresh table directory. HarfBuzz and fontkit both read the result.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString("latin1", 0, 4) !== "wOFF") throw new Error("not a WOFF file");
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const entry = 44 + i * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compLength = woff.readUInt32BE(entry + 8);
    const origLength = woff.readUInt32BE(entry + 12);
    const raw = woff.subarray(offset, offset + compLength);
    return { tag: woff.readUInt32BE(entry), checksum: woff.readUInt32BE(entry + 16), data: compLength < origLength ? inflateSync(raw) : raw };
  });
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + 16 * numTables);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const entry = 12 + 16 * i;
    header.writeUInt32BE(table.tag, entry);
    header.writeUInt32BE(table.checksum, entry + 4);
    header.writeUInt32BE(offset, entry + 8);
    header.writeUInt32BE(table.data.length, entry + 12);
    const padded = Buffer.alloc((table.data.length + 3) & ~3);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

/**
 * Shaped runs kept per face, least recently used out first. Runs come from brand-written text (names, descriptions),
 * so the cache is bounded: 2,000 runs of at most 200 characters is a few megabytes at worst, and holds every label
 * and name a busy day of certificates repeats. A longer run is shaped each time and not kept.
 */
export const SHAPING_CACHE = Object.freeze({ runs: 2_000, maxRunLength: 200 });

/** A Bengali face: its OpenType bytes (to embed) and a HarfBuzz font over the same bytes (to shape). */
export class BengaliFace {
  /** text → its glyphs, least recently used first (a Map keeps insertion order; a hit is moved to the end). */
  private readonly shaped = new Map<string, ShapedGlyph[]>();

  constructor(
    readonly bytes: Uint8Array,
    private readonly hb: HarfBuzz,
    private readonly font: HbFont,
    readonly upem: number,
    private readonly cacheLimits: { runs: number; maxRunLength: number } = SHAPING_CACHE,
  ) {}

  /** How many shaped runs are kept. */
  get cachedRuns(): number {
    return this.shaped.size;
  }

  /** Glyphs of a Bengali run in visual order, as HarfBuzz shapes it (script and language Bengali, left to right). */
  shape(text: string): ShapedGlyph[] {
    let glyphs = this.shaped.get(text);
    if (glyphs) {
      this.shaped.delete(text);
      this.shaped.set(text, glyphs);
      return glyphs;
    }
    const buffer = new this.hb.Buffer();
    buffer.addText(text);
    buffer.guessSegmentProperties();
    this.hb.shape(this.font, buffer);
    const positions = buffer.getGlyphPositions();
    glyphs = buffer.getGlyphInfos().map((info, i) => ({
      id: info.codepoint,
      advance: positions[i]!.xAdvance,
      dx: positions[i]!.xOffset,
      dy: positions[i]!.yOffset,
    }));
    if (text.length <= this.cacheLimits.maxRunLength) {
      this.shaped.set(text, glyphs);
      if (this.shaped.size > this.cacheLimits.runs) this.shaped.delete(this.shaped.keys().next().value!);
    }
    return glyphs;
  }

  /** The advance of `text` at `size` points. */
  width(text: string, size: number): number {
    return (this.shape(text).reduce((sum, g) => sum + g.advance, 0) * size) / this.upem;
  }

  /** The glyph's advance as the embedded font's widths (hmtx) give it, in font units. */
  nominalAdvance(glyphId: number): number {
    return this.font.glyphHAdvance(glyphId);
  }
}

let harfbuzz: Promise<HarfBuzz> | undefined;
const faces = new Map<string, Promise<BengaliFace>>();

/** Noto Sans Bengali at `weight` (400, 700), loaded once per process. */
export function bengaliFace(weight: 400 | 700): Promise<BengaliFace> {
  const key = String(weight);
  let face = faces.get(key);
  if (!face) {
    // harfbuzzjs is an ES module that instantiates its WebAssembly with top-level await: only import() loads it.
    harfbuzz ??= import("harfbuzzjs");
    face = Promise.all([harfbuzz, readFile(path.join(FONT_PACKAGE_DIR, "files", `noto-sans-bengali-bengali-${weight}-normal.woff`))]).then(
      ([hb, woff]) => {
        const bytes = woffToSfnt(woff);
        const hbFace = new hb.Face(new hb.Blob(bytes));
        return new BengaliFace(new Uint8Array(bytes), hb, new hb.Font(hbFace), hbFace.upem);
      },
    );
    faces.set(key, face);
  }
  return face;
}

/** Embeds the face whole (no subsetting: fontkit's subsetter drops the GSUB/GPOS tables; glyph ids stay HarfBuzz's). */
export function embedBengali(pdf: PDFDocument, face: BengaliFace, name: string): Promise<PDFFont> {
  // A fixed name: pdf-lib would add a random suffix, and the same certificate must give the same bytes.
  return pdf.embedFont(face.bytes, { subset: false, customName: name });
}

/**
 * Writes shaped glyphs as one text object: Identity-H codes are the glyph ids, and each glyph is placed by its own
 * text matrix where HarfBuzz put it (pen plus offset). Placing each glyph, rather than letting the viewer advance by
 * the font's widths, matters: pdf-lib writes widths only for glyphs the cmap reaches, and a conjunct or a reordered
 * vowel sign is not among them. The run is marked with its text (ActualText), so copying and searching give the
 * Bengali text, not glyph by glyph guesses from the font's cmap. Returns the advance drawn, in points.
 */
export function drawGlyphRun(
  page: PDFPage,
  font: PDFFont,
  face: BengaliFace,
  text: string,
  at: { x: number; y: number; size: number; color: RGB },
): number {
  const scale = at.size / face.upem;
  const key = page.node.newFontDictionary(font.name, font.ref);
  // An inline property list; pdf-lib's operator arguments take no dictionary, but do take its serialised form.
  const actualText = `<< /ActualText ${PDFHexString.fromText(text).toString()} >>`;
  const ops: PDFOperator[] = [
    PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of("Span"), actualText]),
    pushGraphicsState(),
    beginText(),
    setFillingRgbColor(at.color.red, at.color.green, at.color.blue),
    setFontAndSize(key, at.size),
  ];
  let pen = 0;
  for (const glyph of face.shape(text)) {
    ops.push(setTextMatrix(1, 0, 0, 1, round(at.x + (pen + glyph.dx) * scale), round(at.y + glyph.dy * scale)));
    ops.push(showText(PDFHexString.of(glyph.id.toString(16).padStart(4, "0"))));
    pen += glyph.advance;
  }
  ops.push(endText(), popGraphicsState(), PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  page.pushOperators(...ops);
  return pen * scale;
}

/** Positions to 1/1000 pt: plenty for print, and the content stream stays short and reproducible. */
function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
