// SQL the dashboard's webhook screen needs beyond endpoints.repo.ts: each endpoint's latest delivery and when its
// secret was last rotated.
import type { Knex } from "../db/knex";

export type EndpointActivity = {
  lastDelivery: { status: string; at: Date } | null;
  /** The end of the last rotation's overlap, past or not (endpoints.repo.ts hides it once past). */
  previousSecretExpiresAt: Date | null;
};

/** The activity of each of the brand's endpoints, by endpoint id. */
export async function endpointActivity(db: Knex, brandId: number): Promise<Map<number, EndpointActivity>> {
  const result = await db.raw<{ rows: Array<{ id: number; previous_secret_expires_at: Date | null; status: string | null; at: Date | null }> }>(
    `SELECT ep.id, ep.previous_secret_expires_at, last.status, last.at
       FROM app.webhook_endpoints ep
       LEFT JOIN LATERAL (
             SELECT d.status, coalesce(d.delivered_at, d.last_attempt_at, d.created_at) AS at
               FROM app.webhook_deliveries d
              WHERE d.endpoint_id = ep.id
              ORDER BY d.created_at DESC, d.id DESC
              LIMIT 1
       ) last ON true
      WHERE ep.brand_id = ?`,
    [brandId],
  );
  return new Map(
    result.rows.map((row) => [
      row.id,
      { lastDelivery: row.status && row.at ? { status: row.status, at: row.at } : null, previousSecretExpiresAt: row.previous_secret_expires_at },
    ]),
  );
}
