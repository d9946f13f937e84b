// SQL of the dispatcher: claiming due deliveries (FOR UPDATE SKIP LOCKED), recording outcomes, disabling endpoints.
import type { Knex } from "../db/knex";

export type ClaimedDelivery = {
  id: string;
  attempts: number;
  eventId: string;
  eventType: string;
  /** The payload exactly as enqueued: the bytes that are signed and sent. */
  body: string;
  endpointId: number;
  brandId: number;
  url: string;
  endpointActive: boolean;
  secretCiphertext: string;
  /** Set while a rotation's overlap lasts. */
  previousSecretCiphertext: string | null;
};

type ClaimRow = {
  id: string;
  attempts: number;
  event_id: string;
  type: string;
  body: string;
  endpoint_id: number;
  brand_id: number;
  url: string;
  status: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
};

export type ClaimRequest = {
  /** Deliveries to claim at most. */
  limit: number;
  leaseMs: number;
  claimToken: string;
  /** Claims one endpoint may hold in the claiming dispatcher (in flight or waiting in its queue). */
  perEndpoint: number;
  /** The same for all of one brand's endpoints together. */
  perBrand: number;
  /** What the dispatcher holds already, per endpoint and per brand ([id, count]). */
  held: { endpoints: Array<[number, number]>; brands: Array<[number, number]> };
  /** Endpoints whose receivers answer fast: each may hold as many claims as a whole brand. */
  fastEndpoints?: readonly number[];
};

/**
 * Claims up to `limit` due deliveries for `leaseMs`: they move to 'delivering' and count an attempt. A claim whose
 * holder dies lapses at the end of the lease and any dispatcher takes the delivery over. Rows another claimer has
 * locked are skipped, so concurrent dispatchers never claim the same attempt.
 *
 * Fair across brands: no endpoint or brand gets more than its cap, less what the dispatcher holds of it already,
 * however old its backlog, and the claim takes brands in turns (each brand's oldest due delivery, then each one's
 * second...), so a brand whose receivers hang or whose backlog is long cannot hold back the others.
 */
export async function claimDueDeliveries(db: Knex, claim: ClaimRequest): Promise<ClaimedDelivery[]> {
  const result = await db.raw<{ rows: ClaimRow[] }>(
    `WITH held AS (
       SELECT * FROM json_to_recordset(?::json) AS h(endpoint_id int, n int)
     ), brand_held AS (
       SELECT * FROM json_to_recordset(?::json) AS b(brand_id int, n int)
     ), due AS (
       -- Per endpoint, only as many of its oldest due deliveries as it may still take: a long backlog costs one short
       -- index range, not a scan. Endpoints of every status: a lapsed claim on a disabled one is taken over, and the
       -- dispatcher abandons it.
       SELECT x.id, x.next_attempt_at, ep.brand_id,
              row_number() OVER (PARTITION BY ep.brand_id ORDER BY x.next_attempt_at, x.id) AS turn
         FROM app.webhook_endpoints ep
         LEFT JOIN held h ON h.endpoint_id = ep.id
        CROSS JOIN LATERAL (
              SELECT d.id, d.next_attempt_at FROM app.webhook_deliveries d
               WHERE d.endpoint_id = ep.id AND d.status IN ('pending', 'delivering') AND d.next_attempt_at <= now()
               ORDER BY d.next_attempt_at
               LIMIT greatest(CASE WHEN ep.id = ANY (?::int[]) THEN ?::int ELSE ?::int END - coalesce(h.n, 0), 0)
               FOR UPDATE SKIP LOCKED
        ) x
     ), picked AS (
       SELECT due.id, due.turn, due.next_attempt_at FROM due
         LEFT JOIN brand_held bh ON bh.brand_id = due.brand_id
        WHERE due.turn <= ?::int - coalesce(bh.n, 0)
        ORDER BY due.turn, due.next_attempt_at
        LIMIT ?
     ), claimed AS (
       UPDATE app.webhook_deliveries d
          SET status = 'delivering', attempts = d.attempts + 1, claim_token = ?,
              next_attempt_at = now() + make_interval(secs => ?), last_attempt_at = now()
         FROM picked WHERE d.id = picked.id
       RETURNING d.id, d.attempts, d.event_id, d.endpoint_id, picked.turn, picked.next_attempt_at AS due_at
     ), async_commit AS (
       -- Visibility to other dispatchers is immediate either way; only a database crash could lose this commit,
       -- and then the delivery is sent again under the same webhook-id. Not waiting for the WAL flush is what
       -- lets one dispatcher keep up with a fast receiver.
       SELECT set_config('synchronous_commit', 'off', true)
     )
     SELECT c.id, c.attempts, c.event_id, ev.type, ev.payload::text AS body, c.endpoint_id, ep.brand_id, ep.url, ep.status,
            ep.secret_ciphertext,
            CASE WHEN ep.previous_secret_expires_at > now() THEN ep.previous_secret_ciphertext END AS previous_secret_ciphertext
       FROM claimed c
       JOIN app.webhook_events ev ON ev.id = c.event_id
       JOIN app.webhook_endpoints ep ON ep.id = c.endpoint_id
       CROSS JOIN async_commit
      ORDER BY c.turn, c.due_at`,
    [
      JSON.stringify(claim.held.endpoints.map(([endpoint_id, n]) => ({ endpoint_id, n }))),
      JSON.stringify(claim.held.brands.map(([brand_id, n]) => ({ brand_id, n }))),
      `{${(claim.fastEndpoints ?? []).map((id) => Math.trunc(id)).join(",")}}`,
      claim.perBrand,
      claim.perEndpoint,
      claim.perBrand,
      claim.limit,
      claim.claimToken,
      claim.leaseMs / 1000,
    ],
  );
  return result.rows.map((row) => ({
    id: row.id,
    attempts: row.attempts,
    eventId: row.event_id,
    eventType: row.type,
    body: row.body,
    endpointId: row.endpoint_id,
    brandId: row.brand_id,
    url: row.url,
    endpointActive: row.status === "active",
    secretCiphertext: row.secret_ciphertext,
    previousSecretCiphertext: row.previous_secret_ciphertext,
  }));
}

