// SQL of the back-up operator (migration 040): on a primary, the changes feed (its passports by the instant they last
// changed); on a back-up, the primaries it copies, the passports and verified versions it holds, and its refusals.
import type { Knex } from "../db/knex";
import type { ProductKey } from "../dpp/dpp.repo";

// ---- the primary's changes feed ---------------------------------------------------------------------------------

/** One passport of the feed: when it last changed, in microseconds since the epoch (Postgres' own precision). */
export type FeedRow = { dpp_id: string; changed_us: string };

/**
 * Passports that changed at or after `since` (a mint, a new anchored version, a lifecycle status change), ordered by
 * their latest change, then id; after `after` (the last row of the previous page) when given.
 */
export async function changesSince(db: Knex, since: Date, after: { changedUs: string; dppId: string } | undefined, limit: number): Promise<FeedRow[]> {
  const { rows } = await db.raw<{ rows: FeedRow[] }>(
    `SELECT p.dpp_id, (extract(epoch FROM max(c.at)) * 1000000)::bigint::text AS changed_us
       FROM (SELECT product_id, minted_at AS at FROM app.passports WHERE status = 'minted' AND minted_at >= :since
             UNION ALL
             SELECT product_id, anchored_at FROM app.product_versions WHERE status = 'anchored' AND anchored_at >= :since
             UNION ALL
             SELECT id, dpp_status_changed_at FROM app.products WHERE dpp_status_changed_at >= :since) c
       JOIN app.products p ON p.id = c.product_id
      GROUP BY p.dpp_id
     ${after ? "HAVING (max(c.at), p.dpp_id) > (timestamptz 'epoch' + :afterUs * interval '1 microsecond', :afterId)" : ""}
      ORDER BY max(c.at), p.dpp_id
      LIMIT :limit`,
    { since, limit, ...(after ? { afterUs: after.changedUs, afterId: after.dppId } : {}) },
  );
  return rows;
}

// ---- the back-up's copy -----------------------------------------------------------------------------------------

export type PrimaryRow = { id: number; base_url: string; high_water: Date | null; last_run_at: Date | null; last_success_at: Date | null; last_error: string | null };

/** The row of a configured primary, made on first use. */
export async function primaryRow(db: Knex, baseUrl: string): Promise<PrimaryRow> {
  await db("app.backup_primaries").insert({ base_url: baseUrl }).onConflict("base_url").ignore();
  return db("app.backup_primaries").where("base_url", baseUrl).first<PrimaryRow>();
}

/** A run's outcome: the instant it ran, and either its success (and the feed's new high-water mark) or its error. */
export async function recordRun(db: Knex, primaryId: number, outcome: { ok: true; highWater: Date | null } | { ok: false; error: string }): Promise<void> {
  const now = db.fn.now();
  await db("app.backup_primaries")
    .where("id", primaryId)
    .update(
      outcome.ok
        ? { last_run_at: now, last_success_at: now, last_error: null, ...(outcome.highWater ? { high_water: outcome.highWater } : {}) }
        : { last_run_at: now, last_error: outcome.error.slice(0, 500) },
    );
}

export type HeldPassport = {
  dpp_id: string;
  primary_id: number;
  uid: string;
  token_id: string;
  granularity: "model" | "batch" | "item";
  header: Record<string, unknown>;
};

export type HeldVersion = { version: number; data_hash: string; content: string; valid_from: Date; tx_hash: string; block_number: string };

export async function heldPassport(db: Knex, dppId: string): Promise<HeldPassport | undefined> {
  return db("app.backup_passports").where("dpp_id", dppId).first<HeldPassport | undefined>("dpp_id", "primary_id", "uid", "token_id", "granularity", "header");
}

/** What access classes need of a held passport, by its id or its UID. */
export async function heldAccessRow(db: Knex, by: { dppId: string } | { uid: string }): Promise<{ dpp_id: string; uid: string; public_withheld: string[] } | undefined> {
  const query = db("app.backup_passports").first<{ dpp_id: string; uid: string; public_withheld: string[] } | undefined>("dpp_id", "uid", "public_withheld");
  return "dppId" in by ? query.where("dpp_id", by.dppId) : query.where("uid", by.uid.toUpperCase());
}

