// The CSV format of product imports: which columns there are, and how a row's cells become the body POST
// /api/v1/products takes, so the row is then checked by exactly that endpoint's schema and rules.
import { parse } from "csv-parse/sync";
import { ValidationError, type ErrorDetail } from "../errors";

/** Columns an upload may have, in the template's order; the first four are required. */
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
] as const;
export const REQUIRED_COLUMNS = ["sku", "name", "category", "price"] as const;

/**
 * A column named `error` is ignored: it is the column the errors CSV adds, so a corrected errors file can be uploaded
 * again as it is.
 */
export const ERROR_COLUMN = "error";

export const TEMPLATE_ROW: Record<(typeof IMPORT_COLUMNS)[number], string> = {
  sku: "TS-001",
  name: "Organic Cotton Tee",
  category: "t-shirt",
  price: "890",
  currency: "BDT",
  fabric_type: "organic cotton jersey",
  description: "Crew neck, 180 gsm",
  factory_id: "",
  fiber_composition: "cotton:95;elastane:5",
  certifications: "GOTS:Control Union:CU-123456:2027-01-01",
  care_instructions: "Machine wash at 30 °C inside out.",
  country_of_manufacture: "BD",
  gtin: "09520123000400",
  lot: "",
  serial: "TS-001-0001",
};

export type ParsedUpload = { header: string[]; rows: string[][] };

/** Parses the upload; a malformed file (an unclosed quote) is one 422 naming where it broke. */
export function parseUpload(text: string): ParsedUpload {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    throw new ValidationError([{ field: "body", problem: `is not valid CSV: ${(error as Error).message}`.slice(0, 300) }]);
  }
  const [header, ...rows] = records;
  return { header: header ?? [], rows };
}

/** Problems with the header row: unknown, repeated or missing columns. */
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
  return problems;
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
export function rowToInput(header: string[], cells: string[]): { input: Record<string, unknown>; problems: ErrorDetail[] } {
  const input: Record<string, unknown> = {};
  const problems: ErrorDetail[] = [];
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
  return { input, problems };
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
