// Webhook endpoints, the event outbox, one delivery per (endpoint, event), and the chain watcher's cursors.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  const app = () => knex.schema.withSchema("app");

  // A receiver: a brand's v1 subscription (any number) or its dashboard webhook (at most one).
  await app().createTable("webhook_endpoints", (t) => {
    t.increments("id").primary();
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    t.text("kind").notNullable();
    t.text("url").notNullable();
    t.specificType("events", "text[]").notNullable();
    // AES-256-GCM under config.secretsKey: the secret must be readable to sign, so it cannot be hashed.
    t.text("secret_ciphertext").notNullable();
    // After a rotation the old secret keeps signing (beside the new one) until it expires.
    t.text("previous_secret_ciphertext");
    t.timestamp("previous_secret_expires_at", { useTz: true });
    t.text("status").notNullable().defaultTo("active");
    t.text("disabled_reason");
    t.timestamp("disabled_at", { useTz: true });
    // Start of the current run of failed attempts (null after a success): an endpoint failing for too long is disabled.
    t.timestamp("failing_since", { useTz: true });
    t.integer("consecutive_failures").notNullable().defaultTo(0);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["brand_id"]);
  });
  await knex.raw(`ALTER TABLE app.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_kind_check CHECK (kind IN ('v1', 'dashboard')),
    ADD CONSTRAINT webhook_endpoints_status_check CHECK (status IN ('active', 'disabled'))`);
  await knex.raw(
    `CREATE UNIQUE INDEX webhook_endpoints_one_dashboard ON app.webhook_endpoints (brand_id) WHERE kind = 'dashboard'`,
  );

  await app().createTable("webhook_events", (t) => {
    t.text("id").primary();
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    t.text("type").notNullable();
    // json, not jsonb: the text is kept as written, so every attempt sends (and signs) the same bytes.
    t.json("payload").notNullable();
    // The producer's idempotency key ("cert.issued:<uid>"): enqueueing the same fact twice is a no-op.
    t.text("dedupe_key").notNullable().unique();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["brand_id", "created_at"]);
  });

  await app().createTable("webhook_deliveries", (t) => {
    // Sent as webhook-id: the same on every attempt, so receivers can drop duplicates.
    t.text("id").primary();
    t.text("event_id").notNullable().references("id").inTable("app.webhook_events").onDelete("CASCADE");
    t.integer("endpoint_id").notNullable().references("id").inTable("app.webhook_endpoints").onDelete("CASCADE");
    t.text("status").notNullable().defaultTo("pending");
    t.integer("attempts").notNullable().defaultTo(0);
    // For 'pending': when the next attempt is due. For 'delivering': when the claim lapses and another
    // dispatcher may take the delivery over (its claimant died).
    t.timestamp("next_attempt_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid("claim_token");
    t.timestamp("last_attempt_at", { useTz: true });
    t.integer("last_response_code");
    t.text("last_error");
    t.timestamp("delivered_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["endpoint_id", "event_id"]);
    t.index(["endpoint_id", "created_at"]);
  });
  await knex.raw(`ALTER TABLE app.webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
    CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed'))`);
  await knex.raw(`CREATE INDEX webhook_deliveries_due ON app.webhook_deliveries (next_attempt_at)
    WHERE status IN ('pending', 'delivering')`);

  // How far each chain watcher has scanned, so a tick reads only what is new.
  await app().createTable("webhook_watch_cursors", (t) => {
    t.text("name").primary();
    t.bigInteger("last_block").notNullable();
    // Fingerprint of the indexer views the cursor counted in: new views (a new chain, a re-index) mean a rescan.
    t.text("source").notNullable().defaultTo("");
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // Chain facts at confirmation depth that the app side cannot attribute yet (the mint's issuance row is not
  // marked minted yet): they wait here, not behind the cursor, so the cursor never has to move back.
  await app().createTable("webhook_chain_facts", (t) => {
    t.text("kind").notNullable();
    t.text("ref").notNullable();
    t.text("token_id").notNullable();
    t.bigInteger("block_number").notNullable();
    t.text("tx_hash").notNullable();
    t.jsonb("detail").notNullable().defaultTo("{}");
    t.timestamp("observed_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["kind", "ref"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema("app").dropTable("webhook_chain_facts");
  await knex.schema.withSchema("app").dropTable("webhook_watch_cursors");
  await knex.schema.withSchema("app").dropTable("webhook_deliveries");
  await knex.schema.withSchema("app").dropTable("webhook_events");
  await knex.schema.withSchema("app").dropTable("webhook_endpoints");
}
