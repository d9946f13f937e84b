// SQL of bulk issuance (app.issuance_jobs and their items): the job, its items claimed a chunk at a time, and its
// progress read from the items' passports (app.passports), so a passport is counted once however often it is read.
import type { Knex } from "../db/knex";
import { findProductsByIds, type ProductRow } from "../products/products.repo";
import type { IssuanceClaim } from "./issuance.repo";

export type IssuanceJobState = "queued" | "issuing" | "completed";

export type IssuanceJobRow = {
  id: number;
  brand_id: number;
  import_id: number | null;
  state: IssuanceJobState;
  total: number;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
};

/** What a job's items have come to, from their passports. */
export type IssuanceJobCounts = {
  /** Items whose claim (and quota unit) is taken, or that were issued before the job. */
  claimed: number;
  /** Passports mined (at any depth). */
  minted: number;
  /** Passports final at the confirmation depth. */
  confirmed: number;
  /** Items refused (the monthly certificate limit) or whose passport failed for good. */
  failed: number;
};

/** Inserts a queued job with one item per product (deduplicated); the job, with its total. */
export async function insertIssuanceJob(trx: Knex, job: { brandId: number; importId: number | null; productIds: number[] }): Promise<IssuanceJobRow> {
  const ids = [...new Set(job.productIds)];
  const [row] = await trx("app.issuance_jobs")
    .insert({ brand_id: job.brandId, import_id: job.importId, state: "queued", total: ids.length })
    .returning<IssuanceJobRow[]>("*");
  // One statement per 5,000 items: well inside Postgres' 65,535 bind parameters.
  for (let start = 0; start < ids.length; start += 5000) {
    await trx.raw("INSERT INTO app.issuance_job_items (job_id, product_id) SELECT ?, unnest(?::integer[])", [row!.id, ids.slice(start, start + 5000)]);
  }
  return row!;
}

export async function findIssuanceJob(db: Knex, brandId: number, id: number): Promise<IssuanceJobRow | undefined> {
  return db("app.issuance_jobs").where({ brand_id: brandId, id }).first<IssuanceJobRow | undefined>();
}

export async function latestIssuanceJobOfImport(db: Knex, brandId: number, importId: number): Promise<IssuanceJobRow | undefined> {
  return db("app.issuance_jobs").where({ brand_id: brandId, import_id: importId }).orderBy("id", "desc").first<IssuanceJobRow | undefined>();
}

/** The brand's products with these UIDs (canonical upper case): id by UID. */
export async function productIdsByUid(db: Knex, brandId: number, uids: string[]): Promise<Map<string, number>> {
  const rows = await db("app.products")
    .where({ brand_id: brandId })
    .whereIn("uid", uids)
    .select<Array<{ id: number; uid: string }>>("id", "uid");
  return new Map(rows.map((r) => [r.uid, r.id]));
}

/** Ids of the products an import registered. */
export async function productIdsOfImport(db: Knex, brandId: number, importId: number): Promise<number[]> {
  const rows = await db("app.products").where({ brand_id: brandId, import_id: importId }).orderBy("id").select<Array<{ id: number }>>("id");
  return rows.map((r) => r.id);
}

export async function findImportStatus(db: Knex, brandId: number, importId: number): Promise<string | undefined> {
  const row = await db("app.import_jobs").where({ brand_id: brandId, id: importId }).first<{ status: string } | undefined>("status");
  return row?.status;
}

/**
 * Locks up to `limit` unclaimed items of the oldest open job that has any (SKIP LOCKED: replicas take different
 * chunks), with the job's brand; [] when no job has unclaimed items.
 */
export async function lockUnclaimedItems(trx: Knex, limit: number): Promise<{ jobId: number; brandId: number; productIds: number[] } | undefined> {
  const { rows } = await trx.raw<{ rows: Array<{ job_id: number; brand_id: number; product_id: number }> }>(
    `WITH job AS (
       SELECT j.id, j.brand_id FROM app.issuance_jobs j
       WHERE j.state <> 'completed' AND EXISTS (SELECT 1 FROM app.issuance_job_items i WHERE i.job_id = j.id AND NOT i.claimed)
       ORDER BY j.id LIMIT 1
     )
     SELECT i.job_id, job.brand_id, i.product_id
     FROM app.issuance_job_items i JOIN job ON job.id = i.job_id
     WHERE NOT i.claimed
     ORDER BY i.product_id
     LIMIT ?
     FOR UPDATE OF i SKIP LOCKED`,
    [limit],
  );
  if (rows.length === 0) return undefined;
  return { jobId: Number(rows[0]!.job_id), brandId: rows[0]!.brand_id, productIds: rows.map((r) => r.product_id) };
}

