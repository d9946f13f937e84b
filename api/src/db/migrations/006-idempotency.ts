// Idempotency keys of the brand API: a retried request with the same key returns the first response.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema("app").createTable("idempotency_keys", (t) => {
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    t.text("key").notNullable();
    t.text("endpoint").notNullable();
    // SHA-256 of the canonical request body: the same key with another body is refused.
    t.text("request_hash").notNullable();
    t.integer("response_status").notNullable();
    t.jsonb("response_body").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["brand_id", "endpoint", "key"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema("app").dropTable("idempotency_keys");
}
