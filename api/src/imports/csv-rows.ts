// The CSV format of product imports: which columns there are, and how a row's cells become the body POST
// /api/v1/products takes, so the row is then checked by exactly that endpoint's schema and rules.
import { parse, CsvError } from "csv-parse";
import { pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { AppError, ValidationError, type ErrorDetail } from "../errors";
import { TEXTILE_COLUMNS, TEXTILE_TEMPLATE_ROW, textileFromCells, type CellOrigin, type TextileColumn } from "./textile-cells";

/**
 * Columns an upload may have, in the template's order; the first four are required. The textile section's columns
 * (textile-cells.ts) come last: a file without them imports as it always did.
 */
export const IMPORT_COLUMNS = [
  "sku",
  "name",
  "category",
  "price",
  "currency",
  "fabric_type",
  "description",
  "factory_id",
  "fiber_composition",
  "certifications",
  "care_instructions",
  "country_of_manufacture",
  "gtin",
  "lot",
  "serial",
  ...TEXTILE_COLUMNS,
] as const;
export const REQUIRED_COLUMNS = ["sku", "name", "category", "price"] as const;

/**
 * A column named `error` is ignored: it is the column the errors CSV adds, so a corrected errors file can be uploaded
 * again as it is.
 */
export const ERROR_COLUMN = "error";

export const TEMPLATE_ROW: Record<(typeof IMPORT_COLUMNS)[number], string> = {
  sku: "TS-001",
  name: "Recycled Blend Tee",
  category: "t-shirt",
  price: "890",
  currency: "BDT",
  fabric_type: "recycled polyester and cotton jersey",
  description: "Crew neck, 180 gsm",
  factory_id: "",
  fiber_composition: "polyester:60;cotton:40",
  certifications: "GRS:Control Union:CU-123456:2027-01-01",
  care_instructions: "Machine wash at 30 °C inside out.",
  country_of_manufacture: "BD",
  gtin: "09520123000400",
  lot: "",
  serial: "TS-001-0001",
  ...TEXTILE_TEMPLATE_ROW,
};

/**
 * What one upload may hold. Any editor of any brand can send one, so each is read as it arrives, a slice at a time
 * with a turn of the event loop between slices, and refused as soon as it passes a cap: a hostile file costs other
 * tenants nothing and its memory is bounded by these. The template has 41 columns (42 with `error`), about 560 bytes of
 * header; a row with every product field at its schema's maximum is about 11,000 characters, and a full textile
 * section (20 substances with every text at its maximum) adds up to about 45,000; the caps leave room for
 * spreadsheets' extras.
 */
export const IMPORT_LIMITS = Object.freeze({
  bytes: 10 * 1024 * 1024,
  rows: 20_000,
  columns: 64,
  /** Bytes of the header line. */
  headerBytes: 1024,
  /** Bytes of one row (a quoted cell may hold line breaks). */
  rowBytes: 64 * 1024,
});

/** 413 PAYLOAD_TOO_LARGE: the upload is larger than IMPORT_LIMITS.bytes. */
export class UploadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, "PAYLOAD_TOO_LARGE", `The file is larger than ${limitBytes / 1024 / 1024} MB.`);
  }
}

export type ParsedUpload = { header: string[]; rows: string[][] };

/** Parsed in slices of this many bytes, with a turn of the event loop after each: a few milliseconds of work. */
const SLICE_BYTES = 16 * 1024;

/**
 * Reads an upload as it arrives (csv-parse's stream over the bytes). A malformed file (an unclosed quote) or one
 * past a cap is one 422 naming the line where it broke, a file past the byte cap a 413, as soon as it is seen.
 */
export async function readUpload(source: AsyncIterable<Uint8Array>, limits = IMPORT_LIMITS): Promise<ParsedUpload> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  let header: string[] | undefined;
  const rows: string[][] = [];
  try {
    await pipeline(sliced(source, limits), parser, async (records: AsyncIterable<string[]>) => {
      for await (const record of records) {
        if (header === undefined) header = record;
        else if (rows.length === limits.rows) throw capped(`has more than ${limits.rows} rows; at most ${limits.rows} per upload`);
        else rows.push(record);
      }
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof CsvError) throw new ValidationError([{ field: "body", problem: `is not valid CSV: ${error.message}`.slice(0, 300) }]);
    throw error;
  }
  return { header: header ?? [], rows };
}

