// Retention of webhook history (webhooks/retention.ts): finished deliveries are deleted after the retention period,
// and an event's body is dropped once no delivery needs it. The event row stays, small, so its dedupe key still
// stops a producer that replays an old fact (a re-indexed chain) from sending it again.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE app.webhook_events ALTER COLUMN payload DROP NOT NULL");
  await knex.raw("CREATE INDEX webhook_events_unpruned ON app.webhook_events (created_at) WHERE payload IS NOT NULL");
  await knex.raw("CREATE INDEX webhook_deliveries_event ON app.webhook_deliveries (event_id)");
  await knex.raw(
    "CREATE INDEX webhook_deliveries_finished ON app.webhook_deliveries (created_at) WHERE status IN ('succeeded', 'failed')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX app.webhook_deliveries_finished");
  await knex.raw("DROP INDEX app.webhook_deliveries_event");
  await knex.raw("DROP INDEX app.webhook_events_unpruned");
  await knex.raw("UPDATE app.webhook_events SET payload = '{}'::json WHERE payload IS NULL");
  await knex.raw("ALTER TABLE app.webhook_events ALTER COLUMN payload SET NOT NULL");
}
