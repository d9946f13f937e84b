// SQL of product imports: the job row and its counters, the failed rows, and the batch insert of products.
import type { Knex } from "../db/knex";
import type { NewProduct } from "../products/products.repo";

export type ImportJobRow = {
  id: number;
  brand_id: number;
  status: "running" | "done" | "failed";
  header: string[];
  total: number;
  processed: number;
  imported: number;
  failed: number;
  error: string | null;
  created_at: Date;
  heartbeat_at: Date;
  finished_at: Date | null;
};

const UNIQUE_VIOLATION = "23505";

/**
 * Marks failed the brand's running job whose heartbeat stopped `staleSeconds` ago (its process died), so it neither
 * shows as running forever nor keeps the brand from starting another.
 */
export async function failStaleJobs(db: Knex, brandId: number | undefined, staleSeconds: number): Promise<void> {
  const query = db("app.import_jobs")
    .where({ status: "running" })
    .where("heartbeat_at", "<", db.raw("now() - make_interval(secs => ?)", [staleSeconds]));
  if (brandId !== undefined) query.where({ brand_id: brandId });
  await query.update({ status: "failed", error: "interrupted: the server stopped while importing; the rows counted as imported are kept", finished_at: db.fn.now() });
}

/** Inserts a running job; undefined when the brand has one running already. */
export async function insertJob(
  db: Knex,
  job: { brandId: number; actorUserId: number | null; actor: string; header: string[]; total: number },
): Promise<ImportJobRow | undefined> {
  try {
    const [row] = await db("app.import_jobs")
      .insert({ brand_id: job.brandId, actor_user_id: job.actorUserId, actor: job.actor, status: "running", header: JSON.stringify(job.header), total: job.total })
      .returning<ImportJobRow[]>("*");
    return row;
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
    throw error;
  }
}

export async function findJob(db: Knex, brandId: number, id: number): Promise<ImportJobRow | undefined> {
  return db("app.import_jobs").where({ brand_id: brandId, id }).first<ImportJobRow | undefined>();
}

/** Adds one chunk's outcome to the counters and moves the heartbeat. */
export async function addProgress(db: Knex, id: number, chunk: { processed: number; imported: number; failed: number }): Promise<void> {
  await db("app.import_jobs")
    .where({ id })
    .update({
      processed: db.raw("processed + ?", [chunk.processed]),
      imported: db.raw("imported + ?", [chunk.imported]),
      failed: db.raw("failed + ?", [chunk.failed]),
      heartbeat_at: db.fn.now(),
    });
}

export async function finishJob(db: Knex, id: number, outcome: { status: "done" | "failed"; error?: string }): Promise<ImportJobRow> {
  const [row] = await db("app.import_jobs")
    .where({ id })
    .update({ status: outcome.status, error: outcome.error?.slice(0, 500) ?? null, finished_at: db.fn.now(), heartbeat_at: db.fn.now() })
    .returning<ImportJobRow[]>("*");
  return row!;
}

export async function insertErrors(db: Knex, jobId: number, rows: Array<{ row: number; cells: string[]; error: string }>): Promise<void> {
  if (rows.length === 0) return;
  await db("app.import_errors").insert(rows.map((r) => ({ job_id: jobId, row_number: r.row, cells: JSON.stringify(r.cells), error: r.error })));
}

export async function listErrors(db: Knex, jobId: number): Promise<Array<{ row_number: number; cells: string[]; error: string }>> {
  return db("app.import_errors").where({ job_id: jobId }).orderBy("row_number").select("row_number", "cells", "error");
}

/**
 * Inserts the rows as registered by import `importId` (so its products can be issued together), skipping any that
 * conflict (a UID drawn twice, or a GTIN and serial registered meanwhile); returns the UIDs of those not inserted, for
 * the caller to tell apart with `takenGtinSerials`.
 */
export async function insertProducts(db: Knex, rows: NewProduct[], importId: number): Promise<{ inserted: number; notInserted: string[] }> {
  if (rows.length === 0) return { inserted: 0, notInserted: [] };
  const inserted = await db("app.products")
    .insert(rows.map((row) => ({ ...row, import_id: importId })))
    .onConflict()
    .ignore()
    .returning<Array<{ uid: string }>>("uid");
  const done = new Set(inserted.map((r) => r.uid));
  return { inserted: inserted.length, notInserted: rows.filter((r) => !done.has(r.uid)).map((r) => r.uid) };
}

/** Which of the GTIN and serial pairs (GTIN-14) a product has already, service-wide, as "gtin/serial" keys. */
export async function takenGtinSerials(db: Knex, pairs: Array<{ gtin: string; serial: string }>): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db("app.products")
    .whereIn(["gtin", "serial"], pairs.map((p) => [p.gtin, p.serial]))
    .select<Array<{ gtin: string; serial: string }>>("gtin", "serial");
  return new Set(rows.map((r) => `${r.gtin}/${r.serial}`));
}

/** Registry factories among `ids`, with their country. */
export async function findFactories(db: Knex, ids: number[]): Promise<Map<number, { country: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db("app.factory_profiles").whereIn("factory_id", ids).select<Array<{ factory_id: string | number; country: string }>>("factory_id", "country");
  return new Map(rows.map((r) => [Number(r.factory_id), { country: r.country }]));
}