const capped = (problem: string) => new ValidationError([{ field: "body", problem }]);

/**
 * The upload's bytes in slices of at most SLICE_BYTES, each looked at by a ShapeGuard before the parser sees it, and a
 * turn of the event loop after each; UploadTooLargeError past the byte cap.
 */
async function* sliced(source: AsyncIterable<Uint8Array>, limits: typeof IMPORT_LIMITS): AsyncGenerator<Uint8Array> {
  const guard = new ShapeGuard(limits);
  let bytes = 0;
  for await (const chunk of source) {
    bytes += chunk.byteLength;
    if (bytes > limits.bytes) throw new UploadTooLargeError(limits.bytes);
    for (let start = 0; start < chunk.byteLength; start += SLICE_BYTES) {
      const slice = chunk.subarray(start, start + SLICE_BYTES);
      guard.check(slice);
      yield slice;
      await nextTurn();
    }
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Follows the bytes as csv-parse reads them (cells split by commas, rows by line breaks, both taken literally inside
 * "…", where "" is a quote) and refuses a row with more cells, or more bytes, than the caps, before the parser builds
 * it: a row of a million commas is refused at its 65th cell, not held as a million strings. A stray quote inside a
 * cell, which would mislead this count, is an error of the parser's at that very byte. UTF-8 never uses these bytes
 * inside a character, so bytes are enough.
 */
class ShapeGuard {
  private quoted = false;
  private cells = 1;
  private rowBytes = 0;
  /** The line the current row starts on (a quoted cell may span lines). */
  private rowLine = 1;
  private line = 1;
  private seenHeader = false;

  constructor(private readonly limits: typeof IMPORT_LIMITS) {}

  check(bytes: Uint8Array): void {
    const { columns } = this.limits;
    for (const byte of bytes) {
      if (byte === QUOTE) this.quoted = !this.quoted;
      else if (!this.quoted && byte === COMMA) {
        this.cells += 1;
        if (this.cells > columns) throw capped(`has more than ${columns} columns on line ${this.rowLine}`);
      } else if (!this.quoted && (byte === LF || byte === CR)) {
        // An empty line is skipped, as the parser skips it: the header is the first line with something on it.
        if (this.rowBytes > 0 || this.cells > 1) this.seenHeader = true;
        if (byte === LF) this.line += 1;
        this.rowLine = this.line;
        this.cells = 1;
        this.rowBytes = 0;
        continue;
      } else if (byte === LF) this.line += 1;
      this.rowBytes += 1;
      const limit = this.seenHeader ? this.limits.rowBytes : this.limits.headerBytes;
      if (this.rowBytes > limit) throw capped(`has a ${this.seenHeader ? "row" : "header"} longer than ${limit} bytes on line ${this.rowLine}`);
    }
  }
}

/** At most this many problems with a header are listed; the last entry then says how many more there were. */
const MAX_HEADER_PROBLEMS = 10;

/** Problems with the header row: unknown, repeated or missing columns, briefly (the first few, then a count). */
export function headerProblems(header: string[]): ErrorDetail[] {
  const names = header.map((cell) => cell.trim().toLowerCase());
  const problems: ErrorDetail[] = [];
  if (names.length === 0) return [{ field: "body", problem: "needs a header row naming the columns" }];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) problems.push({ field: name.slice(0, 60), problem: "is a repeated column" });
    seen.add(name);
    if (name !== ERROR_COLUMN && !(IMPORT_COLUMNS as readonly string[]).includes(name)) {
      problems.push({ field: name.slice(0, 60) || "(empty)", problem: `is not a product column (columns: ${IMPORT_COLUMNS.join(", ")})` });
    }
  }
  for (const required of REQUIRED_COLUMNS) if (!seen.has(required)) problems.push({ field: required, problem: "is a required column" });
  if (problems.length <= MAX_HEADER_PROBLEMS) return problems;
  const more = problems.length - (MAX_HEADER_PROBLEMS - 1);
  return [...problems.slice(0, MAX_HEADER_PROBLEMS - 1), { field: "header", problem: `has ${more} more problems like these` }];
}

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const INTEGER = /^\d{1,15}$/;
// Postgres text cannot hold U+0000 (nor can jsonb), so a row with one is refused, as JSON bodies with one are.
const NUL = /\0/;

