// The textile section's CSV columns (docs/textile.md "CSV columns"): a merchandiser writes a multi-stage garment in one
// spreadsheet row, flat columns for single values, one column per processing stage, and short lists in a cell. Each
// cell is read forgivingly (case, spaces, "post-consumer" or "post_consumer", "60%" or "60") and one it cannot read
// fails its row with the column's name and what it expected; what it reads is then checked by the API's own schema.
import type { ErrorDetail } from "../errors";
import { EU_FIBRE_NAMES } from "../passports/fibres";
import { CARE_SYMBOLS, DURABILITY_PROPERTIES, TEXTILE_STAGES, type TextileData } from "../passports/textile";

/** One column per processing stage, in the order a garment is made. */
export const STAGE_COLUMNS = {
  stage_recycling: "recycling",
  stage_fibre: "fibre",
  stage_spinning: "spinning",
  stage_weaving_knitting: "weaving_knitting",
  stage_dyeing_printing_finishing: "dyeing_printing_finishing",
  stage_making_up: "making_up",
} as const satisfies Record<string, (typeof TEXTILE_STAGES)[number]>;

/** The textile columns, in the template's order (after the product's own). */
export const TEXTILE_COLUMNS = [
  "production_date",
  "hs_code",
  "cn_code",
  ...(Object.keys(STAGE_COLUMNS) as Array<keyof typeof STAGE_COLUMNS>),
  "materials",
  "substances",
  "durability",
  "care_symbols",
  "care_text",
  "repair_instructions",
  "spare_parts",
  "repair_service_url",
  "recyclability",
  "take_back",
  "take_back_url",
  "carbon_kg_co2e",
  "carbon_method",
  "carbon_study_reference",
  "image_urls",
] as const;

export type TextileColumn = (typeof TEXTILE_COLUMNS)[number];

/** A multi-stage garment, the template's example: fibre and spinning abroad, knitting to making-up in Bangladesh. */
export const TEXTILE_TEMPLATE_ROW: Record<TextileColumn, string> = {
  production_date: "2026-03-20",
  hs_code: "610910",
  cn_code: "61091000",
  stage_recycling: "",
  stage_fibre: "Zhejiang Recycled Fibre Co | CN | 2025-11-01 | 2025-11-30",
  stage_spinning: "Gujarat Spinning Mills | IN | osh:IN2024123ABC",
  stage_weaving_knitting: "Dhaka Knit | BD | gln:0614141000005 | 2026-02-01 | 2026-02-20",
  stage_dyeing_printing_finishing: "Gazipur Dyeing | BD",
  stage_making_up: "Dhaka Knit | BD | gln:0614141000005 | 2026-03-01 | 2026-03-20",
  materials: "polyester 60% CN recycled 100% post-consumer GRS:CU-123456; cotton 40% IN",
  substances: "Antimony trioxide | 1309-64-4 | 215-175-0 | 0.02% | polyester fibre | no exposure in normal use",
  durability: "pilling | ISO 12945-2 | 4 | class 4; dimensional change | ISO 6330 | -2%",
  care_symbols: "wash_30; do_not_bleach; line_dry; iron_low; do_not_dry_clean",
  care_text: "Wash inside out with similar colours.",
  repair_instructions: "Re-sew a loose seam with polyester thread.",
  spare_parts: "spare button; thread",
  repair_service_url: "https://example.com/repair",
  recyclability: "Fibre-to-fibre recyclable: one polyester-cotton blend, no elastane.",
  take_back: "Return it to any of our shops.",
  take_back_url: "https://example.com/take-back",
  carbon_kg_co2e: "4.2",
  carbon_method: "estimate",
  carbon_study_reference: "",
  image_urls: "https://example.com/images/tee-front.jpg; https://example.com/images/tee-back.jpg",
};

/** Where a part of the section came from: its field path prefix and the column (and entry) it was read from. */
export type CellOrigin = { path: string; cell: string };

type Cells = Partial<Record<TextileColumn, string>>;

/**
 * The `textile` section the row's textile cells stand for (undefined when they are all empty), the problems of the
 * cells it could not read, and where each part came from, so a later check names the cell (cellNamed).
 */
