// When a failed delivery is tried again: exponential backoff with jitter over about three days.

/** Delay before retry n (n = 1 is the first retry), in seconds; 12 attempts in all over about 70.7 hours. */
export const RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600, 24 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** ±20 %: retries of many deliveries that failed together (a receiver outage) spread out instead of arriving at once. */
export const JITTER = 0.2;
/**
 * An endpoint is disabled when a delivery uses its last attempt and the endpoint has not accepted any delivery for
 * at least this long (so one bad payload does not disable a receiver that takes everything else).
 */
export const DISABLE_AFTER_FAILING_MS = 60 * 3600 * 1000;

/** Milliseconds until the next attempt after `attempts` failed ones, or null when the schedule is used up. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_SECONDS[Math.max(0, attempts - 1)]! * 1000;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
