// SQL of NFC tags as records (app.tags) and of every checked tap (app.tag_taps): the tags a tap is tried against,
// the one conditional UPDATE that accepts a counter, provisioning, binding a tag to a product, and the dashboard list.
import type { Knex } from "../db/knex";
import type { TagChip, TagStatus, TapVerdict } from "./verdicts";

export type TagRecord = { id: number; brandId: number; tagUid: string; chip: TagChip; keyVersion: number; status: TagStatus; productId: number | null };

type TagRow = { id: string | number; brand_id: number; tag_uid: string; chip: TagChip; key_version: number; status: TagStatus; product_id: number | null };

const TAG_COLUMNS = ["id", "brand_id", "tag_uid", "chip", "key_version", "status", "product_id"] as const;

/** ids are bigserial, which pg hands over as strings. */
function recordOf(row: TagRow): TagRecord {
  return { id: Number(row.id), brandId: row.brand_id, tagUid: row.tag_uid, chip: row.chip, keyVersion: row.key_version, status: row.status, productId: row.product_id };
}

/** The signing (NTAG 424 DNA) tags bound to the product and in service, newest first, at most `limit`. */
export async function signingTagsOf(db: Knex, productId: number, limit: number): Promise<TagRecord[]> {
  const rows = await db("app.tags")
    .where({ product_id: productId, status: "active", chip: "NTAG424" })
    .orderBy("id", "desc")
    .limit(limit)
    .select<TagRow[]>(...TAG_COLUMNS);
  return rows.map(recordOf);
}

/**
 * The brand's signing tags not bound to `productId` that a tap on its URL may come from, two bounded sets by index:
 * those whose provisioned URL is this product's (their binding moved since they were encoded), and those tapped most
 * recently anywhere (a live tag's URL copied onto another product).
 */
export async function notBoundCandidates(db: Knex, brandId: number, productId: number, limits: { encodedHere: number; recent: number }): Promise<TagRecord[]> {
  const columns = TAG_COLUMNS.join(", ");
  const { rows } = await db.raw<{ rows: TagRow[] }>(
    `(SELECT ${columns} FROM app.tags
       WHERE url_product_id = :product AND brand_id = :brand AND chip = 'NTAG424' AND status <> 'retired' AND product_id IS DISTINCT FROM :product
       ORDER BY id DESC LIMIT :encodedHere)
     UNION
     (SELECT ${columns} FROM app.tags
       WHERE brand_id = :brand AND chip = 'NTAG424' AND last_tap_at IS NOT NULL AND status <> 'retired' AND product_id IS DISTINCT FROM :product
       ORDER BY last_tap_at DESC LIMIT :recent)`,
    { product: productId, brand: brandId, encodedHere: limits.encodedHere, recent: limits.recent },
  );
  return rows.map(recordOf);
}

export type TapRow = { brandId: number; productId: number; tagId: number | null; counter: number | null; region: string | null };

/**
 * Accepts a genuine tap of `tagId` if its counter is above the last one accepted, and records it, in one statement:
 * the UPDATE takes the tag's row lock and re-checks `last_counter < counter` on the row as committed by whoever held
 * it, so of concurrent taps with the same counter exactly one updates a row and is `authentic`; the others, and any
 * tap with a counter not above the last, are recorded as `replayed`.
 */
export async function acceptTap(db: Knex, tap: TapRow & { tagId: number; counter: number }): Promise<"authentic" | "replayed"> {
  // A replay is recorded here only when accepted is empty and the caller may record one (recordReplay); otherwise the
  // statement records nothing for it and the caller decides (tags/verification.ts bounds replays per client).
  const { rows } = await db.raw<{ rows: Array<{ verdict: "authentic" | "replayed" }> }>(
    `WITH accepted AS (
       UPDATE app.tags SET last_counter = CAST(:counter AS integer), last_tap_at = now()
        WHERE id = CAST(:tag AS bigint) AND last_counter < CAST(:counter AS integer)
       RETURNING id
     )
     INSERT INTO app.tag_taps (brand_id, product_id, tag_id, verdict, counter, client_region)
     SELECT CAST(:brand AS integer), CAST(:product AS integer), CAST(:tag AS bigint),
            'authentic', CAST(:counter AS integer), CAST(:region AS text)
      WHERE EXISTS (SELECT 1 FROM accepted)
     RETURNING verdict`,
    { counter: tap.counter, tag: tap.tagId, brand: tap.brandId, product: tap.productId, region: tap.region },
  );
  return rows[0]?.verdict ?? "replayed";
}

/**
 * Reserves one of the `limit` tap rows a client may add in this hour for verdicts anyone can produce at will (a
 * forged, unknown or replayed URL); false once the client has used them. Kept in app.scan_client_hours under a
 * "tap:" key, so the scan admissions' pruning forgets past hours. Committed asynchronously, like scan admissions.
 */
