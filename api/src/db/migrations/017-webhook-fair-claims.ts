// The index of fair webhook claiming (webhooks/deliveries.repo.ts): each endpoint's oldest due deliveries are a short
// index range however long one endpoint's backlog grows. It replaces the index of due deliveries in time order (005),
// which only the old oldest-first claim used: every claim and every outcome rewrites these entries, so an index
// nobody reads is a cost on each.
//
// Built CONCURRENTLY, outside a transaction, as in 010: the deliveries table may be large by now, and a plain
// CREATE INDEX would block the producers' inserts while it builds.
import type { Knex } from "knex";

export const config = { transaction: false };

const INDEXES: Array<[name: string, definition: string]> = [
  ["webhook_deliveries_endpoint_due", "app.webhook_deliveries (endpoint_id, next_attempt_at) WHERE status IN ('pending', 'delivering')"],
];

const REPLACED: [name: string, definition: string] = [
  "webhook_deliveries_due",
  "app.webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'delivering')",
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of INDEXES) {
    // A build that failed half-way leaves an invalid index behind: drop it, so a re-run builds it again.
    await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${name}`);
    await knex.raw(`CREATE INDEX CONCURRENTLY ${name} ON ${definition}`);
  }
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${REPLACED[0]}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${REPLACED[0]}`);
  await knex.raw(`CREATE INDEX CONCURRENTLY ${REPLACED[0]} ON ${REPLACED[1]}`);
  for (const [name] of INDEXES) await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS app.${name}`);
}
