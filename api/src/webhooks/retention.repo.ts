// SQL of webhook history retention (retention.ts runs it): finished deliveries past the period, then the bodies of
// events that no delivery needs any more, in batches so no statement holds many rows locked.
import type { Knex } from "../db/knex";

const BATCH = 5000;

export type Pruned = { deliveries: number; events: number };

/** When a finished delivery finished: its success, else its last attempt. */
const FINISHED_AT = "coalesce(delivered_at, last_attempt_at, created_at)";

/**
 * One pass: everything that finished more than `retentionDays` ago goes. `shouldStop` is asked between batches, so
 * a long first pass over a backlog does not hold up a shutdown.
 */
export async function pruneWebhookHistory(db: Knex, retentionDays: number, now = new Date(), shouldStop = () => false): Promise<Pruned> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const pruned: Pruned = { deliveries: 0, events: 0 };
  while (!shouldStop()) {
    // The conditions are repeated on the outer statement: a delivery redelivered (pending again) between the
    // sub-select and the delete is re-checked under its row lock, and kept.
    const { rowCount } = await db.raw<{ rowCount: number }>(
      `DELETE FROM app.webhook_deliveries
        WHERE id IN (SELECT id FROM app.webhook_deliveries
                      WHERE status IN ('succeeded', 'failed') AND ${FINISHED_AT} < ? LIMIT ?)
          AND status IN ('succeeded', 'failed') AND ${FINISHED_AT} < ?`,
      [cutoff, BATCH, cutoff],
    );
    pruned.deliveries += rowCount;
    if (rowCount < BATCH) break;
  }
  while (!shouldStop()) {
    // An event still waiting on a delivery (pending, or redelivered) keeps its body. Deliveries are only ever created
    // with their event, so an event past the cutoff without deliveries never gets one again.
    const { rowCount } = await db.raw<{ rowCount: number }>(
      `UPDATE app.webhook_events SET payload = NULL
        WHERE id IN (SELECT e.id FROM app.webhook_events e
                      WHERE e.payload IS NOT NULL AND e.created_at < ?
                        AND NOT EXISTS (SELECT 1 FROM app.webhook_deliveries d WHERE d.event_id = e.id)
                      LIMIT ?)`,
      [cutoff, BATCH],
    );
    pruned.events += rowCount;
    if (rowCount < BATCH) break;
  }
  return pruned;
}
