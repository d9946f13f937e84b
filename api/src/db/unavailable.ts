// Which failures mean Postgres is out of reach or overloaded (a 503 the client may retry), not a fault of the request.

/**
 * SQLSTATEs of a cancelled statement (statement_timeout), a server shutting down or full, a lost connection, or a
 * transaction Postgres aborted to break a deadlock or a serialization conflict (the same request succeeds on retry).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  "57014", // query_canceled: DATABASE_STATEMENT_TIMEOUT_MS ran out
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, or a fail-over under way)
  "53300", // too_many_connections
  "25P03", // idle_in_transaction_session_timeout
  "40P01", // deadlock_detected
  "40001", // serialization_failure
  "08000", // connection_exception, and the classes below it
  "08001",
  "08003",
  "08004",
  "08006",
]);

/** node-postgres passes the socket's error on when the server refuses the connection (down, or failing over). */
const NETWORK_CODES = new Set(["ECONNREFUSED"]);

export function isDatabaseUnavailable(error: unknown): boolean {
  const candidate = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (typeof candidate?.code === "string" && (UNAVAILABLE_SQLSTATES.has(candidate.code) || NETWORK_CODES.has(candidate.code))) return true;
  // knex: no pooled connection came free within acquireConnectionTimeout.
  if (candidate?.name === "KnexTimeoutError") return true;
  // node-postgres, when the server closes the socket under a query.
  return typeof candidate?.message === "string" && /^Connection terminated(?: unexpectedly|$| due to connection timeout)/.test(candidate.message);
}