export function textileFromCells(cells: Cells): { textile?: TextileData; problems: ErrorDetail[]; origins: CellOrigin[] } {
  const textile: Record<string, unknown> = {};
  const problems: ErrorDetail[] = [];
  const origins: CellOrigin[] = [];
  const fail = (column: TextileColumn, problem: string) => problems.push({ field: column, problem });
  const from = (path: string, cell: string) => origins.push({ path, cell });

  if (cells.production_date) {
    if (DATE.test(cells.production_date)) textile.production_date = cells.production_date;
    else fail("production_date", `must be a date written YYYY-MM-DD (got "${clip(cells.production_date)}")`);
    from("textile.production_date", "production_date");
  }
  const code: Record<string, string> = {};
  for (const [column, key, digits] of [["hs_code", "hs6", 6], ["cn_code", "cn8", 8]] as const) {
    const cell = cells[column];
    if (!cell) continue;
    const value = cell.replace(/[\s.]/g, "");
    if (new RegExp(`^[0-9]{${digits}}$`).test(value)) code[key] = value;
    else fail(column, `must be ${digits} digits (dots and spaces are ignored), got "${clip(cell)}"`);
    from(`textile.commodity_code.${key}`, column);
  }
  if (Object.keys(code).length > 0) textile.commodity_code = code;

  const stages: unknown[] = [];
  for (const [column, stage] of Object.entries(STAGE_COLUMNS) as Array<[keyof typeof STAGE_COLUMNS, (typeof TEXTILE_STAGES)[number]]>) {
    const entries = stageEntriesOf(cells[column]);
    entries.forEach((entry, i) => {
      const read = stageEntry(stage, entry);
      if (typeof read === "string") fail(column, `${entryLabel(entries, i)}${read}`);
      else {
        from(`textile.stages.${stages.length}`, column);
        stages.push(read);
      }
    });
  }
  if (stages.length > 0) textile.stages = stages;

  const materials = listColumn(cells, "materials", materialEntry, fail);
  materials.forEach((_, i) => from(`textile.materials.${i}`, "materials"));
  if (cells.materials) from("textile.materials", "materials");
  if (materials.length > 0) textile.materials = materials;
  const substances = listColumn(cells, "substances", substanceEntry, fail, substanceEntriesOf);
  if (cells.substances) from("textile.substances_of_concern", "substances");
  if (substances.length > 0) textile.substances_of_concern = substances;
  const durability = listColumn(cells, "durability", durabilityEntry, fail);
  if (cells.durability) from("textile.durability", "durability");
  if (durability.length > 0) textile.durability = durability;

  if (cells.care_symbols || cells.care_text) {
    const symbols: string[] = [];
    for (const entry of entriesOf(cells.care_symbols)) {
      const symbol = codeOf(entry);
      if ((CARE_SYMBOLS as readonly string[]).includes(symbol)) symbols.push(symbol);
      else fail("care_symbols", `"${clip(entry)}" is not an ISO 3758 care symbol code (e.g. wash_30, do_not_bleach, line_dry, iron_low; docs/textile.md lists them)`);
    }
    textile.care = { symbols: [...new Set(symbols)], ...(cells.care_text ? { text: cells.care_text } : {}) };
    from("textile.care.symbols", "care_symbols");
    from("textile.care.text", "care_text");
  }

  const repair = {
    ...(cells.repair_instructions ? { instructions: cells.repair_instructions } : {}),
    ...(cells.spare_parts ? { spare_parts: entriesOf(cells.spare_parts) } : {}),
    ...(cells.repair_service_url ? { service_url: cells.repair_service_url } : {}),
  };
  if (Object.keys(repair).length > 0) textile.repair = repair;
  from("textile.repair.instructions", "repair_instructions");
  from("textile.repair.spare_parts", "spare_parts");
  from("textile.repair.service_url", "repair_service_url");
  const endOfLife = {
    ...(cells.recyclability ? { recyclability: cells.recyclability } : {}),
    ...(cells.take_back ? { take_back: cells.take_back } : {}),
    ...(cells.take_back_url ? { take_back_url: cells.take_back_url } : {}),
  };
  if (Object.keys(endOfLife).length > 0) textile.end_of_life = endOfLife;
  from("textile.end_of_life.recyclability", "recyclability");
  from("textile.end_of_life.take_back", "take_back");
  from("textile.end_of_life.take_back_url", "take_back_url");
  if (cells.image_urls) {
    textile.images = entriesOf(cells.image_urls);
    from("textile.images", "image_urls");
  }

  if (cells.carbon_kg_co2e || cells.carbon_method || cells.carbon_study_reference) {
    const kg = cells.carbon_kg_co2e ? numberOf(cells.carbon_kg_co2e.toLowerCase().replace(/kg(?: ?co2e?)?$/, "")) : undefined;
    const method = cells.carbon_method ? CARBON_METHODS[codeOf(cells.carbon_method)] : undefined;
    if (!cells.carbon_kg_co2e) fail("carbon_kg_co2e", "is needed with carbon_method or carbon_study_reference (kg CO2e per item, e.g. 4.2)");
    else if (kg === undefined) fail("carbon_kg_co2e", `must be a number of kg CO2e per item, e.g. 4.2 (got "${clip(cells.carbon_kg_co2e)}")`);
    if (!cells.carbon_method) fail("carbon_method", "is needed with carbon_kg_co2e: pef_study (your own PEF study) or estimate");
    else if (!method) fail("carbon_method", `must be pef_study or estimate (got "${clip(cells.carbon_method)}")`);
    if (kg !== undefined && method) {
      textile.carbon = { method, kg_co2e: kg, ...(cells.carbon_study_reference ? { study_reference: cells.carbon_study_reference } : {}) };
    }
    from("textile.carbon.kg_co2e", "carbon_kg_co2e");
    from("textile.carbon.method", "carbon_method");
    from("textile.carbon.study_reference", "carbon_study_reference");
    from("textile.carbon", "carbon_kg_co2e");
  }

  const given = TEXTILE_COLUMNS.some((column) => cells[column]);
  return { ...(given ? { textile: textile as TextileData } : {}), problems, origins };
}

