// Aggregate counts for GET /api/stats: schema app for brands and products, the indexer's views for the chain.
import type { Knex } from "../db/knex";

export type PlatformCounts = {
  brands: number;
  brands_active: number;
  products: number;
  certificates_issued: number;
  scans: number;
  passports_minted: number;
  factories: number;
  factories_verified: number;
  supply_chain_events: number;
  tags_assigned: number;
};

/**
 * The service's counts. Brands are few and counted; products, minted passports and scans grow with the catalogue and
 * every tap, and are read from the counts their triggers keep (migration 043).
 */
export async function appCounts(db: Knex) {
  const kept = (name: string) => `(SELECT coalesce(sum(n), 0)::bigint FROM app.row_counts WHERE name = '${name}')`;
  const { rows } = await db.raw<{ rows: Array<Record<string, number>> }>(`
    SELECT (SELECT count(*) FROM app.brands) AS brands,
           (SELECT count(*) FROM app.brands WHERE status = 'active') AS brands_active,
           ${kept("products")} AS products,
           ${kept("passports_minted")} AS certificates_issued,
           ${kept("scan_events")} AS scans`);
  return rows[0]!;
}

/**
 * The indexed chain's counts: factories are few and counted; passports, tags and steps are read from the totals the
 * indexer's handlers keep (`chain_totals`), none before the first mint.
 */
export async function chainCounts(db: Knex, schema: string) {
  const { rows } = await db.raw<{ rows: Array<Record<string, number>> }>(
    `SELECT coalesce(t.passports, 0)::bigint AS passports_minted,
            (SELECT count(*) FROM ??.factory) AS factories,
            (SELECT count(*) FROM ??.factory WHERE verified) AS factories_verified,
            coalesce(t.supply_chain_events, 0)::bigint AS supply_chain_events,
            coalesce(t.tags_assigned, 0)::bigint AS tags_assigned
       FROM (VALUES (0)) AS one (id) LEFT JOIN ??.chain_totals t ON t.id = one.id`,
    [schema, schema, schema],
  );
  return rows[0]!;
}
