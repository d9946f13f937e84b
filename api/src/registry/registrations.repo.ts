// SQL of the registry registrations (migration 038): one row per passport version, queued, worked under a lease by
// the "registry-registration" job (each write checked against the claim's token), and read back for the passport's
// header and the dashboard.
import { withDates } from "../db/json-rows";
import type { Knex } from "../db/knex";

export type RegistrationState = "queued" | "registered" | "failed";

export type RegistrationRow = {
  id: string;
  product_id: number;
  version: number;
  brand_id: number;
  state: RegistrationState;
  attempts: number;
  /** When due; while claimed, when the claim's lease ends. */
  next_attempt_at: Date;
  /** While claimed, when the claim's lease ends (shown for operators; null once settled or put back). */
  lease_until: Date | null;
  registry_id: string | null;
  data_hash: string | null;
  proof_jwt: string | null;
  proof_timestamp: Date | null;
  registered_at: Date | null;
  error: string | null;
  created_at: Date;
};

const TABLE = "app.registry_registrations";

/** Its columns holding times, which a row read as JSON (row_to_json) has as text. */
const TIME_COLUMNS = ["next_attempt_at", "lease_until", "proof_timestamp", "registered_at", "created_at"] as const;

/** A registration read as a JSON object (a subquery's row_to_json) as a RegistrationRow: its id as text, its times as Dates. */
export function registrationFromJson(json: Record<string, unknown>): RegistrationRow {
  return withDates<RegistrationRow>({ ...json, id: String(json.id) }, TIME_COLUMNS);
}

/** Queues the registration of each (product, version) not queued before; answers every one's row, queued now or before. */
export async function queueRegistrations(db: Knex, rows: Array<{ product_id: number; version: number; brand_id: number; data_hash: string }>): Promise<RegistrationRow[]> {
  if (rows.length === 0) return [];
  await db(TABLE).insert(rows).onConflict(["product_id", "version"]).ignore();
  return db(TABLE)
    .whereIn(
      ["product_id", "version"],
      rows.map((r) => [r.product_id, r.version]),
    )
    .select<RegistrationRow[]>("*");
}

/**
 * Queues the latest anchored version of every passport of a brand with automatic registration that has no
 * registration of that version (or a later one) yet: issuance and every new version. Answers how many it queued.
 */
export async function queueAutomaticRegistrations(db: Knex, limit: number): Promise<number> {
  const result = await db.raw(
    `INSERT INTO app.registry_registrations (product_id, version, brand_id, data_hash)
     SELECT h.product_id, h.version, p.brand_id, h.data_hash
       FROM app.brands b
       JOIN app.products p ON p.brand_id = b.id
       JOIN app.passport_version_history h ON h.product_id = p.id
      WHERE b.registry_auto
        AND h.version = (SELECT max(l.version) FROM app.passport_version_history l WHERE l.product_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM app.registry_registrations r WHERE r.product_id = p.id AND r.version >= h.version)
      LIMIT ?
     ON CONFLICT (product_id, version) DO NOTHING`,
    [limit],
  );
  return (result as { rowCount: number }).rowCount;
}

/**
 * A worker's hold on a registration: the row's id and its `attempts` when claimed. Every claim counts an attempt, so
 * `attempts` is the claim's token: once another worker re-claims the row (its lease ran out), the earlier worker's
 * writes match no row and change nothing.
 */
export type RegistrationClaim = Pick<RegistrationRow, "id" | "attempts">;

/**
 * Claims up to `limit` due registrations, oldest due first, for `leaseMs` (a crashed worker's claims lapse and are
 * taken again): each claim counts as an attempt, and its `attempts` is its token (RegistrationClaim).
 */
