// SQL for brands' custom domains (app.custom_domains): a brand's domain, the checker's claims and results, and the
// indexed lookups Host routing and the TLS ask endpoint make (by hostname, by slug, a product's brand by UID).
import type { Knex } from "../db/knex";
import type { BrandAddress } from "../links";

/**
 * pending: checked until verified or its window ends (failed); released: another brand verified the hostname first.
 * Only a verified domain holds its hostname: another brand may claim one pending, failed or released elsewhere.
 */
export type DomainStatus = "pending" | "verified" | "failed" | "released" | "removed";

export type CustomDomainRow = {
  id: number;
  brand_id: number;
  hostname: string;
  verify_token: string;
  status: DomainStatus;
  cname_ok: boolean | null;
  cname_detail: string | null;
  cname_checked_at: Date | null;
  txt_ok: boolean | null;
  txt_detail: string | null;
  txt_checked_at: Date | null;
  checks: number;
  window_started_at: Date;
  next_check_at: Date | null;
  manual_check_at: Date | null;
  verified_at: Date | null;
  failed_at: Date | null;
  failure_reason: string | null;
  removed_at: Date | null;
  created_at: Date;
};

/** A brand as a request's host names it, with whether it is active. */
export type HostBrandRow = { id: number; slug: string; name: string; status: string };
/** What a hostname registered as a custom domain is now: its brand, and the domain's status. */
export type HostnameRow = HostBrandRow & { domain_status: DomainStatus };

const UNIQUE_VIOLATION = "23505";

/** The brand's domain (removed ones aside). */
export async function findDomainOfBrand(db: Knex, brandId: number): Promise<CustomDomainRow | undefined> {
  return db("app.custom_domains").where({ brand_id: brandId }).whereNot({ status: "removed" }).first<CustomDomainRow | undefined>();
}

/** The domain verified with `hostname`, if one is: the only claim that holds a hostname. */
export async function findVerifiedDomain(db: Knex, hostname: string): Promise<CustomDomainRow | undefined> {
  return db("app.custom_domains").where({ hostname, status: "verified" }).first<CustomDomainRow | undefined>();
}

/**
 * Serialises, until the transaction ends, the verifications of `hostname`: of two brands' claims checked at once, the
 * second sees the first verified (the unique index on verified hostnames would refuse it anyway).
 */
export async function lockHostname(trx: Knex, hostname: string): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext(?))", [`custom_domains:${hostname}`]);
}

/**
 * Releases every other brand's unverified claim of `hostname` (pending or failed) once one is verified; returns them as
 * they are now, for their brands' audit logs.
 */
export async function releaseOtherClaims(trx: Knex, hostname: string, verifiedId: number, reason: string): Promise<CustomDomainRow[]> {
  return trx("app.custom_domains")
    .where({ hostname })
    .whereNot({ id: verifiedId })
    .whereIn("status", ["pending", "failed"])
    .update({ status: "released", failure_reason: reason, next_check_at: null, updated_at: trx.fn.now() })
    .returning<CustomDomainRow[]>("*");
}

/**
 * Adds the brand's domain, due for its first check now. Returns which unique index refused it, if one did: the
 * brand's (it has a domain already). A hostname claimed but not verified elsewhere is no obstacle.
 */
export async function insertDomain(
  db: Knex,
  domain: { brandId: number; hostname: string; verifyToken: string },
): Promise<{ row: CustomDomainRow } | { taken: "hostname" | "brand" }> {
  try {
    const [row] = await db("app.custom_domains")
      .insert({ brand_id: domain.brandId, hostname: domain.hostname, verify_token: domain.verifyToken, next_check_at: db.fn.now() })
      .returning<CustomDomainRow[]>("*");
    return { row: row! };
  } catch (error) {
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code !== UNIQUE_VIOLATION) throw error;
    return { taken: constraint === "custom_domains_live_brand" ? "brand" : "hostname" };
  }
}

/**
 * Marks the brand's domain removed (kept, so its hostname answers 404 rather than the main site); returns it as it
 * was. Run it in a transaction: the row is locked first, so the status returned is the one removed.
 */
export async function markDomainRemoved(trx: Knex, brandId: number): Promise<CustomDomainRow | undefined> {
  const before = await trx("app.custom_domains").where({ brand_id: brandId }).whereNot({ status: "removed" }).forUpdate().first<CustomDomainRow | undefined>();
  if (!before) return undefined;
  await trx("app.custom_domains")
    .where({ id: before.id })
    .update({ status: "removed", removed_at: trx.fn.now(), next_check_at: null, updated_at: trx.fn.now() });
  return before;
}

/**
 * Claims up to `limit` pending domains whose check is due, for `leaseMs`: their next_check_at moves past the lease
 * in the claiming transaction, so another replica's checker (SKIP LOCKED meanwhile) does not check them too, and a
 * checker that dies mid-check leaves them due again once the lease is over.
 */
