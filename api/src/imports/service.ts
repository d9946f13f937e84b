// Bulk product registration from a CSV upload. The upload is parsed as it arrives, within the caps of IMPORT_LIMITS
// (csv-rows.ts), and its header checked while the request waits;
// the rows are then registered in the background, a chunk at a time: each row is checked by the create-product
// endpoint's JSON Schema (handed in by the route) and by the registration rules (products/product-rules.ts), the
// valid ones are inserted in one statement per chunk, the others kept with their reasons for the errors CSV, and
// the job's counters move with each committed chunk, so a poll shows progress. No passport is minted.
import { setImmediate as nextTurn } from "node:timers/promises";
import { stringify } from "csv-stringify/sync";
import type { AppDeps } from "../deps";
import { recordAudit, type Actor } from "../audit/service";
import { productDefaults, type BrandContext } from "../brands/service";
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from "../errors";
import { newUid } from "../passports/uid";
import { orphanQualifiers, productProblems, productRowFor } from "../products/product-rules";
import { claimGtins, productsWithSkus, type NewProduct } from "../products/products.repo";
import { gtinOfAnotherBrand, skuTaken, type CreateProductInput } from "../products/service";
import { ERROR_COLUMN, headerProblems, IMPORT_COLUMNS, IMPORT_LIMITS, readUpload, rowToInput, TEMPLATE_ROW } from "./csv-rows";
import { cellNamed, type CellOrigin } from "./textile-cells";
import {
  addProgress,
  failStaleJobs,
  findFactories,
  findJob,
  finishJob,
  insertErrors,
  insertJob,
  insertProducts,
  listErrors,
  takenGtinSerials,
  type ImportJobRow,
} from "./imports.repo";

export type { ImportJobRow };

export const IMPORT_MAX_BYTES = IMPORT_LIMITS.bytes;
export const IMPORT_MAX_ROWS = IMPORT_LIMITS.rows;
/** Rows per statement and per commit: large enough to amortise round trips, small enough to show progress. */
const CHUNK_ROWS = 500;
/** Rows checked between two turns of the event loop: a few milliseconds of work. */
const CHECK_SLICE_ROWS = 50;
/** A running job whose counters have not moved for this long lost its process. */
const STALE_SECONDS = 120;
const MAX_UID_ATTEMPTS = 5;

/** Checks one row's body against the create-product schema; the problems, or none. */
export type RowValidator = (input: unknown) => ErrorDetail[];

/**
 * Reads the CSV `upload` as it arrives, starts importing it for the brand and returns the job. A file that is not
 * CSV, past a cap of IMPORT_LIMITS (413 for its size, 422 for the others), with a header of unknown, repeated or
 * missing columns, or with no rows is refused here and nothing is imported; one import runs per brand at a time (409).
 */
export async function startImport(deps: AppDeps, brand: BrandContext, actor: Actor, upload: AsyncIterable<Uint8Array>, validateRow: RowValidator): Promise<ImportJobRow> {
  const { header, rows } = await readUpload(upload);
  const problems = headerProblems(header);
  if (problems.length > 0) throw new ValidationError(problems, "The CSV header is not usable.");
  if (rows.length === 0) throw new ValidationError([{ field: "body", problem: "has no product rows under the header" }]);
  await failStaleJobs(deps.db, brand.id, STALE_SECONDS);
  const job = await insertJob(deps.db, {
    brandId: brand.id,
    actorUserId: "userId" in actor ? actor.userId : null,
    actor: "email" in actor ? actor.email : actor.system,
    header,
    total: rows.length,
  });
  if (!job) throw new ConflictError("An import is already running for this brand; wait for it to finish.");
  void runImport(deps, brand, actor, job, rows, validateRow);
  return job;
}