export async function claimDueRegistrations(db: Knex, limit: number, leaseMs: number): Promise<RegistrationRow[]> {
  const result = await db.raw(
    `UPDATE app.registry_registrations SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ? / 1000.0),
            lease_until = now() + make_interval(secs => ? / 1000.0), updated_at = now()
      WHERE id IN (SELECT id FROM app.registry_registrations
                    WHERE state = 'queued' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    [leaseMs, leaseMs, limit],
  );
  return (result as { rows: RegistrationRow[] }).rows;
}

/** The row of `claim` while the claim holds it: queued, and not claimed again since. */
const held = (db: Knex, claim: RegistrationClaim) => db(TABLE).where({ id: claim.id, state: "queued", attempts: claim.attempts });

/** Settles a claimed registration as registered; answers false (and changes nothing) when the claim was lost. */
export async function markRegistered(db: Knex, claim: RegistrationClaim, fields: { registryId: string; proofJwt: string | null; proofTimestamp: Date | null }): Promise<boolean> {
  const updated = await held(db, claim).update({
    state: "registered",
    registry_id: fields.registryId,
    proof_jwt: fields.proofJwt,
    proof_timestamp: fields.proofTimestamp,
    registered_at: db.fn.now(),
    lease_until: null,
    error: null,
    updated_at: db.fn.now(),
  });
  return updated > 0;
}

/** Settles a claimed registration as failed; answers false (and changes nothing) when the claim was lost. */
export async function markFailed(db: Knex, claim: RegistrationClaim, error: string): Promise<boolean> {
  const updated = await held(db, claim).update({ state: "failed", error: error.slice(0, 2000), lease_until: null, updated_at: db.fn.now() });
  return updated > 0;
}

/**
 * Leaves claimed registrations queued, each due again after `delayMs(its attempts)`, with the reason it was not done
 * this time; a registration claimed again by another worker since is left alone (its lease is that worker's).
 */
export async function retryLater(db: Knex, claims: RegistrationClaim[], error: string, delayMs: (attempts: number) => number): Promise<void> {
  for (const claim of claims) {
    await held(db, claim).update({ next_attempt_at: new Date(Date.now() + delayMs(claim.attempts)), lease_until: null, error: error.slice(0, 2000), updated_at: db.fn.now() });
  }
}

/** Sets a failed registration queued again (a new request for it), due now. */
export async function requeueFailed(db: Knex, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db(TABLE).whereIn("id", ids).where("state", "failed").update({ state: "queued", next_attempt_at: db.fn.now(), error: null, updated_at: db.fn.now() });
}

/** The registration of a passport's version `version`, or of its latest registered or queued version. */
export async function registrationOfVersion(db: Knex, productId: number, version?: number): Promise<RegistrationRow | undefined> {
  const query = db(TABLE).where("product_id", productId);
  if (version !== undefined) query.where("version", version);
  return query.orderBy("version", "desc").first<RegistrationRow | undefined>("*");
}

/** Every registration of a passport, newest version first. */
export async function registrationsOf(db: Knex, productId: number): Promise<RegistrationRow[]> {
  return db(TABLE).where("product_id", productId).orderBy("version", "desc").select<RegistrationRow[]>("*");
}

export async function registrationsByIds(db: Knex, ids: string[]): Promise<RegistrationRow[]> {
  return db(TABLE).whereIn("id", ids).orderBy("id").select<RegistrationRow[]>("*");
}

/** Turns a brand's automatic registration on or off. */
export async function setRegistryAuto(db: Knex, brandId: number, on: boolean): Promise<void> {
  await db("app.brands").where("id", brandId).update({ registry_auto: on });
}

export async function registryAutoOf(db: Knex, brandId: number): Promise<boolean> {
  const row = await db("app.brands").where("id", brandId).first<{ registry_auto: boolean } | undefined>("registry_auto");
  return row?.registry_auto ?? false;
}

/** The canonical content of each (product, version) that kept it (migration 033), keyed `<product_id>/<version>`. */
export async function versionContents(db: Knex, pairs: Array<{ product_id: number; version: number }>): Promise<Map<string, string | null>> {
  if (pairs.length === 0) return new Map();
  const rows = await db("app.passport_version_history")
    .whereIn(
      ["product_id", "version"],
      pairs.map((p) => [p.product_id, p.version]),
    )
    .select<Array<{ product_id: number; version: number; content: string | null }>>("product_id", "version", "content");
  return new Map(rows.map((r) => [`${r.product_id}/${r.version}`, r.content]));
}

/**
 * A registered header field changed (the brand's economic operator id, or a factory's GLN or Open Supply Hub id):
 * queues again, due now, the registration of the latest version of every passport of `scope` (the brand's, or those
 * made by the factory) whose brand has automatic registration on and whose latest version has a registration, so the
 * job uploads it with the new header (MODIFY at the registry) and keeps the new proof. One statement. A registration
 * claimed at the moment gets a new token (`attempts` + 1): the claim's late answer, built from the old header, matches
 * no row (RegistrationClaim). Answers how many it queued.
 */
export async function requeueForHeaderChange(db: Knex, scope: { brandId: number } | { factoryId: number }): Promise<number> {
  const [column, value] = "brandId" in scope ? ["p.brand_id", scope.brandId] : ["p.factory_id", scope.factoryId];
  const result = await db.raw(
    `UPDATE app.registry_registrations r
        SET state = 'queued', next_attempt_at = now(), lease_until = NULL, error = NULL, updated_at = now(),
            attempts = CASE WHEN r.state = 'queued' THEN r.attempts + 1 ELSE r.attempts END
       FROM app.products p JOIN app.brands b ON b.id = p.brand_id
      WHERE r.product_id = p.id AND ?? = ? AND b.registry_auto
        AND r.version = (SELECT max(h.version) FROM app.passport_version_history h WHERE h.product_id = p.id)
        AND (r.state <> 'queued' OR r.lease_until IS NOT NULL)`,
    [column, value],
  );
  return (result as { rowCount: number }).rowCount;
}