/** The verified versions held of a passport, oldest first. */
export async function heldVersions(db: Knex, dppId: string): Promise<HeldVersion[]> {
  return db("app.backup_versions").where("dpp_id", dppId).orderBy("version").select<HeldVersion[]>("version", "data_hash", "content", "valid_from", "tx_hash", "block_number");
}

/** The held passport a product identifier names, most general first (as ReadDPPByProductId on the primary). */
export async function heldDppIdByKey(db: Knex, key: ProductKey): Promise<string | undefined> {
  const query = db("app.backup_passports").first<{ dpp_id: string } | undefined>("dpp_id");
  if ("uid" in key) query.where("uid", key.uid.toUpperCase());
  else {
    query.where("gtin", key.gtin);
    if (key.serial !== undefined) query.where("serial", key.serial);
    if (key.lot !== undefined) query.where("lot", key.lot);
  }
  return (await query.orderByRaw("CASE granularity WHEN 'model' THEN 0 WHEN 'batch' THEN 1 ELSE 2 END, dpp_id"))?.dpp_id;
}

export type PassportCopy = Omit<HeldPassport, "header"> & { header: string; gtin: string | null; lot: string | null; serial: string | null; public_withheld: string[] };

/** Saves a passport's header and identifiers, and its newly verified versions, at once. */
export async function savePassportCopy(db: Knex, passport: PassportCopy, versions: HeldVersion[]): Promise<void> {
  await db.transaction(async (trx) => {
    await trx("app.backup_passports")
      .insert({ ...passport, synced_at: trx.fn.now() })
      .onConflict("dpp_id")
      .merge(["header", "granularity", "gtin", "lot", "serial", "public_withheld", "synced_at"]);
    if (versions.length > 0) {
      await trx("app.backup_versions")
        .insert(versions.map((v) => ({ dpp_id: passport.dpp_id, ...v })))
        .onConflict(["dpp_id", "version"])
        .ignore();
      await trx("app.backup_refusals").where("dpp_id", passport.dpp_id).whereIn("version", versions.map((v) => v.version)).del();
    }
  });
}

export type Refusal = { dpp_id: string; version: number; primary_id: number; reason: string; computed_hash: string | null; chain_hash: string | null };

/** Records a refused version (once per passport and version; a repeat counts and keeps the latest reason). */
export async function recordRefusal(db: Knex, refusal: Refusal): Promise<void> {
  await db("app.backup_refusals")
    .insert(refusal)
    .onConflict(["dpp_id", "version"])
    .merge({ reason: refusal.reason, computed_hash: refusal.computed_hash, chain_hash: refusal.chain_hash, last_at: db.fn.now(), times: db.raw("app.backup_refusals.times + 1") });
}

export type PrimaryStatus = PrimaryRow & { passports: number; versions: number; refused: number };

/** Each primary with what is held of it and refused. */
export async function backupStatus(db: Knex): Promise<PrimaryStatus[]> {
  const { rows } = await db.raw<{ rows: PrimaryStatus[] }>(`
    SELECT p.*,
           (SELECT count(*) FROM app.backup_passports bp WHERE bp.primary_id = p.id)::int AS passports,
           (SELECT count(*) FROM app.backup_versions bv JOIN app.backup_passports bp USING (dpp_id) WHERE bp.primary_id = p.id)::int AS versions,
           (SELECT count(*) FROM app.backup_refusals r WHERE r.primary_id = p.id)::int AS refused
      FROM app.backup_primaries p ORDER BY p.id`);
  return rows;
}

/** The refusals of a primary, latest first (at most `limit`). */
export async function refusalsOf(db: Knex, primaryId: number, limit: number): Promise<Array<Refusal & { last_at: Date; times: number }>> {
  return db("app.backup_refusals").where("primary_id", primaryId).orderBy("last_at", "desc").limit(limit).select("*");
}
