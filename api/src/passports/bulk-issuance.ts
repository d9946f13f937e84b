// Bulk issuance: the passports of many products (a list of UIDs, or every product of a CSV import) issued by one job.
// The request only records the job and its items; the job (any process running "bulk-issuance") claims the items a
// chunk at a time, each chunk in one transaction that inserts the issuance claims and takes their certificate units
// (a product with a claim already costs nothing), so a crash leaves a chunk wholly claimed or not at all. The mint
// pump then carries the claims in mintBatch transactions through the ledger, with its guarantees: one mint per UID,
// a crashed sender's claims picked up by any process. The job is over when every passport is final at the
// confirmation depth or failed for good; that move enqueues issuance.completed in the same transaction, so it is
// sent once.
import { crashPoint } from "../chain/crash-points";
import type { AppDeps } from "../deps";
import type { Knex } from "../db/knex";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { PeriodicJobBase, type RunContext } from "../jobs/periodic-job";
import { consumeQuotaUpTo } from "../metering/service";
import { effectiveLimits } from "../plans/catalogue";
import { emitIssuanceCompleted } from "../webhooks/emitters";
import {
  brandPlan,
  deleteClaims,
  findImportStatus,
  findIssuanceJob,
  insertClaims,
  insertIssuanceJob,
  issuanceJobCounts,
  issuingJobs,
  latestIssuanceJobOfImport,
  lockIssuanceJob,
  lockProductsForIssuance,
  lockUnclaimedItems,
  markItemsClaimed,
  productIdsByUid,
  productIdsOfImport,
  refuseItems,
  setJobState,
  type IssuanceJobCounts,
  type IssuanceJobRow,
} from "./bulk-issuance.repo";
import { claimFor } from "./issuance";
import { recordQuotaPeriod, retakeFailedClaim } from "./issuance.repo";
import { mintPumpOf } from "./mint-pump";

export type { IssuanceJobCounts, IssuanceJobRow };

/** UIDs one request may list; a larger run goes by its import. */
export const BULK_MAX_UIDS = 10_000;
/** Why an item is refused when the brand's monthly certificate limit is reached partway. */
export const REFUSED_MONTHLY_LIMIT = "monthly certificate limit reached";

export type BulkIssuance = IssuanceJobRow & IssuanceJobCounts;

/** What to issue: the brand's products named by UID, or every product a CSV import of the brand registered. */
export type BulkRequest = { uids: string[] } | { importId: number };

/**
 * Records a bulk issuance of the brand's products and returns it at once (its items are claimed by the job). UIDs
 * the brand does not have are refused (422, listed); an import of another brand is NOT_FOUND, one still running 409.
 */
export async function startBulkIssuance(deps: AppDeps, brandId: number, request: BulkRequest): Promise<BulkIssuance> {
  const { db } = deps;
  let productIds: number[];
  let importId: number | null = null;
  if ("uids" in request) {
    const uids = [...new Set(request.uids.map((uid) => uid.toUpperCase()))];
    const found = await productIdsByUid(db, brandId, uids);
    const unknown = uids.filter((uid) => !found.has(uid));
    if (unknown.length > 0) {
      throw new ValidationError(
        unknown.slice(0, 20).map((uid) => ({ field: "uids", problem: `no product ${uid} in this brand` })),
        `${unknown.length} of the UIDs name no product of this brand; nothing was issued.`,
      );
    }
    productIds = [...found.values()];
  } else {
    importId = request.importId;
    const status = await findImportStatus(db, brandId, importId);
    if (status === undefined) throw new NotFoundError("Import");
    if (status === "running") throw new ConflictError("The import is still running; issue its products once it has finished.");
    productIds = await productIdsOfImport(db, brandId, importId);
    if (productIds.length === 0) throw new ValidationError([{ field: "import_id", problem: "the import registered no product" }]);
  }
  const job = await db.transaction((trx) => insertIssuanceJob(trx, { brandId, importId, productIds }));
  bulkIssuanceOf(deps).wake();
  return { ...job, claimed: 0, minted: 0, confirmed: 0, failed: 0 };
}

/** The brand's bulk issuance with its progress; one of another brand is NOT_FOUND. */
export async function getBulkIssuance(deps: AppDeps, brandId: number, id: number): Promise<BulkIssuance> {
  const job = await findIssuanceJob(deps.db, brandId, id);
  if (!job) throw new NotFoundError("Bulk issuance");
  return { ...job, ...(await issuanceJobCounts(deps.db, job.id)) };
}

/** The latest bulk issuance of the products of one of the brand's imports (undefined: none); NOT_FOUND for no such import. */
export async function latestBulkIssuanceOfImport(deps: AppDeps, brandId: number, importId: number): Promise<BulkIssuance | undefined> {
  if ((await findImportStatus(deps.db, brandId, importId)) === undefined) throw new NotFoundError("Import");
  const job = await latestIssuanceJobOfImport(deps.db, brandId, importId);
  return job ? { ...job, ...(await issuanceJobCounts(deps.db, job.id)) } : undefined;
}

/**
 * Claims one chunk of unclaimed items (of the oldest job that has any) in one transaction: new claims are inserted in
 * one statement, their certificate units taken as far as the monthly limit allows (the rest refused, their claims
 * removed again before anyone saw them), a failed issuance is taken over as a single issuance would. False when no
 * job had unclaimed items.
 */