/**
 * The create-product body a row stands for, or the problems that keep it from being one (a cell in a format of its
 * own that does not parse). Empty cells are left out, as an absent field; numbers that do not parse are passed on
 * as text, so the schema names them as it would in JSON.
 */
export function rowToInput(header: string[], cells: string[]): { input: Record<string, unknown>; problems: ErrorDetail[]; origins: CellOrigin[] } {
  const input: Record<string, unknown> = {};
  const problems: ErrorDetail[] = [];
  const textileCells: Partial<Record<TextileColumn, string>> = {};
  if (cells.length !== header.length) problems.push({ field: "row", problem: `has ${cells.length} cells; the header has ${header.length}` });
  header.forEach((column, i) => {
    const name = column.trim().toLowerCase();
    const raw = cells[i];
    if (name === ERROR_COLUMN || raw === undefined) return;
    if (NUL.test(raw)) {
      problems.push({ field: name, problem: "contains a NUL character" });
      return;
    }
    // An apostrophe the errors CSV put before a formula-like cell (imports/service.ts neutralizeFormula) is dropped.
    const trimmed = raw.trim();
    const cell = /^'[=+\-@\t\r]/.test(trimmed) ? trimmed.slice(1) : trimmed;
    if (cell === "") return;
    if ((TEXTILE_COLUMNS as readonly string[]).includes(name)) {
      textileCells[name as TextileColumn] = cell;
      return;
    }
    switch (name) {
      case "price":
        input.price = NUMBER.test(cell) ? Number(cell) : cell;
        break;
      case "factory_id":
        input.factory_id = INTEGER.test(cell) ? Number(cell) : cell;
        break;
      case "fiber_composition": {
        const shares = parseList(cell, 2, 2);
        if (!shares) problems.push({ field: name, problem: 'must be "fibre:percent" pairs separated by ";" (e.g. "cotton:95;elastane:5")' });
        else input.fiber_composition = shares.map(([fiber, percent]) => ({ fiber: fiber!.toLowerCase(), percent: NUMBER.test(percent!) ? Number(percent) : percent }));
        break;
      }
      case "certifications": {
        const entries = parseList(cell, 4, 5);
        if (!entries) problems.push({ field: name, problem: 'must be "CODE:issuer:number:valid-until[:evidence-url]" entries separated by ";"' });
        else {
          input.certifications = entries.map(([code, issuer, number, validUntil, evidenceUrl]) => ({
            code,
            issuer,
            number,
            valid_until: validUntil,
            ...(evidenceUrl ? { evidence_url: evidenceUrl } : {}),
          }));
        }
        break;
      }
      default:
        // Free text keeps its inner spacing; the schema and the rules trim what registration trims.
        input[name] = name === "description" || name === "care_instructions" ? raw : cell;
    }
  });
  // The textile columns make one section (textile-cells.ts); a row with none of them has none.
  const textile = textileFromCells(textileCells);
  if (textile.textile) input.textile = textile.textile;
  return { input, problems: [...problems, ...textile.problems], origins: textile.origins };
}

/**
 * "a:b;c:d" as [["a","b"],["c","d"]]: each entry has `min` to `max` parts separated by ":"; the last part keeps any
 * further ":" (an evidence URL's scheme). Undefined when an entry has too few parts or an empty one.
 */
function parseList(cell: string, min: number, max: number): string[][] | undefined {
  const entries = cell.split(";").map((entry) => entry.trim()).filter((entry) => entry !== "");
  const parsed: string[][] = [];
  for (const entry of entries) {
    const parts = entry.split(":");
    const fields = [...parts.slice(0, max - 1), parts.slice(max - 1).join(":")].filter((part, i) => i < max - 1 || part !== "").map((p) => p.trim());
    if (fields.length < min || fields.some((part) => part === "")) return undefined;
    parsed.push(fields);
  }
  return parsed.length > 0 ? parsed : undefined;
}
