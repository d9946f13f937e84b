// Retention of webhook history (webhooks/retention.repo.ts): deliveries that finished are deleted after the retention
// period, and an event's body is dropped once no delivery needs it. The event row stays, small, so its dedupe key
// still stops a producer that replays an old fact (a re-indexed chain) from sending it again.
//
// The indexes are built CONCURRENTLY, outside a transaction: the tables may be large by the time this runs, and a
// plain CREATE INDEX would block the producers' inserts (product registration, issuance) while it builds.
import type { Knex } from "knex";

export const config = { transaction: false };

const INDEXES: Array<[name: string, definition: string]> = [
  ["webhook_events_unpruned", "app.webhook_events (created_at) WHERE payload IS NOT NULL"],
  ["webhook_deliveries_event", "app.webhook_deliveries (event_id)"],
  [
    "webhook_deliveries_finished",
    "app.webhook_deliveries ((coalesce(delivered_at, last_attempt_at, created_at))) WHERE status IN ('succeeded', 'failed')",
  ],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.webhook_events ALTER COLUMN payload DROP NOT NULL");
  for (const [name, definition] of INDEXES) {
    // A build that failed half-way leaves an invalid index behind: drop it, so a re-run builds it again.
    await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${name}`);
    await knex.raw(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${name}`);
  await knex.raw("UPDATE app.webhook_events SET payload = '{}'::json WHERE payload IS NULL");
  await knex.raw("ALTER TABLE app.webhook_events ALTER COLUMN payload SET NOT NULL");
}
