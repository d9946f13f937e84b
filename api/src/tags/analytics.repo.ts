// SQL of the dashboard's tap analytics over app.tag_taps: taps per day by verdict, per product, and the rows behind
// each clone signal (replays, counter jumps, one tag in far-apart regions within minutes, bursts of invalid taps).
import type { Knex } from "../db/knex";

/** Which taps: the brand's (always), since the start of the period, optionally those that opened one product's URL. */
export type TapFilter = { brandId: number; productId?: number; since: Date };

/** How much of each signal to read: the newest `perTag` of each tag, at most `rows` in all (newest first). */
export type SignalBounds = { perTag: number; rows: number };

/** One tag's (or, with tag_id null, one product's) signal of one kind, with how many of that kind the tag has in all. */
type SignalRowBase = { tag_id: number | null; tag_uid: string | null; product_uid: string; at: Date; kind_total: number; product_id: number };
export type ReplayRow = SignalRowBase & { counter: number | null; previous_accepted: number | null };
export type CounterJumpRow = SignalRowBase & { counter: number; previous_accepted: number };
export type FarApartRow = SignalRowBase & { region: string; previous_region: string; seconds_apart: number };
export type InvalidBurstRow = SignalRowBase & { day: string; invalid_taps: number };

function bindings(filter: TapFilter, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { brandId: filter.brandId, since: filter.since, productId: filter.productId ?? null, ...extra };
}

/** The taps of the filter; `:productId` null means every product. */
const FILTERED = "t.brand_id = :brandId AND t.tapped_at >= :since AND (:productId::int IS NULL OR t.product_id = :productId::int)";

export async function tapsPerDayByVerdict(db: Knex, filter: TapFilter): Promise<Array<{ day: string; verdict: string; count: number }>> {
  const result = await db.raw<{ rows: Array<{ day: string; verdict: string; count: number }> }>(
    `SELECT to_char(t.tapped_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, t.verdict, count(*)::int AS count
       FROM app.tag_taps t
      WHERE ${FILTERED}
      GROUP BY 1, 2`,
    bindings(filter),
  );
  return result.rows;
}

/** The most tapped products of the period, with how many of their taps were authentic. */
export async function tapsPerProduct(db: Knex, filter: TapFilter, limit: number): Promise<Array<{ uid: string; name: string; taps: number; authentic: number }>> {
  const result = await db.raw<{ rows: Array<{ uid: string; name: string; taps: number; authentic: number }> }>(
    `SELECT p.uid, p.name, count(*)::int AS taps, (count(*) FILTER (WHERE t.verdict = 'authentic'))::int AS authentic
       FROM app.tag_taps t
       JOIN app.products p ON p.id = t.product_id AND p.brand_id = t.brand_id
      WHERE ${FILTERED}
      GROUP BY p.id, p.uid, p.name
      ORDER BY taps DESC, p.uid
      LIMIT :limit`,
    bindings(filter, { limit }),
  );
  return result.rows;
}

/**
 * Every tap of the tags tapped in the period, over their whole history (the counter a tap is compared with may have
 * been accepted long before the period), each with the highest counter accepted before it. A tag's history is short
 * (a garment is tapped a handful of times in its life), so reading it whole is cheaper than being clever.
 */
const TAG_HISTORY = `
  tapped_tags AS (
    SELECT DISTINCT t.tag_id FROM app.tag_taps t WHERE ${FILTERED} AND t.tag_id IS NOT NULL
  ),
  history AS (
    SELECT h.id, h.tag_id, h.product_id, h.verdict, h.counter, h.client_region, h.tapped_at,
           max(h.counter) FILTER (WHERE h.verdict = 'authentic')
             OVER (PARTITION BY h.tag_id ORDER BY h.tapped_at, h.id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previous_accepted
      FROM app.tag_taps h
      JOIN tapped_tags USING (tag_id)
     WHERE h.brand_id = :brandId
  )`;

/**
 * The signal rows of `signals` (a query over `history` giving tag_id, product_id, at and its own columns), limited to
 * the newest `perTag` of each tag, with the tag's UID and the product it is bound to (else the product tapped).
 */
function newestPerTag(signals: string, columns: string): string {
  return `
  WITH ${TAG_HISTORY},
  signals AS (${signals}),
  ranked AS (
    SELECT s.*, row_number() OVER (PARTITION BY s.tag_id ORDER BY s.at DESC) AS rank, count(*) OVER (PARTITION BY s.tag_id)::int AS kind_total
      FROM signals s
  )
  SELECT r.tag_id, g.tag_uid, coalesce(bound.uid, tapped.uid) AS product_uid, r.product_id, r.at, r.kind_total, ${columns}
    FROM ranked r
    JOIN app.tags g ON g.id = r.tag_id
    JOIN app.products tapped ON tapped.id = r.product_id
    LEFT JOIN app.products bound ON bound.id = g.product_id
   WHERE r.rank <= :perTag
   ORDER BY r.at DESC
   LIMIT :rows`;
}

/** Replayed taps in the period: a counter not above the last one accepted (a copied URL opened again). */
export async function replaySignals(db: Knex, filter: TapFilter, bounds: SignalBounds): Promise<ReplayRow[]> {
  const signals = `
    SELECT h.tag_id, h.product_id, h.tapped_at AS at, h.counter, h.previous_accepted
      FROM history h
     WHERE h.verdict = 'replayed' AND h.tapped_at >= :since AND (:productId::int IS NULL OR h.product_id = :productId::int)`;
  const result = await db.raw<{ rows: ReplayRow[] }>(newestPerTag(signals, "r.counter, r.previous_accepted"), bindings(filter, bounds));
  return result.rows;
}

