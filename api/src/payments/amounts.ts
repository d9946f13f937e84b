// Money at the gateway boundary: our integer minor units against the decimal strings the gateways send and answer.

/** The currencies the gateways take all have two decimals (BDT poisha, cents), so a minor unit is 1/100. */
const MINOR_PER_MAJOR = 100;
const AMOUNT = /^(\d{1,13})(?:\.(\d{1,6}))?$/;

/** "150.00" for 15000: the string form every gateway's protocol wants. */
export function formatAmount(amountMinor: number): string {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new RangeError(`not an amount in minor units: ${amountMinor}`);
  const fraction = String(amountMinor % MINOR_PER_MAJOR).padStart(2, "0");
  return `${Math.floor(amountMinor / MINOR_PER_MAJOR)}.${fraction}`;
}

/**
 * The minor units of a gateway-reported amount ("150", "150.5", "150.00", "150.0000"), read from the digits and not
 * through a float, or null when it is not a plain decimal or has a non-zero digit past the minor unit: such an
 * amount cannot equal ours, and comparing it "within a poisha" would accept a different charge.
 */
export function parseAmount(value: unknown): number | null {
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== "string") return null;
  const match = AMOUNT.exec(text.trim());
  if (!match) return null;
  const fraction = (match[2] ?? "").padEnd(2, "0");
  if (/[1-9]/.test(fraction.slice(2))) return null;
  const minor = Number(match[1]) * MINOR_PER_MAJOR + Number(fraction.slice(0, 2));
  return Number.isSafeInteger(minor) ? minor : null;
}

/**
 * Why what a gateway reported is not our order (its reference, amount or currency), or null when all match. Every
 * settlement goes through this before it may count as paid.
 */
export function reportMismatch(
  expected: Readonly<{ reference: string; amountMinor: number; currency: string }>,
  reported: Readonly<{ reference: unknown; amount: unknown; currency: unknown }>,
): string | null {
  if (reported.reference !== expected.reference) return `the gateway reported reference ${describe(reported.reference)}, not ${expected.reference}`;
  const amount = parseAmount(reported.amount);
  if (amount !== expected.amountMinor) {
    return `the gateway reported amount ${describe(reported.amount)}, not ${formatAmount(expected.amountMinor)}`;
  }
  if (reported.currency !== expected.currency) return `the gateway reported currency ${describe(reported.currency)}, not ${expected.currency}`;
  return null;
}

/** A reported value for a message: short, and never an object dump. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  if (typeof value === "number") return String(value);
  return "none";
}