/**
 * A problem's field, named as the cell the value came from: "textile.stages.1.facility.country" becomes
 * "stage_spinning (textile.stages.1.facility.country)", so the errors CSV points at the cell to correct.
 */
export function cellNamed(problem: ErrorDetail, origins: CellOrigin[]): ErrorDetail {
  let best: CellOrigin | undefined;
  for (const origin of origins) {
    const matches = problem.field === origin.path || problem.field.startsWith(`${origin.path}.`);
    if (matches && (!best || origin.path.length > best.path.length)) best = origin;
  }
  return best ? { field: `${best.cell} (${problem.field})`, problem: problem.problem } : problem;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const PERCENT = /^(\d+(?:[.,]\d+)?)\s*%?$/;
const SCHEMES = ["gln", "osh", "registry"] as const;
const CARBON_METHODS: Record<string, "pef_study" | "estimate"> = { pef_study: "pef_study", pef: "pef_study", estimate: "estimate", estimated: "estimate" };

/** "Post-consumer", "post consumer" and "POST_CONSUMER" are all post_consumer: lower case, words joined by "_". */
const codeOf = (text: string) => text.trim().toLowerCase().replace(/colour|color/g, "colour").replace(/[\s-]+/g, "_");

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

/** A list cell's entries: split at ";", trimmed, empty ones dropped. */
function entriesOf(cell: string | undefined): string[] {
  return (cell ?? "").split(";").map((entry) => entry.trim()).filter((entry) => entry !== "");
}

/**
 * The entries of a substances cell: split at ";", but a piece with no "|" belongs to the entry before it, so a safe-use
 * note, the entry's last part, may hold a ";" ("bound in the fibre; no exposure"). Only substances: in another column
 * that would swallow a malformed next entry into the one before it.
 */
function substanceEntriesOf(cell: string | undefined): string[] {
  const entries: string[] = [];
  for (const piece of entriesOf(cell)) {
    if (!piece.includes("|") && entries.length > 0) entries[entries.length - 1] += `; ${piece}`;
    else entries.push(piece);
  }
  return entries;
}

/**
 * The entries of a stage cell: split at ";", but a piece with no "|" is the start of the next entry's facility name,
 * the entry's first part, so a name may hold a ";" ("Smith; Sons Ltd | GB"). A piece with no "|" and nothing after
 * it stays an entry of its own, and is refused as one.
 */
function stageEntriesOf(cell: string | undefined): string[] {
  const entries: string[] = [];
  let name: string[] = [];
  for (const piece of entriesOf(cell)) {
    if (!piece.includes("|")) name.push(piece);
    else {
      entries.push([...name, piece].join("; "));
      name = [];
    }
  }
  if (name.length > 0) entries.push(name.join("; "));
  return entries;
}

/** "entry 2 ("…"): " when the cell has several entries, so the message says which one. */
function entryLabel(entries: string[], i: number): string {
  return entries.length > 1 ? `entry ${i + 1} ("${clip(entries[i]!)}"): ` : "";
}

function numberOf(text: string): number | undefined {
  const value = text.trim().replace(/^(\d+),(\d+)$/, "$1.$2");
  return /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : undefined;
}

function percentOf(text: string): number | undefined {
  const match = PERCENT.exec(text.trim());
  return match ? Number(match[1]!.replace(",", ".")) : undefined;
}

function listColumn(
  cells: Cells,
  column: TextileColumn,
  read: (entry: string) => unknown,
  fail: (column: TextileColumn, problem: string) => void,
  split: (cell: string | undefined) => string[] = entriesOf,
): unknown[] {
  const out: unknown[] = [];
  const entries = split(cells[column]);
  entries.forEach((entry, i) => {
    const value = read(entry);
    if (typeof value === "string") fail(column, `${entryLabel(entries, i)}${value}`);
    else out.push(value);
  });
  return out;
}

/** "Facility name | CC | gln:0614141000005 | 2026-02-01 | 2026-02-20": name and country, then an id and dates in any order. */
function stageEntry(stage: (typeof TEXTILE_STAGES)[number], entry: string): Record<string, unknown> | string {
  const [name, country, ...rest] = entry.split("|").map((part) => part.trim());
  if (!name || !country) return 'must be "Facility name | country code" with optional "| scheme:id | started | completed", e.g. "Dhaka Knit | BD | gln:0614141000005 | 2026-02-01 | 2026-02-20"';
  if (!COUNTRY.test(country)) return `the country must be a two-letter ISO code such as BD or IN (got "${clip(country)}")`;
  const facility: Record<string, unknown> = { name, country: country.toUpperCase() };
  const dates: string[] = [];
  let started: string | undefined;
  let completed: string | undefined;
  for (const part of rest) {
    if (part === "") continue;
    const labelled = /^(started|start|from|completed|complete|finished|to)[\s:]+(\d{4}-\d{2}-\d{2})$/i.exec(part);
    if (labelled) {
      const isStart = /^(?:started|start|from)$/i.test(labelled[1]!);
      const before = isStart ? started : completed;
      if (before !== undefined) return `gives the ${isStart ? "started" : "completed"} date twice ("${before}" and "${labelled[2]}")`;
      if (isStart) started = labelled[2];
      else completed = labelled[2];
      continue;
    }
    if (DATE.test(part)) {
      dates.push(part);
      continue;
    }
    const scheme = part.slice(0, Math.max(part.indexOf(":"), 0)).trim().toLowerCase();
    if ((SCHEMES as readonly string[]).includes(scheme)) {
      facility.id = { scheme, value: part.slice(part.indexOf(":") + 1).replace(/\s/g, "").toUpperCase() };
      continue;
    }
    return `"${clip(part)}" is neither an id (gln:…, osh:… or registry:…) nor a date written YYYY-MM-DD`;
  }
  // A labelled date counts: "started: 2025-11-01 | 2025-11-05 | 2025-11-30" has three, and none may be dropped unsaid.
  const count = dates.length + (started === undefined ? 0 : 1) + (completed === undefined ? 0 : 1);
  if (count > 2) return `has ${count} dates: at most two, started then completed (a date labelled "started:" or "completed:" counts)`;
  started ??= dates.shift();
  completed ??= dates.shift();
  return { stage, facility, ...(started ? { started } : {}), ...(completed ? { completed } : {}) };
}

/**
 * "polyester 60% CN recycled 100% post-consumer GRS:CU-123456": the fibre, its share of the mass, then in any order
 * its origin country, "recycled N%" with pre- or post-consumer, and a certification CODE:number.
 */
function materialEntry(entry: string): Record<string, unknown> | string {
  const normal = entry.replace(/\b(pre|post)[\s_-]?consumer\b/gi, (_, when: string) => `${when.toLowerCase()}_consumer`);
  const digitAt = normal.search(/\d/);
  const share = digitAt > 0 ? /^(\d+(?:[.,]\d+)?)\s*%/.exec(normal.slice(digitAt)) : null;
  if (!share || !normal.slice(0, digitAt).trim()) return `"${clip(entry)}" must start with the fibre and its share, e.g. "polyester 60% CN recycled 100% post-consumer"`;
  const written = normal.slice(0, digitAt).trim();
  const fibre = written.toLowerCase().replace(/\s+/g, " ");
  if (!(EU_FIBRE_NAMES as readonly string[]).includes(fibre)) return `"${clip(written)}" is not an EU 1007/2011 fibre name (e.g. cotton, polyester, viscose, elastane, wool)`;
  const material: Record<string, unknown> = { fibre, mass_percent: Number(share[1]!.replace(",", ".")) };
  const tokens = normal.slice(digitAt + share[0].length).trim().split(/\s+/).filter((t) => t !== "");
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (/^recycled$/i.test(token)) {
      const percent = tokens[i + 1] === undefined ? undefined : percentOf(tokens[i + 1]!);
      if (percent === undefined) return `"recycled" must be followed by its share, e.g. "recycled 100% post-consumer" (in "${clip(entry)}")`;
      material.recycled_percent = percent;
      i += 1;
    } else if (/^(?:pre|post)_consumer$/.test(token)) material.recycled_origin = token;
    else if (COUNTRY.test(token)) material.origin_country = token.toUpperCase();
    else if (/^[A-Za-z0-9-]+:\S+$/.test(token)) {
      const [code, ...number] = token.split(":");
      material.certification = { code: code!.toUpperCase(), number: number.join(":") };
    } else return `"${clip(token)}" is not understood in "${clip(entry)}" (after the share: a country code, "recycled N% pre-consumer|post-consumer", CODE:certificate-number)`;
  }
  return material;
}

