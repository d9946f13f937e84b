// SQL of the dashboard's product list: a brand's products with their issuance and, from the indexer's passport view,
// their chain status, searched, filtered and paged in Postgres.
import { compiledOnce, prepared, type Knex } from "../db/knex";

export type ProductListFilter = {
  q?: string;
  category?: string;
  status?: "unissued" | "pending" | "verified" | "lost" | "stolen";
};

export type ProductListRow = {
  id: number;
  uid: string;
  sku: string;
  name: string;
  category: string;
  created_at: Date;
  issuance_status: "pending" | "minted" | "failed" | null;
  issuance_tx_hash: string | null;
  chain_status: number | null;
  chain_tag_hash: string | null;
  chain_minted_block: string | null;
  chain_mint_tx_hash: string | null;
  tag_in_app: boolean;
};

/**
 * `chain`: the indexer's views schema and the highest block whose mints count as verified (the confirmation depth
 * applied), or undefined while the views are not published (chain columns are then null).
 */
export type ChainView = { schema: string; verifiedUpTo: number } | undefined;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The issuance row and, given the schema of the indexer's views (published, and needed), the indexer's passport row
 * of each product `p` of the brand. The passport's own brand (migration 041) lets a filter by passport state start from the brand's
 * passports (index passports_brand_status) instead of every brand's.
 */
function joinPassports<Q extends Knex.QueryBuilder>(query: Q, brandId: number | string, viewsSchema: string | undefined): Q {
  query.leftJoin("app.passports as x", (on) => on.on("x.product_id", "p.id").andOnVal("x.brand_id", brandId));
  if (viewsSchema) query.joinRaw(`LEFT JOIN ${quoteIdent(viewsSchema)}.passport AS op ON op.token_id = x.token_id::numeric`);
  return query;
}

/** Only "lost" and "stolen" are read from the indexer's passport row; every other filter is answered without it. */
const needsChain = (filter: ProductListFilter) => filter.status === "lost" || filter.status === "stolen";

/**
 * Marks the list's statements prepared (db/knex.ts) unless they search text: planning them cost Postgres more than
 * running them, and their plan (the brand's newest products, by index) is the right one for every brand and filter.
 * A search is planned each time: whether a word is in one product of eight or one in a million decides its plan.
 */
const preparedUnlessSearch = <Q extends Knex.QueryBuilder>(query: Q, filter: ProductListFilter): Q => (filter.q ? query : prepared(query));

function filtered(db: Knex, brandId: number, filter: ProductListFilter, chain: ChainView) {
  const query = joinPassports(db("app.products as p"), brandId, needsChain(filter) ? chain?.schema : undefined).where("p.brand_id", brandId);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    query.where((w) => w.whereILike("p.uid", pattern).orWhereILike("p.sku", pattern).orWhereILike("p.name", pattern));
  }
  if (filter.category) query.where("p.category", filter.category.trim().toLowerCase());
  return byStatus(query, filter, chain);
}

/**
 * The brand's issued passports in `filter.status`, without their products: what a filter that needs a passport (all
 * but "unissued") matches when it filters by nothing a product holds. Counted from the brand's passports alone.
 */
function issuedFiltered(db: Knex, brandId: number, filter: ProductListFilter, chain: ChainView) {
  const query = db("app.passports as x").where("x.brand_id", brandId);
  if (chain && needsChain(filter)) query.joinRaw(`LEFT JOIN ${quoteIdent(chain.schema)}.passport AS op ON op.token_id = x.token_id::numeric`);
  return byStatus(query, filter, chain);
}

function byStatus<Q extends Knex.QueryBuilder>(query: Q, filter: ProductListFilter, chain: ChainView): Q {
  switch (filter.status) {
    case "unissued":
      query.where((w) => w.whereNull("x.status").orWhere("x.status", "failed"));
      break;
    // Pending and verified are told by the issuance ledger's own record of the mint's block (migration 042's index),
    // not by the indexer's passport view: joining every match to the view cost a scan of all brands' passports. The
    // ledger moves a claim back to pending when its block leaves the chain, and the indexer has every block up to
    // `verifiedUpTo`, so both say the same but for the moments between a reorg and the ledger noticing it.
    // The state is written into the statement, not bound: a prepared statement's plan may use index 042 (partial, of
    // minted passports) only if its text says `status = 'minted'`.
    case "pending":
      // Issued or being issued, but not yet at the confirmation depth (or not yet indexed).
      if (!chain) query.whereIn("x.status", ["pending", "minted"]);
      else query.where((w) => w.whereRaw("x.status = 'pending'").orWhere((m) => m.whereRaw("x.status = 'minted'").andWhere("x.block_number", ">", chain.verifiedUpTo)));
      break;
    case "verified":
      if (!chain) query.whereRaw("false");
      else query.whereRaw("x.status = 'minted'").andWhere("x.block_number", "<=", chain.verifiedUpTo);
      break;
    case "lost":
    case "stolen":
      if (!chain) query.whereRaw("false");
      else query.where("op.status", filter.status === "lost" ? 1 : 2);
      break;
  }
  return query;
}

