// Quotas on the AI model of RFQ matching (routes/marketplace/ai-quota.repo.ts): matches that used the model, per client
// address and clock hour, and service-wide per UTC day. A public endpoint must not be able to run up the AI bill.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE app.ai_quota (
      scope text NOT NULL,
      window_start timestamptz NOT NULL,
      calls integer NOT NULL CHECK (calls >= 0),
      PRIMARY KEY (scope, window_start)
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.ai_quota");
}