/** Accepted taps in the period whose counter is more than `limit` above the counter accepted before it. */
export async function counterJumpSignals(db: Knex, filter: TapFilter, limit: number, bounds: SignalBounds): Promise<CounterJumpRow[]> {
  const signals = `
    SELECT h.tag_id, h.product_id, h.tapped_at AS at, h.counter, h.previous_accepted
      FROM history h
     WHERE h.verdict = 'authentic' AND h.tapped_at >= :since AND (:productId::int IS NULL OR h.product_id = :productId::int)
       AND h.previous_accepted IS NOT NULL AND h.counter - h.previous_accepted > :jumpLimit`;
  const result = await db.raw<{ rows: CounterJumpRow[] }>(newestPerTag(signals, "r.counter, r.previous_accepted"), bindings(filter, { ...bounds, jumpLimit: limit }));
  return result.rows;
}

/**
 * Accepted taps in the period from another client region than the tag's previous accepted tap with a known region,
 * at most `withinSeconds` after it. Comparing neighbours is enough (if two taps within the window are in different
 * regions, some neighbouring pair between them is, and closer in time), save for a country-only region between two
 * subdivisions, which hides their difference: a rare mix, and a quiet miss rather than a false alarm.
 */
export async function farApartSignals(db: Knex, filter: TapFilter, withinSeconds: number, bounds: SignalBounds): Promise<FarApartRow[]> {
  const signals = `
    SELECT l.tag_id, l.product_id, l.tapped_at AS at, l.client_region AS region, l.previous_region,
           extract(epoch FROM l.tapped_at - l.previous_at)::int AS seconds_apart
      FROM (
        SELECT h.*, lag(h.client_region) OVER w AS previous_region, lag(h.tapped_at) OVER w AS previous_at
          FROM history h
         WHERE h.verdict = 'authentic' AND h.client_region IS NOT NULL
        WINDOW w AS (PARTITION BY h.tag_id ORDER BY h.tapped_at, h.id)
      ) l
     WHERE l.tapped_at >= :since AND (:productId::int IS NULL OR l.product_id = :productId::int)
       AND l.tapped_at - l.previous_at <= make_interval(secs => :withinSeconds)
       -- Regions are ISO 3166 codes, a country ("BD") or a subdivision ("BD-13"): another country, or another
       -- subdivision when both name one. A country and one of its subdivisions are the same place, coarser or finer.
       AND (split_part(l.client_region, '-', 1) <> split_part(l.previous_region, '-', 1)
            OR (l.client_region LIKE '%-%' AND l.previous_region LIKE '%-%' AND l.client_region <> l.previous_region))`;
  const result = await db.raw<{ rows: FarApartRow[] }>(
    newestPerTag(signals, "r.region, r.previous_region, r.seconds_apart"),
    bindings(filter, { ...bounds, withinSeconds }),
  );
  return result.rows;
}

/**
 * Products with more than `perDayLimit` invalid taps (a MAC or format that does not check) in one UTC day of the
 * period, newest day first: someone trying forged URLs. Such taps often name no known tag, so the signal goes to the
 * tag bound to the product now, if it has one.
 */
export async function invalidBurstSignals(db: Knex, filter: TapFilter, perDayLimit: number, bounds: SignalBounds): Promise<InvalidBurstRow[]> {
  const result = await db.raw<{ rows: InvalidBurstRow[] }>(
    `WITH bursts AS (
       SELECT t.product_id, to_char(t.tapped_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS invalid_taps, max(t.tapped_at) AS at
         FROM app.tag_taps t
        WHERE ${FILTERED} AND t.verdict = 'invalid'
        GROUP BY 1, 2
       HAVING count(*) > :perDayLimit
     ),
     ranked AS (
       SELECT b.*, row_number() OVER (PARTITION BY b.product_id ORDER BY b.at DESC) AS rank, count(*) OVER (PARTITION BY b.product_id)::int AS kind_total
         FROM bursts b
     )
     SELECT g.id AS tag_id, g.tag_uid, p.uid AS product_uid, r.product_id, r.at, r.kind_total, r.day, r.invalid_taps
       FROM ranked r
       JOIN app.products p ON p.id = r.product_id
       LEFT JOIN LATERAL (
         SELECT id, tag_uid FROM app.tags
          WHERE product_id = r.product_id AND brand_id = :brandId AND status <> 'retired'
          ORDER BY id DESC LIMIT 1
       ) g ON true
      WHERE r.rank <= :perTag
      ORDER BY r.at DESC
      LIMIT :rows`,
    bindings(filter, { ...bounds, perDayLimit }),
  );
  return result.rows;
}

/** The latest tap of each of the brand's tags named, whatever its verdict. */
export async function lastTapsOfTags(db: Knex, brandId: number, tagIds: number[]): Promise<Map<number, Date>> {
  if (tagIds.length === 0) return new Map();
  const rows = await db("app.tag_taps")
    .where("brand_id", brandId)
    .whereIn("tag_id", tagIds)
    .groupBy("tag_id")
    .select<Array<{ tag_id: number; last: Date }>>("tag_id", db.raw("max(tapped_at) AS last"));
  return new Map(rows.map((row) => [Number(row.tag_id), row.last]));
}

/** The latest tap of each of the brand's products named, whatever its verdict. */
export async function lastTapsOfProducts(db: Knex, brandId: number, productIds: number[]): Promise<Map<number, Date>> {
  if (productIds.length === 0) return new Map();
  const rows = await db("app.tag_taps")
    .where("brand_id", brandId)
    .whereIn("product_id", productIds)
    .groupBy("product_id")
    .select<Array<{ product_id: number; last: Date }>>("product_id", db.raw("max(tapped_at) AS last"));
  return new Map(rows.map((row) => [Number(row.product_id), row.last]));
}