const NEWEST_FIRST = [
  { column: "created_at", order: "desc" },
  { column: "id", order: "desc" },
] as const;

/**
 * The list counts its matches exactly up to this many and says "more" beyond: an exact count reads every match (a
 * brand's whole catalogue, or every product a broad word finds), which a page of 25 must not wait for.
 */
export const LIST_COUNT_CAP = 10_000;

/**
 * A count of at least this many matches is kept for COUNT_TTL_MS and given to the next pages of the same list: paging
 * through a large catalogue counted the same thousands of matches again on every page, which cost Postgres more than
 * the page. A smaller count is taken anew on each request, so a short list is always exact.
 */
export const COUNT_KEPT_FROM = 1_000;
export const COUNT_TTL_MS = 5_000;
const MAX_KEPT_COUNTS = 1_000;
/** Counts being taken (shared by every request for the same list meanwhile) and large counts kept, by list. */
const counts = new Map<string, { promise: Promise<number>; until: number }>();

/** Drops the counts kept, so the next request for each list counts again (the volume benchmark, to see its plan). */
export function forgetListCounts(): void {
  counts.clear();
}

function countOnce(key: string, count: () => Promise<number>): Promise<number> {
  const now = Date.now();
  const kept = counts.get(key);
  if (kept && kept.until > now) return kept.promise;
  if (counts.size >= MAX_KEPT_COUNTS) counts.delete(counts.keys().next().value!);
  const entry = { promise: count(), until: Number.POSITIVE_INFINITY };
  counts.set(key, entry);
  const forget = () => counts.get(key) === entry && counts.delete(key);
  entry.promise.then((matches) => (matches >= COUNT_KEPT_FROM ? (entry.until = Date.now() + COUNT_TTL_MS) : forget()), forget);
  return entry.promise;
}

/** What the list counts: the brand's passports alone where the filter needs only them, else its products. */
function matching(db: Knex, brandId: number, filter: ProductListFilter, chain: ChainView) {
  const passportsOnly = filter.status !== undefined && filter.status !== "unissued" && !filter.q && !filter.category;
  return passportsOnly ? issuedFiltered(db, brandId, filter, chain) : filtered(db, brandId, filter, chain);
}

/**
 * Where a page of the list starts: skipping `offset` matches (a page asked for by number), or by key, the matches
 * just after (`after`) or just before (`before`) a row of another page, in the list's order (newest first). A page
 * by key costs what the first page costs however deep it is: Postgres seeks to the key in index 035's order, where an
 * OFFSET counts off every match it skips.
 */
export type PageStart = { offset: number } | { after: ListKey } | { before: ListKey };
/** A row's place in the list's order: when it was created, in microseconds since the epoch (Postgres' own precision), and its id. */
export type ListKey = { createdUs: string; id: number };

type PageIdRow = { id: number; created_us: string };
const keyOf = (row: PageIdRow): ListKey => ({ createdUs: row.created_us, id: row.id });
const KEY_SQL = "(timestamptz 'epoch' + ?::bigint * interval '1 microsecond', ?::bigint)";

