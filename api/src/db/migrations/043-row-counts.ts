// Counts of the largest tables kept as they change, for GET /api/stats (`npm run bench:volume`): its snapshot ran
// count(*) over every product, passport and scan, a read that grows with the catalogue and with every tap (243 ms of
// Postgres per snapshot at a million products and 500,000 scans, once per 5 s per API process).
//
// Each counted table has statement-level triggers over its transition tables: an insert, update or delete adds the
// number of rows it brought into the count and takes away those it took out, in the same transaction, so a count is
// exactly what count(*) would say in the same snapshot. The sum is spread over shards (by the backend's pid) so
// concurrent writers, such as taps recorded at once, do not wait on one counter row. TRUNCATE empties the count.
// `app.recount_rows()` counts again from the tables: run by this migration, and after a bulk load made with the
// triggers off (session_replication_role = replica, as bench:volume's seed).
import type { Knex } from "knex";

/** What is counted: its name in app.row_counts, its table, and which of the table's rows count. */
export const COUNTED = [
  { name: "products", table: "app.products", where: "true" },
  { name: "scan_events", table: "app.scan_events", where: "true" },
  { name: "passports_minted", table: "app.passports", where: "status = 'minted'" },
] as const;

const SHARDS = 8;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE app.row_counts (
      name text NOT NULL,
      shard smallint NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (name, shard)
    )`);
  await knex.raw(`
    CREATE FUNCTION app.row_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM app.row_counts WHERE name = TG_ARGV[0];
      RETURN NULL;
    END $$`);
  for (const { name, table, where } of COUNTED) {
    // plpgsql plans a statement when it first runs it, so each branch names only the transition table its
    // operations have.
    await knex.raw(`
      CREATE FUNCTION app.row_counts_${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        delta bigint := 0;
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          delta := delta + (SELECT count(*) FROM new_rows WHERE ${where});
        END IF;
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
          delta := delta - (SELECT count(*) FROM old_rows WHERE ${where});
        END IF;
        IF delta <> 0 THEN
          INSERT INTO app.row_counts AS c (name, shard, n) VALUES ('${name}', pg_backend_pid() % ${SHARDS}, delta)
          ON CONFLICT (name, shard) DO UPDATE SET n = c.n + excluded.n;
        END IF;
        RETURN NULL;
      END $$`);
    const run = `FOR EACH STATEMENT EXECUTE FUNCTION app.row_counts_${name}()`;
    await knex.raw(`CREATE TRIGGER row_counts_${name}_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows ${run}`);
    await knex.raw(`CREATE TRIGGER row_counts_${name}_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows ${run}`);
    // An update moves a row in or out of the count only where the count has a condition.
    if (where !== "true") {
      await knex.raw(`CREATE TRIGGER row_counts_${name}_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows ${run}`);
    }
    await knex.raw(`CREATE TRIGGER row_counts_${name}_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION app.row_counts_truncated('${name}')`);
  }
  // Writers wait while the tables are counted (SHARE), so the counts taken and the triggers' changes after add up.
  await knex.raw(`
    CREATE FUNCTION app.recount_rows() RETURNS void LANGUAGE sql AS $$
      LOCK TABLE ${COUNTED.map(({ table }) => table).join(", ")} IN SHARE MODE;
      DELETE FROM app.row_counts;
      ${COUNTED.map(({ name, table, where }) => `INSERT INTO app.row_counts (name, shard, n) SELECT '${name}', 0, count(*) FROM ${table} WHERE ${where};`).join("\n      ")}
    $$`);
  await knex.raw("SELECT app.recount_rows()");
}

export async function down(knex: Knex): Promise<void> {
  for (const { name, table } of COUNTED) {
    for (const operation of ["insert", "delete", "update", "truncate"]) await knex.raw(`DROP TRIGGER IF EXISTS row_counts_${name}_${operation} ON ${table}`);
    await knex.raw(`DROP FUNCTION IF EXISTS app.row_counts_${name}()`);
  }
  await knex.raw("DROP FUNCTION IF EXISTS app.recount_rows()");
  await knex.raw("DROP FUNCTION IF EXISTS app.row_counts_truncated()");
  await knex.raw("DROP TABLE IF EXISTS app.row_counts");
}
