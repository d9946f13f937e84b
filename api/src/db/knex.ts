// The Postgres connection pool (knex + pg). Only repos and migrations import this module.
import knexFactory, { type Knex } from "knex";
import pg from "pg";

export type { Knex };

// Postgres int8 and numeric arrive as strings by default; token ids and block numbers stay exact as strings and
// are converted in the presenters, while int8 counts (COUNT(*)) become numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export function createDb(databaseUrl: string, poolMax = 10): Knex {
  return knexFactory({
    client: "pg",
    connection: { connectionString: databaseUrl, application_name: "passport-registry-api" },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
  });
}