/**
 * Locks the products (FOR NO KEY UPDATE, as a single issuance does: an edit either lands before and is minted, or
 * waits and sees the claim) and reads them as the mint anchors them, with the columns `passportContentFor` needs.
 */
export async function lockProductsForIssuance(trx: Knex, productIds: number[]): Promise<ProductRow[]> {
  await trx.raw("SELECT id FROM app.products WHERE id = ANY(?::integer[]) ORDER BY id FOR NO KEY UPDATE", [productIds]);
  return findProductsByIds(trx, productIds);
}

/** Inserts pending claims in one statement, skipping products that have one; the product ids inserted. */
export async function insertClaims(trx: Knex, claims: IssuanceClaim[]): Promise<number[]> {
  if (claims.length === 0) return [];
  const rows = await trx("app.passports")
    .insert(claims.map((c) => ({ ...c, requested_at: trx.fn.now(), error: null })))
    .onConflict("product_id")
    .ignore()
    .returning<Array<{ product_id: number }>>("product_id");
  return rows.map((r) => r.product_id);
}

/** Removes claims this transaction inserted and may not keep (past the monthly limit). */
export async function deleteClaims(trx: Knex, productIds: number[]): Promise<void> {
  if (productIds.length === 0) return;
  await trx("app.passports").whereIn("product_id", productIds).where({ status: "pending" }).whereNull("chain_tx_id").del();
}

export async function markItemsClaimed(trx: Knex, jobId: number, productIds: number[]): Promise<void> {
  if (productIds.length === 0) return;
  await trx("app.issuance_job_items").where({ job_id: jobId }).whereIn("product_id", productIds).update({ claimed: true });
}

export async function refuseItems(trx: Knex, jobId: number, productIds: number[], reason: string): Promise<void> {
  if (productIds.length === 0) return;
  await trx("app.issuance_job_items").where({ job_id: jobId }).whereIn("product_id", productIds).update({ claimed: true, refused: reason });
}

export async function setJobState(trx: Knex, id: number, from: IssuanceJobState, to: IssuanceJobState): Promise<IssuanceJobRow | undefined> {
  const [row] = await trx("app.issuance_jobs")
    .where({ id, state: from })
    .update({ state: to, updated_at: trx.fn.now(), ...(to === "completed" ? { completed_at: trx.fn.now() } : {}) })
    .returning<IssuanceJobRow[]>("*");
  return row;
}

/** The job's counters, from its items and their passports. */
export async function issuanceJobCounts(db: Knex, jobId: number): Promise<IssuanceJobCounts> {
  const { rows } = await db.raw<{ rows: Array<Record<keyof IssuanceJobCounts, string>> }>(
    `SELECT count(*) FILTER (WHERE i.claimed AND i.refused IS NULL) AS claimed,
            count(*) FILTER (WHERE i.refused IS NULL AND x.status = 'minted') AS minted,
            count(*) FILTER (WHERE i.refused IS NULL AND x.status = 'minted' AND x.events_sent) AS confirmed,
            count(*) FILTER (WHERE i.refused IS NOT NULL OR x.status = 'failed') AS failed
     FROM app.issuance_job_items i LEFT JOIN app.passports x ON x.product_id = i.product_id
     WHERE i.job_id = ?`,
    [jobId],
  );
  const row = rows[0]!;
  return { claimed: Number(row.claimed), minted: Number(row.minted), confirmed: Number(row.confirmed), failed: Number(row.failed) };
}

/** Open jobs whose every item is claimed or refused (their state: issuing), oldest first. */
export async function issuingJobs(db: Knex, limit: number): Promise<IssuanceJobRow[]> {
  return db("app.issuance_jobs").where({ state: "issuing" }).orderBy("id").limit(limit).select<IssuanceJobRow[]>("*");
}

/** The job's row locked for the rest of the transaction (its completion is decided once). */
export async function lockIssuanceJob(trx: Knex, id: number): Promise<IssuanceJobRow | undefined> {
  return trx("app.issuance_jobs").where({ id }).forUpdate().first<IssuanceJobRow | undefined>();
}

export async function brandPlan(db: Knex, brandId: number): Promise<{ plan: string; limit_overrides: Record<string, unknown> | null }> {
  return (await db("app.brands").where({ id: brandId }).first<{ plan: string; limit_overrides: Record<string, unknown> | null }>("plan", "limit_overrides"))!;
}
