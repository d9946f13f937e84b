// Operator sessions, the brute-force throttle shared by logins and API keys, and recorded tag scans.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema("app").createTable("operator_sessions", (t) => {
    // SHA-256 of the opaque bearer token; the token itself is shown once, at login.
    t.binary("token_hash").primary();
    t.integer("operator_id").notNullable().references("id").inTable("app.operators").onDelete("CASCADE");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.index(["expires_at"]);
  });
  // One row per throttled key ("login:email:…", "login:ip:…", "apikey:ip:…"); counters live in Postgres so every
  // API replica sees the same failures.
  await knex.schema.withSchema("app").createTable("auth_failures", (t) => {
    t.text("key").primary();
    t.integer("failures").notNullable().defaultTo(0);
    t.timestamp("window_started_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("locked_until", { useTz: true });
  });
  await knex.schema.withSchema("app").createTable("scan_events", (t) => {
    t.bigIncrements("id").primary();
    t.integer("product_id").notNullable().references("id").inTable("app.products").onDelete("CASCADE");
    t.timestamp("scanned_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.boolean("verified").notNullable();
    t.index(["product_id", "scanned_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema("app").dropTable("scan_events");
  await knex.schema.withSchema("app").dropTable("auth_failures");
  await knex.schema.withSchema("app").dropTable("operator_sessions");
}
