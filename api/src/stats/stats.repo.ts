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

export async function appCounts(db: Knex) {
  const { rows } = await db.raw<{ rows: Array<Record<string, number>> }>(`
    SELECT (SELECT count(*) FROM app.brands) AS brands,
           (SELECT count(*) FROM app.brands WHERE status = 'active') AS brands_active,
           (SELECT count(*) FROM app.products) AS products,
           (SELECT count(*) FROM app.passports WHERE status = 'minted') AS certificates_issued,
           (SELECT count(*) FROM app.scan_events) AS scans`);
  return rows[0]!;
}

export async function chainCounts(db: Knex, schema: string) {
  const { rows } = await db.raw<{ rows: Array<Record<string, number>> }>(
    `SELECT (SELECT count(*) FROM ??.passport) AS passports_minted,
            (SELECT count(*) FROM ??.factory) AS factories,
            (SELECT count(*) FROM ??.factory WHERE verified) AS factories_verified,
            (SELECT count(*) FROM ??.supply_chain_event) AS supply_chain_events,
            (SELECT count(*) FROM ??.passport WHERE tag_hash IS NOT NULL) AS tags_assigned`,
    [schema, schema, schema, schema, schema],
  );
  return rows[0]!;
}
