// The Postgres connection pool (knex + pg). Only repos and migrations import this module.
import { createHash, randomUUID } from "node:crypto";
import knexFactory, { type Knex } from "knex";
import pg from "pg";
import type { DatabaseSettings } from "./settings";

export type { Knex };

// Postgres int8 and numeric arrive as strings by default; token ids and block numbers stay exact as strings and
// are converted in the presenters, while int8 counts (COUNT(*)) become numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

type QueryObject = { sql: string; bindings?: unknown[]; options?: Record<string, unknown> };
type PgConnection = { query: (...args: never[]) => unknown };
// knex's own Postgres client (lib/dialects/postgres), which `client: "pg"` names; extended below.
const KnexPgClient = require("knex/lib/dialects/postgres") as new (config: Knex.Config) => {
  _query(connection: PgConnection, obj: QueryObject): Promise<QueryObject>;
};

/** Distinct statements `prepared` has named; a bound on what a misuse (a statement built with its values) could leak. */
const MAX_PREPARED = 500;
const preparedNames = new Map<string, string>();
/** Raised when a table or view under a prepared statement changed its columns (a migration, Ponder's new views). */
const CACHED_PLAN_CHANGED = /cached plan must not change result type/;
let generation = 0;

/**
 * Marks a hot read as a named prepared statement: Postgres plans it once per connection (then a generic plan)
 * instead of on every request. A point read that joins five tables plans in about 1 ms and runs in 0.15 ms
 * (`npm run bench:volume`), so on the paths every request takes, planning was most of the database's work. Only for
 * statements whose text is one of a few (values bound, never inlined): each distinct text stays prepared on each
 * connection for its life.
 */
export function prepared<Q extends Knex.QueryBuilder | Knex.Raw>(query: Q): Q {
  return (query as Knex.QueryBuilder).options({ prepare: true }) as Q;
}

/** Marks, in a statement `compiledOnce` builds, where a value given at run time goes (a text no value holds). */
const PARAMETER_PREFIX = `param:${randomUUID()}:`;

/**
 * A prepared statement whose SQL knex builds once, on its first run, instead of on every run: for the hottest point
 * reads, building a statement of five joins and twenty columns cost the API more CPU (0.2 ms) than Postgres spent
 * running it. `build` names each value given at run time with `param(name)`; it must build the same SQL every time
 * for the same `shape` (no branches on values): a statement that names a schema taken from the configuration (the
 * indexer's views) passes it as the shape, and is built once per schema. Runs answer the statement's rows.
 */
export function compiledOnce<Row, Name extends string>(
  build: (db: Knex, param: (name: Name) => string, shape: string) => Knex.QueryBuilder,
): (db: Knex, values: Partial<Record<Name, unknown>>, shape?: string, options?: { cancelAfterMs?: number }) => Promise<Row[]> {
  const compiled = new Map<string, { sql: string; bindings: readonly unknown[] }>();
  return async (db, values, shape = "", options = {}) => {
    let statement = compiled.get(shape);
    if (!statement) {
      statement = build(db, (name) => PARAMETER_PREFIX + name, shape).toSQL();
      if (compiled.size < MAX_SHAPES) compiled.set(shape, statement);
    }
    const bindings = statement.bindings.map((value) => {
      if (typeof value !== "string" || !value.startsWith(PARAMETER_PREFIX)) return value;
      const name = value.slice(PARAMETER_PREFIX.length) as Name;
      if (values[name] === undefined) throw new Error(`compiledOnce: no value for the statement's parameter ${name}`);
      return values[name];
    });
    const raw = prepared(db.raw<{ rows: Row[] }>(statement.sql, bindings as Knex.RawBinding[]));
    // Past `cancelAfterMs` Postgres is asked to cancel the statement (from a connection of its own), which releases
    // its locks, and the call fails with knex's KnexTimeoutError.
    const result = await (options.cancelAfterMs ? raw.timeout(options.cancelAfterMs, { cancel: true }) : raw);
    return result.rows;
  };
}

/** Shapes a `compiledOnce` statement keeps built (schemas of the indexer's views: one, or a few across re-indexes). */
const MAX_SHAPES = 8;

class PreparingPgClient extends KnexPgClient {
  override _query(connection: PgConnection, obj: QueryObject): Promise<QueryObject> {
    if (!obj.options?.prepare) return super._query(connection, obj);
    const run = () => super._query(connection, { ...obj, options: { ...obj.options, prepare: undefined, name: statementName(obj.sql) } });
    return run().catch((error: Error & { code?: string }) => {
      // The statement's columns changed under it: prepared again under a new name (the old one ends with its session).
      if (error.code !== "0A000" || !CACHED_PLAN_CHANGED.test(error.message)) throw error;
      generation += 1;
      preparedNames.clear();
      return run();
    });
  }
}

function statementName(sql: string): string | undefined {
  let name = preparedNames.get(sql);
  if (name === undefined) {
    if (preparedNames.size >= MAX_PREPARED) return undefined;
    name = `pr${generation}_${createHash("sha1").update(sql).digest("base64url").slice(0, 20)}`;
    preparedNames.set(sql, name);
  }
  return name;
}

/**
 * A pool for `database`: the configuration's settings (TLS from the URL, pool size, time-outs), or a bare URL as tests
 * and scripts pass, with no time-outs. `poolMax` overrides the settings' size (a process that needs fewer or more).
 */
export function createDb(database: string | DatabaseSettings, poolMax?: number): Knex {
  const settings = typeof database === "string" ? undefined : database;
  const url = typeof database === "string" ? database : database.url;
  return knexFactory({
    client: PreparingPgClient as unknown as typeof Knex.Client,
    connection: {
      connectionString: url,
      application_name: "passport-registry-api",
      // Sent in the start-up message, so they hold from the first statement on every connection (0 sends nothing).
      statement_timeout: settings?.statementTimeoutMs || undefined,
      idle_in_transaction_session_timeout: settings?.idleInTransactionTimeoutMs || undefined,
    },
    pool: { min: Math.min(settings?.poolMin ?? 0, poolMax ?? Infinity), max: poolMax ?? settings?.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}

/**
 * A small pool on `db`'s connection settings (TLS included) without DATABASE_STATEMENT_TIMEOUT_MS: a migration may
 * rewrite a large table or build an index CONCURRENTLY, which takes longer than any request may. The time-out is left
 * out of the connections' start-up settings rather than SET on one, because a migration outside a transaction runs
 * each statement on whichever connection the pool gives it.
 */
export function migrationPool(db: Knex): Knex {
  const config = db.client.config as Knex.Config;
  const connection = config.connection as Knex.PgConnectionConfig & { statement_timeout?: number };
  return knexFactory({ ...config, connection: { ...connection, statement_timeout: undefined }, pool: { min: 0, max: 2 } });
}