/** "name | CAS | EC | 0.05% | location | safe use": CAS, EC and safe use may be left empty. */
function substanceEntry(entry: string): Record<string, unknown> | string {
  const [name, cas, ec, concentration, location, ...safeUse] = entry.split("|").map((part) => part.trim());
  const shape = 'must be "name | CAS | EC | concentration % | location in the product | safe use", e.g. "Antimony trioxide | 1309-64-4 | 215-175-0 | 0.02% | polyester fibre | none"';
  if (!name || concentration === undefined || !location) return shape;
  const percent = percentOf(concentration);
  if (percent === undefined) return `the concentration must be a percentage by weight such as 0.02% (got "${clip(concentration)}")`;
  const safe = safeUse.join("|").trim();
  return { name, ...(cas ? { cas } : {}), ...(ec ? { ec } : {}), concentration_percent: percent, location, ...(safe ? { safe_use: safe } : {}) };
}

/** "pilling | ISO 12945-2 | 4 | class 4": the class may be left out. */
function durabilityEntry(entry: string): Record<string, unknown> | string {
  const [property, standard, result, klass] = entry.split("|").map((part) => part.trim());
  if (!property || !standard || !result) return 'must be "property | test standard | result | class", e.g. "pilling | ISO 12945-2 | 4 | class 4"';
  const code = codeOf(property);
  if (!(DURABILITY_PROPERTIES as readonly string[]).includes(code)) return `"${clip(property)}" is not a durability property (one of: ${DURABILITY_PROPERTIES.join(", ")})`;
  const cls = klass?.replace(/^class\s*/i, "").trim();
  return { property: code, standard, result, ...(cls ? { class: cls } : {}) };
}