/** Registers the rows chunk by chunk; never throws (a failure ends the job as failed, with why). */
async function runImport(deps: AppDeps, brand: BrandContext, actor: Actor, job: ImportJobRow, rows: string[][], validateRow: RowValidator): Promise<void> {
  const { db } = deps;
  try {
    const defaults = await productDefaults(db, brand.id);
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const { products, failures } = await checkChunk(deps, brand, job.header, rows.slice(start, start + CHUNK_ROWS), start, validateRow, defaults);
      await db.transaction(async (trx) => {
        let pending = products;
        let raced = 0;
        for (let attempt = 0; pending.length > 0; attempt += 1) {
          if (attempt === MAX_UID_ATTEMPTS) throw new Error(`no free UID after ${MAX_UID_ATTEMPTS} attempts`);
          const notInserted = new Set((await insertProducts(trx, pending.map((p) => p.product), job.id)).notInserted);
          pending = pending.filter((p) => notInserted.has(p.product.uid));
          // A product registered meanwhile with the same GTIN and serial, or with the same SKU in the brand, fails the
          // row; a UID drawn twice is drawn again.
          const taken = await takenGtinSerials(trx, gs1Pairs(pending.map((p) => p.product)));
          const skuHolders = await productsWithSkus(trx, brand.id, pending.flatMap((p) => (p.product.serial ? [] : [p.product.sku])));
          const isTaken = (p: CheckedProduct) => taken.has(gs1Key(p.product) ?? "") || (!p.product.serial && skuHolders.has(p.product.sku));
          for (const p of pending.filter(isTaken)) {
            const holder = p.product.serial ? undefined : skuHolders.get(p.product.sku);
            const error = holder ? `sku: ${skuTaken(p.product.sku, holder).message}` : describe(gtinSerialTakenProblems(p.product));
            failures.push({ row: p.row, cells: p.cells, error });
            raced += 1;
          }
          pending = pending.filter((p) => !isTaken(p)).map((p) => ({ ...p, product: { ...p.product, uid: newUid(brand.uidPrefix) } }));
        }
        await insertErrors(trx, job.id, failures);
        await addProgress(trx, job.id, { processed: products.length + failures.length - raced, imported: products.length - raced, failed: failures.length });
      });
      // Let requests in between chunks: preparing a chunk's statements is CPU work on the API's event loop.
      await nextTurn();
    }
    await db.transaction(async (trx) => {
      const done = await finishJob(trx, job.id, { status: "done" });
      await recordAudit(trx, brand.id, actor, {
        action: "product.imported",
        target: `import ${job.id}`,
        details: { import_id: String(job.id), total: done.total, imported: done.imported, failed: done.failed },
      });
    });
  } catch (error) {
    deps.logger.error({ err: error, importId: job.id }, "product import failed");
    await db
      .transaction(async (trx) => {
        const failed = await finishJob(trx, job.id, { status: "failed", error: error instanceof Error ? error.message : String(error) });
        await recordAudit(trx, brand.id, actor, {
          action: "product.imported",
          target: `import ${job.id}`,
          details: { import_id: String(job.id), total: failed.total, imported: failed.imported, failed: failed.failed, error: "the import stopped early" },
        });
      })
      .catch((finishError: unknown) => deps.logger.error({ err: finishError, importId: job.id }, "could not record the import's failure"));
  }
}

/** Splits a chunk into product rows ready to insert and failed rows with their reasons. */
async function checkChunk(
  deps: AppDeps,
  brand: BrandContext,
  header: string[],
  chunk: string[][],
  offset: number,
  validateRow: RowValidator,
  defaults: Awaited<ReturnType<typeof productDefaults>>,
): Promise<{ products: CheckedProduct[]; failures: Array<{ row: number; cells: string[]; error: string }> }> {
  const checked: Array<{ row: number; cells: string[]; input: Record<string, unknown>; problems: ErrorDetail[]; origins: CellOrigin[] }> = [];
  for (const [i, cells] of chunk.entries()) {
    // Row 1 is the header: the first product is row 2, as a spreadsheet numbers it.
    const row = offset + i + 2;
    const { input, problems, origins } = rowToInput(header, cells);
    checked.push({ row, cells, input, problems: problems.length > 0 ? problems : validateRow(input), origins });
    // Checking rows is CPU work on the API's event loop: other requests are let in every few rows.
    if (i % CHECK_SLICE_ROWS === CHECK_SLICE_ROWS - 1) await nextTurn();
  }
  // Every factory the chunk names, looked up at once.
  const factoryIds = [...new Set(checked.flatMap((c) => (c.problems.length === 0 && typeof c.input.factory_id === "number" ? [c.input.factory_id] : [])))];
  const factories = await findFactories(deps.db, factoryIds);
  const products: CheckedProduct[] = [];
  // UIDs are random; one drawn twice in a chunk would make one insert of the statement a silent no-op.
  const uids = new Set<string>();
  const failures: Array<{ row: number; cells: string[]; error: string }> = [];
  const rows: Array<{ row: number; cells: string[]; product: Omit<NewProduct, "uid"> }> = [];
  for (const item of checked) {
    const input = item.input as CreateProductInput;
    const problems = item.problems.length > 0 ? item.problems : [...productProblems(input, factories), ...orphanQualifiers(input)];
    if (problems.length > 0) {
      // A problem of the textile section names the cell it came from (textile-cells.ts).
      failures.push({ row: item.row, cells: cleanCells(item.cells), error: describe(problems.map((p) => cellNamed(p, item.origins))) });
      continue;
    }
    const factoryCountry = input.factory_id === undefined ? undefined : factories.get(input.factory_id)?.country.trim();
    rows.push({ row: item.row, cells: cleanCells(item.cells), product: productRowFor(brand.id, input, defaults, factoryCountry) });
  }
  // A GTIN belongs to one brand: the chunk's GTINs no brand holds become this brand's, and a row with another's fails.
  const owners = await claimGtins(deps.db, brand.id, rows.flatMap((r) => (r.product.gtin ? [r.product.gtin] : [])));
  // A GTIN and serial name one item, service-wide: a pair some product has, or an earlier row of the file has, fails.
  const taken = await takenGtinSerials(deps.db, gs1Pairs(rows.map((r) => r.product)));
  const firstRowOf = new Map<string, number>();
  // A SKU names one product of the brand: a SKU one of its products has, or an earlier row of the file has, fails
  // (rows with a serial are items of a trade item, which share its SKU).
  const skuHolders = await productsWithSkus(deps.db, brand.id, rows.flatMap((r) => (r.product.serial ? [] : [r.product.sku])));
  const firstRowOfSku = new Map<string, number>();
  for (const item of rows) {
    const holder = item.product.serial ? undefined : skuHolders.get(item.product.sku);
    if (holder) {
      failures.push({ row: item.row, cells: item.cells, error: `sku: ${skuTaken(item.product.sku, holder).message}` });
      continue;
    }
    if (!item.product.serial && firstRowOfSku.has(item.product.sku)) {
      failures.push({ row: item.row, cells: item.cells, error: `sku: row ${firstRowOfSku.get(item.product.sku)} has SKU ${item.product.sku} already; each product needs its own SKU` });
      continue;
    }
    if (item.product.gtin && owners.get(item.product.gtin) !== brand.id) {
      failures.push({ row: item.row, cells: item.cells, error: `gtin: ${gtinOfAnotherBrand(item.product.gtin).message}` });
      continue;
    }
    const key = gs1Key(item.product);
    if (key !== undefined && taken.has(key)) {
      failures.push({ row: item.row, cells: item.cells, error: describe(gtinSerialTakenProblems(item.product)) });
      continue;
    }
    if (key !== undefined && firstRowOf.has(key)) {
      failures.push({ row: item.row, cells: item.cells, error: `serial: row ${firstRowOf.get(key)} has this GTIN and serial already; each item needs its own serial` });
      continue;
    }
    if (key !== undefined) firstRowOf.set(key, item.row);
    if (!item.product.serial) firstRowOfSku.set(item.product.sku, item.row);
    let uid = newUid(brand.uidPrefix);
    while (uids.has(uid)) uid = newUid(brand.uidPrefix);
    uids.add(uid);
    products.push({ row: item.row, cells: item.cells, product: { ...item.product, uid } });
  }
  failures.sort((a, b) => a.row - b.row);
  return { products, failures };
}

