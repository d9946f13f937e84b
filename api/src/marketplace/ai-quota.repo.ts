// How many RFQ matches may use the AI model: per client address and clock hour, and service-wide per UTC day, counted
// in Postgres so every API replica shares the figures. A match past either limit is served by the local matcher and
// says so in `model`; the endpoint itself stays open, since local matching costs nothing.
import ipaddr from "ipaddr.js";
import type { Knex } from "../db/knex";

export type AiQuotaLimits = { matchesPerClientHour: number; matchesPerDay: number };

/** Windows older than this are swept when a window opens. */
const RETENTION_MS = 2 * 86_400_000;

/**
 * Takes one AI-assisted match for `client`, or says which limit refuses it ("client AI quota", "daily AI quota").
 * Both counters move in one transaction: a match refused by either counts against neither.
 */
export async function takeAiMatch(db: Knex, limits: AiQuotaLimits, client: string, now = new Date()): Promise<string | undefined> {
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  try {
    await db.transaction(async (trx) => {
      const clientCalls = await take(trx, `client:${clientBucket(client)}`, hour, limits.matchesPerClientHour);
      if (clientCalls === undefined) throw new Refused("client AI quota");
      // Thrown after the client's count moved: the transaction rolls it back.
      if ((await take(trx, "service", day, limits.matchesPerDay)) === undefined) throw new Refused("daily AI quota");
      if (clientCalls === 1) await trx("app.ai_quota").where("window_start", "<", new Date(now.getTime() - RETENTION_MS)).del();
    });
    return undefined;
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
}

class Refused extends Error {}

/**
 * What one client is, for counting: an IPv4 address, or an IPv6 /64 (one subscriber's network is at least a /64,
 * so a client could otherwise rotate through addresses inside it).
 */
export function clientBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const hextets = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${hextets.join(":")}::/64`;
}

/** Adds one to the window's count if it is below `limit`; the new count, or undefined when the limit is reached. */
async function take(trx: Knex.Transaction, scope: string, windowStart: Date, limit: number): Promise<number | undefined> {
  if (limit <= 0) return undefined;
  const { rows } = await trx.raw<{ rows: Array<{ calls: number }> }>(
    `INSERT INTO app.ai_quota (scope, window_start, calls) VALUES (?, ?, 1)
     ON CONFLICT (scope, window_start) DO UPDATE SET calls = app.ai_quota.calls + 1 WHERE app.ai_quota.calls < ?
     RETURNING calls`,
    [scope, windowStart, limit],
  );
  return rows[0]?.calls;
}