export async function claimDueDomains(db: Knex, limit: number, leaseMs: number): Promise<CustomDomainRow[]> {
  return db.transaction(async (trx) => {
    const due = await trx("app.custom_domains")
      .where({ status: "pending" })
      .where("next_check_at", "<=", trx.fn.now())
      .orderBy("next_check_at")
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .select<Array<{ id: number }>>("id");
    if (due.length === 0) return [];
    return trx("app.custom_domains")
      .whereIn("id", due.map((row) => row.id))
      .update({ next_check_at: trx.raw("now() + make_interval(secs => ?)", [leaseMs / 1000]) })
      .returning<CustomDomainRow[]>("*");
  });
}

/**
 * Takes the brand's "Check now" if the last one is at least `intervalSeconds` old (one statement, so two replicas
 * cannot both take it); undefined when it is too soon.
 */
export async function takeManualCheck(db: Knex, brandId: number, intervalSeconds: number): Promise<CustomDomainRow | undefined> {
  const [row] = await db("app.custom_domains")
    .where({ brand_id: brandId })
    .whereNot({ status: "removed" })
    .where((q) => q.whereNull("manual_check_at").orWhere("manual_check_at", "<=", db.raw("now() - make_interval(secs => ?)", [intervalSeconds])))
    .update({ manual_check_at: db.fn.now() })
    .returning<CustomDomainRow[]>("*");
  return row;
}

/** A failed or released domain checked again by hand: a new verification window, as if just added. */
export async function reopenDomain(db: Knex, id: number): Promise<CustomDomainRow | undefined> {
  const [row] = await db("app.custom_domains")
    .where({ id })
    .whereIn("status", ["failed", "released"])
    .update({ status: "pending", checks: 0, window_started_at: db.fn.now(), failed_at: null, failure_reason: null, next_check_at: db.fn.now(), updated_at: db.fn.now() })
    .returning<CustomDomainRow[]>("*");
  return row;
}

export type CheckRecord = {
  cname: { ok: boolean; detail: string };
  txt: { ok: boolean; detail: string };
  at: Date;
  /**
   * What the check decided: verified, failed (with the reason), released (another brand verified the hostname first,
   * with the reason), or checked again at `nextCheckAt`.
   */
  outcome: { status: "verified" } | { status: "failed" | "released"; reason: string } | { status: "pending"; nextCheckAt: Date };
};

/**
 * Writes a check's results, if the domain is still the pending one that was checked (not removed, not re-added, not
 * settled by another check meanwhile). Returns the row as written, or undefined when nothing was.
 */
export async function recordCheck(db: Knex, id: number, check: CheckRecord): Promise<CustomDomainRow | undefined> {
  const { outcome } = check;
  const [row] = await db("app.custom_domains")
    .where({ id, status: "pending" })
    .update({
      cname_ok: check.cname.ok,
      cname_detail: check.cname.detail,
      cname_checked_at: check.at,
      txt_ok: check.txt.ok,
      txt_detail: check.txt.detail,
      txt_checked_at: check.at,
      checks: db.raw("checks + 1"),
      // status only when it changes: its trigger tells every API process that routing changed.
      ...(outcome.status === "pending" ? { next_check_at: outcome.nextCheckAt } : { status: outcome.status, next_check_at: null }),
      ...(outcome.status === "verified" ? { verified_at: check.at } : {}),
      ...(outcome.status === "failed" ? { failed_at: check.at, failure_reason: outcome.reason } : {}),
      ...(outcome.status === "released" ? { failure_reason: outcome.reason } : {}),
      updated_at: db.fn.now(),
    })
    .returning<CustomDomainRow[]>("*");
  return row;
}

/**
 * What `hostname` is as a custom domain (index on hostname): the verified domain if there is one, else the latest
 * domain not removed, else the latest removed one; undefined for a hostname never added.
 */
export async function findHostname(db: Knex, hostname: string): Promise<HostnameRow | undefined> {
  return db("app.custom_domains as d")
    .join("app.brands as b", "b.id", "d.brand_id")
    .where("d.hostname", hostname)
    .orderByRaw("(d.status = 'verified') DESC, (d.status = 'removed'), d.id DESC")
    .first<HostnameRow | undefined>("b.id", "b.slug", "b.name", "b.status", "d.status as domain_status");
}

/** The brand with `slug` (unique index on slug): the one its subdomain serves. */
export async function findBrandBySlug(db: Knex, slug: string): Promise<HostBrandRow | undefined> {
  return db("app.brands").where({ slug }).first<HostBrandRow | undefined>("id", "slug", "name", "status");
}

/** The brand of a product UID (unique index on uid; UIDs are stored upper case), undefined for an unknown UID. */
export async function findBrandIdOfProduct(db: Knex, uid: string): Promise<number | undefined> {
  const row = await db("app.products").where({ uid: uid.toUpperCase() }).first<{ brand_id: number } | undefined>("brand_id");
  return row?.brand_id;
}

/** A brand's address for its absolute URLs (links.ts): its slug and verified custom domain; undefined for no brand. */
export async function findBrandAddress(db: Knex, brandId: number): Promise<BrandAddress | undefined> {
  const row = await db("app.brands as b")
    .leftJoin("app.custom_domains as d", (on) => on.on("d.brand_id", "b.id").andOnVal("d.status", "verified"))
    .where("b.id", brandId)
    .first<{ slug: string; hostname: string | null } | undefined>("b.slug", "d.hostname");
  return row && { slug: row.slug, customDomain: row.hostname };
}