export async function reserveTapRecord(db: Knex, clientKey: string, limit: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: Array<{ count: number }> }>(
    `INSERT INTO app.scan_client_hours AS h (client_key, hour, count) VALUES (?, date_trunc('hour', now()), 1)
     ON CONFLICT (client_key, hour) DO UPDATE SET count = h.count + 1 WHERE h.count < ?
     RETURNING count, set_config('synchronous_commit', 'off', true) AS async_commit`,
    [`tap:${clientKey}`, limit],
  );
  return rows.length > 0;
}

/** Records a tap whose verdict needs no counter update (everything but authentic and replayed). */
export async function insertTap(db: Knex, tap: TapRow & { verdict: Exclude<TapVerdict, "authentic"> }): Promise<void> {
  await db("app.tag_taps").insert({ brand_id: tap.brandId, product_id: tap.productId, tag_id: tap.tagId, verdict: tap.verdict, counter: tap.counter, client_region: tap.region });
}

/** Of `tagUids`, those another brand holds a record of. */
export async function tagUidsHeldByOthers(db: Knex, brandId: number, tagUids: string[]): Promise<string[]> {
  if (tagUids.length === 0) return [];
  const rows = await db("app.tags").whereIn("tag_uid", tagUids).whereNot({ brand_id: brandId }).orderBy("tag_uid").select<Array<{ tag_uid: string }>>("tag_uid");
  return rows.map((row) => row.tag_uid);
}

/** Product ids of the brand by UID (upper case); UIDs of other brands or of nothing are absent from the map. */
export async function productIdsByUid(db: Knex, brandId: number, uids: string[]): Promise<Map<string, number>> {
  if (uids.length === 0) return new Map();
  const rows = await db("app.products").where({ brand_id: brandId }).whereIn("uid", uids).select<Array<{ id: number; uid: string }>>("id", "uid");
  return new Map(rows.map((row) => [row.uid, row.id]));
}

export type ProvisionedRow = { tagUid: string; productId: number | null };

/**
 * Of the batch, the brand's tags a provisioning may not change: bound to a product other than the one the batch
 * gives it (`bound`), or NTAG 424 tags with an accepted tap that the batch calls NTAG215 (`downgraded`).
 */
export async function provisioningConflicts(
  trx: Knex,
  brandId: number,
  batch: { chip: TagChip; rows: ProvisionedRow[] },
): Promise<{ bound: Array<{ tagUid: string; productUid: string }>; downgraded: string[] }> {
  if (batch.rows.length === 0) return { bound: [], downgraded: [] };
  const existing = await trx("app.tags as t")
    .leftJoin("app.products as p", "p.id", "t.product_id")
    .where("t.brand_id", brandId)
    .whereIn("t.tag_uid", batch.rows.map((row) => row.tagUid))
    .select<Array<{ tag_uid: string; product_id: number | null; product_uid: string | null; chip: TagChip; last_counter: number }>>(
      "t.tag_uid",
      "t.product_id",
      "p.uid as product_uid",
      "t.chip",
      "t.last_counter",
    );
  const wanted = new Map(batch.rows.map((row) => [row.tagUid, row.productId]));
  const bound = existing
    .filter((tag) => tag.product_id !== null && wanted.get(tag.tag_uid) != null && wanted.get(tag.tag_uid) !== tag.product_id)
    .map((tag) => ({ tagUid: tag.tag_uid, productUid: tag.product_uid ?? "" }));
  const downgraded = batch.chip === "NTAG215" ? existing.filter((tag) => tag.chip === "NTAG424" && tag.last_counter >= 0).map((tag) => tag.tag_uid) : [];
  return { bound, downgraded };
}

/**
 * Creates or updates the brand's records of a batch of tags: chip and key version as given; a tag given a product is
 * bound to it (active) and remembers it as the product its URL points to; one given none keeps its binding. Returns
 * the UIDs written: a UID another brand holds is not written (the caller compares, inside its transaction).
 */
export async function upsertProvisionedTags(trx: Knex, brandId: number, batch: { chip: TagChip; keyVersion: number; rows: ProvisionedRow[] }): Promise<string[]> {
  if (batch.rows.length === 0) return [];
  const { rows } = await trx.raw<{ rows: Array<{ tag_uid: string }> }>(
    `INSERT INTO app.tags AS t (brand_id, tag_uid, chip, key_version, status, product_id, url_product_id)
     SELECT CAST(:brand AS integer), x.tag_uid, CAST(:chip AS text), CAST(:version AS integer),
            CASE WHEN x.product_id IS NULL THEN 'unassigned' ELSE 'active' END, x.product_id, x.product_id
       FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS x(tag_uid text, product_id integer)
     ON CONFLICT (tag_uid) DO UPDATE SET
       chip = excluded.chip,
       key_version = excluded.key_version,
       product_id = COALESCE(excluded.product_id, t.product_id),
       url_product_id = COALESCE(excluded.url_product_id, t.url_product_id),
       status = CASE WHEN COALESCE(excluded.product_id, t.product_id) IS NULL THEN 'unassigned' ELSE 'active' END
     WHERE t.brand_id = excluded.brand_id
     RETURNING t.tag_uid`,
    {
      brand: brandId,
      chip: batch.chip,
      version: batch.keyVersion,
      rows: JSON.stringify(batch.rows.map((row) => ({ tag_uid: row.tagUid, product_id: row.productId }))),
    },
  );
  return rows.map((row) => row.tag_uid);
}