export async function listBrandProducts(
  db: Knex,
  brandId: number,
  filter: ProductListFilter,
  page: { limit: number } & PageStart,
  chain: ChainView,
): Promise<{ rows: ProductListRow[]; total: number; totalIsLowerBound: boolean; next: ListKey | null; previous: ListKey | null }> {
  // The page is chosen first, from the ids alone: Postgres drops the joins no filter needs, and the rows an OFFSET
  // skips cost an index entry each (index 035's order) instead of a product row, two joins and a tag lookup each.
  // It is prepared where one plan serves every page: no text search, no state (a generic plan for "verified up to
  // block N" read the brand's passports by state instead of its products by date, 2.7 -> 7.6 ms of Postgres per
  // page) and no OFFSET (the first page, or a page by key); otherwise planned each time, as a plan for one word,
  // block or depth is wrong for another. The page's rows are then read in full by their ids, a prepared statement
  // whose plan is the same for every page. One id more than the page tells whether there is a page beyond it.
  const backwards = "before" in page;
  const fixedPlan = !filter.q && !filter.status && !("offset" in page && page.offset > 0);
  const order = backwards ? "asc" : "desc";
  const ids = filtered(db, brandId, filter, chain)
    .orderBy(NEWEST_FIRST.map(({ column }) => ({ column: `p.${column}`, order })))
    .limit(page.limit + 1)
    .select("p.id", "p.created_at");
  if ("offset" in page) ids.offset(page.offset);
  else {
    const key = "after" in page ? page.after : page.before;
    ids.whereRaw(`(p.created_at, p.id) ${backwards ? ">" : "<"} ${KEY_SQL}`, [key.createdUs, key.id]);
  }
  // The page's keys are computed outside the subquery: inside, Postgres would compute one for every row an OFFSET
  // skips (numeric arithmetic, a third of a deep page's time).
  const pageIds = db
    .from(ids.as("page"))
    .orderBy(NEWEST_FIRST.map(({ column }) => ({ column: `page.${column}`, order })))
    .select<PageIdRow[]>("page.id", db.raw("(extract(epoch FROM page.created_at) * 1000000)::bigint::text AS created_us"));
  if (fixedPlan) prepared(pageIds);
  // Counted over at most one match more than the cap: reaching it is how the list knows there are more. Which
  // passports are verified moves with the chain, so a count by passport state is kept only for its block.
  const byBlock = filter.status === "pending" || filter.status === "verified" ? chain?.verifiedUpTo : undefined;
  const countKey = JSON.stringify([brandId, filter.q, filter.category, filter.status, chain?.schema, byBlock]);
  const countMatches = async () => {
    const matches = db.from(matching(db, brandId, filter, chain).select(db.raw("1")).limit(LIST_COUNT_CAP + 1).as("matches"));
    const [row] = await preparedUnlessSearch(matches, filter).count<Array<{ count: number }>>({ count: "*" });
    return Number(row?.count ?? 0);
  };
  const found = await pageIds;
  const beyond = found.length > page.limit;
  const shown = found.slice(0, page.limit);
  if (backwards) shown.reverse();
  // A page by number that is the last (a specific search's only page, a small brand's list) tells the count itself.
  const isLast = "offset" in page && !beyond && (found.length > 0 || page.offset === 0);
  const [rows, matches] = await Promise.all([
    pageRows(db, brandId, shown.map((row) => row.id), chain),
    isLast ? page.offset + shown.length : countOnce(countKey, countMatches),
  ]);
  const [first, last] = [shown[0], shown.at(-1)];
  // Going forwards, the matches before this page are the ones skipped or the key's own page; going backwards, the
  // extra id says whether there are more before.
  const earlier = backwards ? beyond : "after" in page || page.offset > 0;
  const later = backwards || beyond;
  return {
    rows,
    total: Math.min(matches, LIST_COUNT_CAP),
    totalIsLowerBound: matches > LIST_COUNT_CAP,
    next: later && last ? keyOf(last) : null,
    previous: earlier && first ? keyOf(first) : null,
  };
}

/** The list's rows of the products `ids` of the brand, in the order of `ids`. */
async function pageRows(db: Knex, brandId: number, ids: number[], chain: ChainView): Promise<ProductListRow[]> {
  if (ids.length === 0) return [];
  const rows = await rowsByIds(db, { brandId, ids }, chain?.schema ?? "");
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is ProductListRow => row !== undefined);
}

/** Built once per schema of the indexer's views, and once without them (compiledOnce): every page of the list runs it. */
const rowsByIds = compiledOnce<ProductListRow, "brandId" | "ids">((db, param, schema) => {
  const columns = [
    "p.id",
    "p.uid",
    "p.sku",
    "p.name",
    "p.category",
    "p.created_at",
    "x.status as issuance_status",
    "x.tx_hash as issuance_tx_hash",
    db.raw(schema ? "op.status AS chain_status" : "NULL::int AS chain_status"),
    db.raw(schema ? "op.tag_hash AS chain_tag_hash" : "NULL::text AS chain_tag_hash"),
    db.raw(schema ? "op.minted_block::text AS chain_minted_block" : "NULL::text AS chain_minted_block"),
    db.raw(schema ? "op.mint_tx_hash AS chain_mint_tx_hash" : "NULL::text AS chain_mint_tx_hash"),
    db.raw("EXISTS (SELECT 1 FROM app.product_tags t WHERE t.product_id = p.id AND t.status = 'assigned') AS tag_in_app"),
  ];
  return joinPassports(db("app.products as p"), param("brandId"), schema || undefined)
    .whereRaw("p.id = ANY(?::int[])", [param("ids")])
    .select(columns);
});

/** How many products the brand has, and how many have a minted passport. */
export async function countBrandProducts(db: Knex, brandId: number): Promise<{ total: number; certified: number }> {
  const row = await db("app.products as p")
    .leftJoin("app.passports as x", "x.product_id", "p.id")
    .where("p.brand_id", brandId)
    .first<{ total: number; certified: number }>(db.raw("count(*)::int AS total"), db.raw("count(*) FILTER (WHERE x.status = 'minted')::int AS certified"));
  return { total: row?.total ?? 0, certified: row?.certified ?? 0 };
}

/** Certificates minted per UTC day since `since`, for the brand. */
export async function certificatesPerDay(db: Knex, brandId: number, since: Date): Promise<Array<{ day: string; count: number }>> {
  const result = await db.raw<{ rows: Array<{ day: string; count: number }> }>(
    `SELECT to_char(x.minted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
       FROM app.passports x JOIN app.products p ON p.id = x.product_id
      WHERE p.brand_id = ? AND x.status = 'minted' AND x.minted_at >= ?
      GROUP BY 1`,
    [brandId, since],
  );
  return result.rows;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
