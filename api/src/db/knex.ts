// The Postgres connection pool (knex + pg). Only repos and migrations import this module.
import knexFactory, { type Knex } from "knex";
import pg from "pg";
import type { DatabaseSettings } from "./settings";

export type { Knex };

// Postgres int8 and numeric arrive as strings by default; token ids and block numbers stay exact as strings and
// are converted in the presenters, while int8 counts (COUNT(*)) become numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/**
 * A pool for `database`: the configuration's settings (TLS from the URL, pool size, time-outs), or a bare URL as tests
 * and scripts pass, with no time-outs. `poolMax` overrides the settings' size (a process that needs fewer or more).
 */
export function createDb(database: string | DatabaseSettings, poolMax?: number): Knex {
  const settings = typeof database === "string" ? undefined : database;
  const url = typeof database === "string" ? database : database.url;
  return knexFactory({
    client: "pg",
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