/**
 * The brand's record of a tag being assigned to a product on chain, created if new (unassigned until the chain
 * confirms): `chip` when the request named one, else the record's own, else NTAG215 (a tag nobody said can sign).
 * Undefined when another brand holds the UID.
 */
export async function ensureTagRecord(trx: Knex, tag: { brandId: number; tagUid: string; chip: TagChip | undefined; keyVersion: number }): Promise<TagRecord | undefined> {
  const { rows } = await trx.raw<{ rows: TagRow[] }>(
    `INSERT INTO app.tags AS t (brand_id, tag_uid, chip, key_version) VALUES (CAST(:brand AS integer), CAST(:uid AS text), COALESCE(CAST(:chip AS text), 'NTAG215'), CAST(:version AS integer))
     ON CONFLICT (tag_uid) DO UPDATE SET chip = COALESCE(CAST(:chip AS text), t.chip) WHERE t.brand_id = excluded.brand_id
     RETURNING ${TAG_COLUMNS.map((column) => `t.${column}`).join(", ")}`,
    { brand: tag.brandId, uid: tag.tagUid, chip: tag.chip ?? null, version: tag.keyVersion },
  );
  return rows[0] ? recordOf(rows[0]) : undefined;
}

/**
 * Binds the brand's tag to the product (active), as the chain now holds it; the tag the chain freed from the product
 * by the same assignment, if any, is unbound.
 */
export async function bindTagToProduct(trx: Knex, binding: { brandId: number; tagUid: string; productId: number; freedTagUid?: string }): Promise<void> {
  await trx("app.tags").where({ brand_id: binding.brandId, tag_uid: binding.tagUid }).update({ product_id: binding.productId, status: "active" });
  if (binding.freedTagUid && binding.freedTagUid !== binding.tagUid) {
    await trx("app.tags")
      .where({ brand_id: binding.brandId, tag_uid: binding.freedTagUid, product_id: binding.productId })
      .update({ product_id: null, status: "unassigned" });
  }
}

export type TagListRow = {
  tag_uid: string;
  chip: TagChip;
  key_version: number;
  status: TagStatus;
  product_uid: string | null;
  last_counter: number;
  last_accepted_at: Date | null;
  last_tap_at: Date | null;
  last_verdict: TapVerdict | null;
  counts: Partial<Record<TapVerdict, number>> | null;
  created_at: Date;
};

export type TagListFilter = { brandId: number; status?: TagStatus; productId?: number };

/** A page of the brand's tags, newest first, each with its last tap (any verdict) and its taps counted by verdict. */
export async function listTagRecords(db: Knex, filter: TagListFilter, page: { limit: number; offset: number }): Promise<{ rows: TagListRow[]; total: number }> {
  const where = (query: Knex.QueryBuilder) => {
    query.where("t.brand_id", filter.brandId);
    if (filter.status) query.where("t.status", filter.status);
    if (filter.productId !== undefined) query.where("t.product_id", filter.productId);
    return query;
  };
  const [rows, count] = await Promise.all([
    where(db("app.tags as t"))
      .leftJoin("app.products as p", "p.id", "t.product_id")
      .joinRaw("LEFT JOIN LATERAL (SELECT h.tapped_at, h.verdict FROM app.tag_taps h WHERE h.tag_id = t.id ORDER BY h.tapped_at DESC, h.id DESC LIMIT 1) last ON true")
      .joinRaw(
        "LEFT JOIN LATERAL (SELECT jsonb_object_agg(v.verdict, v.n) AS counts FROM (SELECT h.verdict, count(*)::int AS n FROM app.tag_taps h WHERE h.tag_id = t.id GROUP BY h.verdict) v) c ON true",
      )
      .orderBy("t.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .select<TagListRow[]>(
        "t.tag_uid",
        "t.chip",
        "t.key_version",
        "t.status",
        "p.uid as product_uid",
        "t.last_counter",
        "t.last_tap_at as last_accepted_at",
        "last.tapped_at as last_tap_at",
        "last.verdict as last_verdict",
        "c.counts",
        "t.created_at",
      ),
    where(db("app.tags as t")).count<Array<{ count: string | number }>>({ count: "*" }),
  ]);
  return { rows, total: Number(count[0]?.count ?? 0) };
}

/** Unbinds the product's other tags: the chain holds one tag per passport, so a new one frees the rest. */
export async function unbindOtherTags(trx: Knex, binding: { brandId: number; productId: number; tagUid: string }): Promise<void> {
  await trx("app.tags")
    .where({ brand_id: binding.brandId, product_id: binding.productId })
    .whereNot("tag_uid", binding.tagUid)
    .update({ product_id: null, status: "unassigned" });
}