export type Delivered = { id: string; claimToken: string; status: number };

/**
 * Records 2xx answers, many in one statement (the dispatcher groups them while the previous write is in flight).
 * Returns the ids recorded; an id missing from it had lost its claim (it lapsed and another dispatcher took over).
 */
export async function recordDelivered(db: Knex, delivered: Delivered[]): Promise<Set<string>> {
  const result = await db.raw<{ rows: Array<{ id: string }> }>(
    `WITH v AS (
       SELECT * FROM json_to_recordset(?::json) AS v(id text, "claimToken" uuid, status int)
     ), d AS (
       UPDATE app.webhook_deliveries d
          SET status = 'succeeded', delivered_at = now(), last_response_code = v.status, last_error = NULL, claim_token = NULL
         FROM v WHERE d.id = v.id AND d.claim_token = v."claimToken"
       RETURNING d.id, d.endpoint_id
     ), e AS (
       UPDATE app.webhook_endpoints ep SET consecutive_failures = 0, failing_since = NULL
        WHERE ep.id IN (SELECT endpoint_id FROM d) AND (ep.consecutive_failures <> 0 OR ep.failing_since IS NOT NULL)
       RETURNING 1
     ), async_commit AS (
       -- This commit need not wait for the WAL flush: losing it in a database crash only means the deliveries
       -- are sent again under the same webhook-id, which receivers deduplicate anyway.
       SELECT set_config('synchronous_commit', 'off', true)
     )
     SELECT id FROM d, async_commit`,
    [JSON.stringify(delivered)],
  );
  return new Set(result.rows.map((row) => row.id));
}

export type FailureRecord = {
  status: number | null;
  error: string;
  /** null: no attempt left, the delivery fails for good. */
  retryInMs: number | null;
};

/**
 * Records a failed attempt and counts it against the endpoint. Returns the endpoint's failure run (for the caller's
 * disabling rule), or undefined when the claim was lost.
 */
export async function recordFailed(
  db: Knex,
  id: string,
  claimToken: string,
  failure: FailureRecord,
): Promise<{ endpointId: number; failingSinceMs: number } | undefined> {
  const result = await db.raw<{ rows: Array<{ id: number; failing_since: Date }> }>(
    `WITH d AS (
       UPDATE app.webhook_deliveries
          SET status = CASE WHEN ?::int IS NULL THEN 'failed' ELSE 'pending' END,
              next_attempt_at = now() + make_interval(secs => coalesce(?::int, 0) / 1000.0),
              last_response_code = ?, last_error = ?, claim_token = NULL
        WHERE id = ? AND claim_token = ?
       RETURNING endpoint_id
     )
     UPDATE app.webhook_endpoints ep
        SET consecutive_failures = ep.consecutive_failures + 1, failing_since = coalesce(ep.failing_since, now())
       FROM d WHERE ep.id = d.endpoint_id
     RETURNING ep.id, ep.failing_since`,
    [failure.retryInMs, failure.retryInMs, failure.status, failure.error.slice(0, 500), id, claimToken],
  );
  const row = result.rows[0];
  return row ? { endpointId: row.id, failingSinceMs: row.failing_since.getTime() } : undefined;
}

/** Gives a claim back untried (graceful shutdown, or a lease too far gone to send safely). */
export async function releaseClaim(db: Knex, id: string, claimToken: string): Promise<void> {
  await db.raw(
    `UPDATE app.webhook_deliveries
        SET status = 'pending', attempts = greatest(attempts - 1, 0), next_attempt_at = now(), claim_token = NULL
      WHERE id = ? AND claim_token = ?`,
    [id, claimToken],
  );
}

/** Fails a claimed delivery without an attempt on the wire (its endpoint was disabled meanwhile). */
export async function abandonDelivery(db: Knex, id: string, claimToken: string, reason: string): Promise<void> {
  await db.raw(
    `UPDATE app.webhook_deliveries
        SET status = 'failed', attempts = greatest(attempts - 1, 0), last_error = ?, claim_token = NULL
      WHERE id = ? AND claim_token = ?`,
    [reason.slice(0, 500), id, claimToken],
  );
}

/** Disables an endpoint and fails its outstanding deliveries, saying why; the brand sees the reason. */
export async function disableEndpoint(db: Knex, endpointId: number, reason: string): Promise<void> {
  await db.transaction(async (trx) => {
    const updated = await trx.raw<{ rowCount: number }>(
      `UPDATE app.webhook_endpoints
          SET status = 'disabled', disabled_reason = ?, disabled_at = now(), updated_at = now()
        WHERE id = ? AND status = 'active'`,
      [reason.slice(0, 500), endpointId],
    );
    if (updated.rowCount === 0) return;
    await trx.raw(
      `UPDATE app.webhook_deliveries SET status = 'failed', last_error = ?, claim_token = NULL
        WHERE endpoint_id = ? AND status = 'pending'`,
      [`not sent: endpoint disabled (${reason})`.slice(0, 500), endpointId],
    );
  });
}