export async function claimChunk(deps: AppDeps, chunk = deps.config.bulkClaimChunk): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    const items = await lockUnclaimedItems(trx, chunk);
    if (!items) return false;
    const products = await lockProductsForIssuance(trx, items.productIds);
    const claimOf = (product: (typeof products)[number]) => claimFor(deps, product);
    const fresh = products.filter((p) => p.passport_status === null);
    const failed = products.filter((p) => p.passport_status === "failed");
    // A product with a claim or a passport already (another job, a single issuance) costs nothing: claimed as it is.
    const inserted = await insertClaims(trx, fresh.map(claimOf));
    const retaken: number[] = [];
    for (const product of failed) if ((await retakeFailedClaim(trx, claimOf(product))).length > 0) retaken.push(product.id);
    const taken = [...inserted, ...retaken];
    const limits = effectiveLimits(await brandPlan(trx, items.brandId));
    const quota = await consumeQuotaUpTo(trx, items.brandId, "certs", limits, taken.length);
    const kept = taken.slice(0, quota.granted);
    const refused = taken.slice(quota.granted);
    await deleteClaims(trx, refused.filter((id) => inserted.includes(id)));
    // A retaken failure past the limit goes back to failed, as it was.
    if (refused.some((id) => retaken.includes(id))) {
      await trx("app.passports").whereIn("product_id", refused.filter((id) => retaken.includes(id))).update({ status: "failed", error: REFUSED_MONTHLY_LIMIT });
    }
    await recordQuotaPeriods(trx, kept, quota.period);
    await refuseItems(trx, items.jobId, refused, REFUSED_MONTHLY_LIMIT);
    await markItemsClaimed(
      trx,
      items.jobId,
      items.productIds.filter((id) => !refused.includes(id)),
    );
    await setJobState(trx, items.jobId, "queued", "issuing").then(() => undefined);
    return true;
  });
}

async function recordQuotaPeriods(trx: Knex, productIds: number[], period: string): Promise<void> {
  if (productIds.length === 0) return;
  if (productIds.length === 1) return recordQuotaPeriod(trx, productIds[0]!, period);
  await trx("app.passports").whereIn("product_id", productIds).update({ quota_period: period });
}

/**
 * Ends the jobs whose every item is claimed and whose every passport is final or failed: state completed and
 * issuance.completed, in one transaction under the job's lock, so exactly once. Returns how many ended.
 */
export async function completeFinishedJobs(deps: AppDeps): Promise<number> {
  const { db, config } = deps;
  // A job is issuing from its first chunk on, while a replica may still claim its last: it completes only when no
  // item is left unclaimed.
  let ended = 0;
  for (const open of await issuingJobs(db, 100)) {
    const counts = await issuanceJobCounts(db, open.id);
    if (counts.confirmed + counts.failed < open.total) continue;
    const done = await db.transaction(async (trx) => {
      const job = await lockIssuanceJob(trx, open.id);
      if (job?.state !== "issuing") return false;
      const unclaimed = await trx("app.issuance_job_items").where({ job_id: job.id, claimed: false }).first("product_id");
      if (unclaimed) return false;
      const final = await issuanceJobCounts(trx, job.id);
      if (final.confirmed + final.failed < job.total) return false;
      await setJobState(trx, job.id, "issuing", "completed");
      await emitIssuanceCompleted(trx, {
        brandId: job.brand_id,
        jobId: job.id,
        importId: job.import_id === null ? null : Number(job.import_id),
        total: job.total,
        confirmed: final.confirmed,
        failed: final.failed,
        progressUrl: bulkIssuanceUrl(config.publicBaseUrl, job.id),
        at: new Date(),
      });
      return true;
    });
    if (done) ended += 1;
  }
  return ended;
}

/** Where a bulk issuance's progress is read (GET, with the brand's API key). */
export function bulkIssuanceUrl(publicBaseUrl: string, id: number): string {
  return `${publicBaseUrl}/api/v1/certs/bulk/${id}`;
}

/**
 * The "bulk-issuance" job: each run claims chunks until no job has unclaimed items (waking the mint pump after each,
 * so minting starts with the first chunk), then ends the jobs that are done. Woken by a new job in this process, and
 * polling for jobs of other (or crashed) processes and for passports becoming final.
 */
export class BulkIssuanceJob extends PeriodicJobBase<void> {
  constructor(private readonly deps: AppDeps) {
    super({ name: "bulk-issuance", intervalMs: deps.config.chainLedger.monitorIntervalMs, logger: deps.logger });
  }

  protected async run({ signal }: RunContext): Promise<void> {
    const pump = mintPumpOf(this.deps);
    while (!signal.aborted && (await claimChunk(this.deps))) {
      crashPoint("bulk-claimed");
      pump.wake();
    }
    await completeFinishedJobs(this.deps);
  }
}

const jobs = new WeakMap<object, BulkIssuanceJob>();

/** This process's bulk issuance job for the deps' chain (one per ChainAccess, like the mint pump). */
export function bulkIssuanceOf(deps: AppDeps): BulkIssuanceJob {
  let job = jobs.get(deps.chain);
  if (!job) {
    job = new BulkIssuanceJob(deps);
    jobs.set(deps.chain, job);
  }
  return job;
}