/** A row ready to insert, with where it came from (a row that loses a race for its GTIN and serial fails as itself). */
type CheckedProduct = { row: number; cells: string[]; product: NewProduct };

const cleanCells = (cells: string[]) => cells.map((cell) => cell.replaceAll("\0", ""));

/** "gtin/serial" of a product that has both, as takenGtinSerials keys it. */
function gs1Key(product: { gtin?: string | null; serial?: string | null }): string | undefined {
  return product.gtin && product.serial ? `${product.gtin}/${product.serial}` : undefined;
}

function gs1Pairs(products: Array<{ gtin?: string | null; serial?: string | null }>): Array<{ gtin: string; serial: string }> {
  return products.flatMap((p) => (p.gtin && p.serial ? [{ gtin: p.gtin, serial: p.serial }] : []));
}

function gtinSerialTakenProblems(product: { gtin?: string | null; serial?: string | null }): ErrorDetail[] {
  return [{ field: "serial", problem: `a product with GTIN ${product.gtin} and serial ${product.serial} is registered already; each item needs its own serial` }];
}

function describe(problems: ErrorDetail[]): string {
  return problems.map((p) => `${p.field}: ${p.problem}`).join("; ").slice(0, 1000);
}

/** The brand's import job; a job of another brand is NOT_FOUND. */
export async function getImport(deps: AppDeps, brandId: number, id: number): Promise<ImportJobRow> {
  await failStaleJobs(deps.db, brandId, STALE_SECONDS);
  const job = await findJob(deps.db, brandId, id);
  if (!job) throw new NotFoundError("Import");
  return job;
}

/** The failed rows as uploaded, in the upload's columns, with an `error` column saying why each failed. */
export async function importErrorsCsv(deps: AppDeps, brandId: number, id: number): Promise<string> {
  const job = await getImport(deps, brandId, id);
  const kept = job.header.map((_, i) => i).filter((i) => job.header[i]!.trim().toLowerCase() !== ERROR_COLUMN);
  const rows = await listErrors(deps.db, job.id);
  return stringify([
    [...kept.map((i) => job.header[i]!), ERROR_COLUMN],
    ...rows.map((r) => [...kept.map((i) => neutralizeFormula(r.cells[i] ?? "")), neutralizeFormula(r.error)]),
  ]);
}

/**
 * A cell a spreadsheet would run as a formula (starting with = + - @, tab or CR) gets a leading apostrophe, as
 * OWASP advises for CSV files people open in spreadsheets; the import drops it again (csv-rows.ts), so a corrected
 * errors file uploads as it is.
 */
export function neutralizeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV with every column and one example row. */
export function importTemplateCsv(): string {
  return stringify([[...IMPORT_COLUMNS], IMPORT_COLUMNS.map((column) => TEMPLATE_ROW[column])]);
}
