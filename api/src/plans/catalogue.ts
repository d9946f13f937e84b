// The plan catalogue (spec section 8) as data, and the limits a brand actually gets: its plan's, overridden per brand.

export type PlanName = "starter" | "growth" | "enterprise";

/**
 * Limits in force for one brand. Calls and requests are always finite: every v1 response reports them as integers
 * (X-Plan-API-Limit) and the meter needs a bound. `null` on the other meters means unlimited.
 */
export type EffectiveLimits = {
  apiCallsPerMonth: number;
  requestsPerHour: number;
  certsPerMonth: number | null;
  scansPerMonth: number | null;
  carbonRatingsPerMonth: number | null;
  /** The monthly price used for `estimated_cost_usd`; null when the plan has no list price and none was agreed. */
  priceUsdPerMonth: number | null;
};

export type Plan = {
  name: PlanName;
  tier: 1 | 2 | 3;
  title: string;
  limits: EffectiveLimits;
  notes: string;
};

/**
 * Tiers 1 and 2 are the spec's table. The spec gives no hourly limit below enterprise: 100 and 500 requests an
 * hour keep the hourly/monthly ratio of enterprise's defaults in the same range. Enterprise's figures are the v1
 * integration guide's (10,000 calls, 500 certificates a month, 1,000 requests an hour), taken as defaults that a
 * per-brand override (custom SLA) replaces; it has no list price ("contact sales").
 */
export const PLANS: Readonly<Record<PlanName, Readonly<Plan>>> = Object.freeze({
  starter: {
    name: "starter",
    tier: 1,
    title: "Starter",
    limits: { apiCallsPerMonth: 1_000, requestsPerHour: 100, certsPerMonth: 500, scansPerMonth: 5_000, carbonRatingsPerMonth: null, priceUsdPerMonth: 49 },
    notes: "subdomain only; mobile payments",
  },
  growth: {
    name: "growth",
    tier: 2,
    title: "Growth",
    limits: { apiCallsPerMonth: 10_000, requestsPerHour: 500, certsPerMonth: 5_000, scansPerMonth: 50_000, carbonRatingsPerMonth: null, priceUsdPerMonth: 199 },
    notes: "custom domain; all gateways including card",
  },
  enterprise: {
    name: "enterprise",
    tier: 3,
    title: "Enterprise",
    limits: { apiCallsPerMonth: 10_000, requestsPerHour: 1_000, certsPerMonth: 500, scansPerMonth: null, carbonRatingsPerMonth: null, priceUsdPerMonth: null },
    notes: "contact sales; API access, white-label, custom SLA",
  },
});

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** How a shopper pays: two Bangladeshi mobile-banking gateways, a card gateway, and Cash QR confirmed by a cashier. */
export const PAYMENT_METHODS = ["bkash", "nagad", "sslcommerz", "cash_qr"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** What a plan allows beyond its meters (spec section 8's notes). */
export type PlanFeatures = Readonly<{
  /** "custom domain" from Growth (tier 2) up; Starter is "subdomain only". */
  customDomain: boolean;
  /**
   * Starter has "mobile payments" (bKash, Nagad); Growth has "all gateways including card". Cash QR needs no gateway
   * account and takes cash at the brand's own till, so every plan has it.
   */
  paymentMethods: readonly PaymentMethod[];
}>;

const FEATURES: Readonly<Record<PlanName, PlanFeatures>> = Object.freeze({
  starter: Object.freeze({ customDomain: false, paymentMethods: Object.freeze(["bkash", "nagad", "cash_qr"] as const) }),
  growth: Object.freeze({ customDomain: true, paymentMethods: PAYMENT_METHODS }),
  enterprise: Object.freeze({ customDomain: true, paymentMethods: PAYMENT_METHODS }),
});

/** The features of a brand's plan; an unknown plan name gets Starter's, like effectiveLimits. */
export function planFeatures(plan: string): PlanFeatures {
  return isPlanName(plan) ? FEATURES[plan] : FEATURES.starter;
}

export function isPlanName(value: string): value is PlanName {
  return Object.prototype.hasOwnProperty.call(PLANS, value);
}

/** Per-brand overrides as stored in app.brands.limit_overrides (snake_case, like the CLI flags and the API). */
export type LimitOverrides = Partial<{
  api_calls_per_month: number;
  requests_per_hour: number;
  certs_per_month: number | null;
  scans_per_month: number | null;
  carbon_ratings_per_month: number | null;
  price_usd_per_month: number | null;
}>;

/** Override key → limit field; `nullable` says whether "unlimited" (null) is allowed. */
export const OVERRIDE_FIELDS = {
  api_calls_per_month: { field: "apiCallsPerMonth", nullable: false },
  requests_per_hour: { field: "requestsPerHour", nullable: false },
  certs_per_month: { field: "certsPerMonth", nullable: true },
  scans_per_month: { field: "scansPerMonth", nullable: true },
  carbon_ratings_per_month: { field: "carbonRatingsPerMonth", nullable: true },
  price_usd_per_month: { field: "priceUsdPerMonth", nullable: true },
} as const satisfies Record<keyof LimitOverrides, { field: keyof EffectiveLimits; nullable: boolean }>;

export type OverrideKey = keyof typeof OVERRIDE_FIELDS;
export const OVERRIDE_KEYS = Object.keys(OVERRIDE_FIELDS) as OverrideKey[];

/** Upper bound of any count limit: keeps counters inside Postgres' int4. */
export const MAX_LIMIT = 1_000_000_000;

/**
 * Checks overrides read from the database or typed by an operator; returns the problems, empty when valid.
 * A stored value that fails these checks is ignored by effectiveLimits rather than trusted.
 */
export function overrideProblems(overrides: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(overrides)) {
    const spec = (OVERRIDE_FIELDS as Record<string, { nullable: boolean } | undefined>)[key];
    if (!spec) {
      problems.push(`${key} is not a limit (known: ${OVERRIDE_KEYS.join(", ")})`);
    } else if (value === null) {
      if (!spec.nullable) problems.push(`${key} cannot be unlimited`);
    } else if (key === "price_usd_per_month") {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 10_000_000) problems.push(`${key} must be a number from 0 to 10000000`);
    } else if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_LIMIT) {
      problems.push(`${key} must be an integer from 0 to ${MAX_LIMIT}`);
    }
  }
  return problems;
}

/** The limits in force for a brand: its plan's defaults, each replaced by a valid override when one is set. */
export function effectiveLimits(brand: { plan: string; limit_overrides?: Record<string, unknown> | null }): EffectiveLimits {
  // An unknown plan name (edited by hand in the database) gets the smallest plan, never unlimited use.
  const plan = isPlanName(brand.plan) ? PLANS[brand.plan] : PLANS.starter;
  const limits: EffectiveLimits = { ...plan.limits };
  for (const [key, value] of Object.entries(brand.limit_overrides ?? {})) {
    if (overrideProblems({ [key]: value }).length > 0) continue;
    const { field } = OVERRIDE_FIELDS[key as OverrideKey];
    (limits as Record<string, number | null>)[field] = value as number | null;
  }
  return limits;
}

/** The limits as the API and the CLI show them. */
export function presentLimits(limits: EffectiveLimits) {
  return {
    api_calls_per_month: limits.apiCallsPerMonth,
    requests_per_hour: limits.requestsPerHour,
    certs_per_month: limits.certsPerMonth,
    scans_per_month: limits.scansPerMonth,
    carbon_ratings_per_month: limits.carbonRatingsPerMonth,
    price_usd_per_month: limits.priceUsdPerMonth,
  };
}
