// Idempotency keys: the first outcome of a request is stored with its writes, in one transaction, and a retry with
// the same key and body gets that outcome again without writing anything; the same key with another body is refused.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { Knex } from "../db/knex";
import { ConflictError } from "../errors";
import { findIdempotentResponse, storeIdempotentResponse, type StoredResponse } from "./idempotency.repo";

/** Whose key it is and what it was sent with: keys are per brand and endpoint. */
export type IdempotencyScope = { brandId: number; endpoint: string; key: string; request: unknown };

/** A stored or fresh outcome, as a status and a body. */
export type Outcome = { status: number; body: unknown };

class IdempotencyRace extends Error {}

/** The hash a retry's body must match: of its canonical JSON, so key order and spacing do not matter. */
export function requestHashOf(request: unknown): string {
  return createHash("sha256").update(canonicalize(request) ?? "").digest("hex");
}

/**
 * Runs `work` once per key: it gets a transaction for its writes, and the outcome it returns is stored in the same
 * transaction. An earlier outcome for the key is returned instead (`replayed`), without running `work`; one with
 * another request body is a CONFLICT. Of concurrent requests with one key, one commits and the others answer with
 * its outcome.
 */
export async function runOnce(db: Knex, scope: IdempotencyScope, work: (trx: Knex) => Promise<Outcome>): Promise<Outcome & { replayed: boolean }> {
  const requestHash = requestHashOf(scope.request);
  const replay = (stored: StoredResponse) => {
    if (stored.request_hash !== requestHash) throw new ConflictError("This Idempotency-Key was used with a different request body.");
    return { status: stored.response_status, body: stored.response_body, replayed: true };
  };
  const earlier = await findIdempotentResponse(db, scope.brandId, scope.endpoint, scope.key);
  if (earlier) return replay(earlier);
  const outcome = await db
    .transaction(async (trx) => {
      const fresh = await work(trx);
      // A concurrent request with the same key waits here on the key's unique index until this one commits.
      const stored = await storeIdempotentResponse(trx, {
        brand_id: scope.brandId,
        endpoint: scope.endpoint,
        key: scope.key,
        request_hash: requestHash,
        response_status: fresh.status,
        response_body: fresh.body,
      });
      // Another request with this key committed first: undo this one's writes and answer with theirs.
      if (!stored) throw new IdempotencyRace();
      return { ...fresh, replayed: false };
    })
    .catch(async (error: unknown) => {
      if (error instanceof IdempotencyRace) return undefined;
      // The work failed on what a concurrent request with this key wrote and committed first (a unique index, such as
      // the brand's SKU, waits for it and then refuses): that request's outcome is the answer, as above.
      if (await findIdempotentResponse(db, scope.brandId, scope.endpoint, scope.key)) return undefined;
      throw error;
    });
  if (outcome) return outcome;
  return replay((await findIdempotentResponse(db, scope.brandId, scope.endpoint, scope.key))!);
}
