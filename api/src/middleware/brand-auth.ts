// Authenticates v1 requests: a brand API key (Authorization: Bearer) and the brand's slug (X-Service-Brand).
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../deps";
import { assertNotLocked, recordFailure, sleep, type ThrottlePolicy } from "../auth/throttle";
import { brandForKey, type BrandContext, type BrandRecord } from "../brands/service";
import { BrandInactiveError, InvalidKeyError, MissingKeyError } from "../errors";
import { effectiveLimits } from "../plans/catalogue";

/**
 * Invalid keys from one client address. Keys are 256-bit random values, so this is not about guessing them: it
 * stops a client stuck on a revoked key (or a scanner) from costing a key lookup per request. Integrations behind
 * one NAT address share the budget, so it refuses only at a rate no working integration reaches: slowed after 10
 * invalid keys in 10 minutes, refused (429 RATE_LIMIT, Retry-After) for 10 minutes at 50.
 */
export const API_KEY_CLIENT_POLICY: ThrottlePolicy = { windowSeconds: 600, slowAfter: 10, lockAfter: 50, lockSeconds: 600 };

/** What an Authorization header holds: nothing (or a bare "Bearer"), a bearer token, or something else. */
export type Credentials = { kind: "none" } | { kind: "bearer"; token: string } | { kind: "other" };

/**
 * Reads `Authorization: Bearer <token>` (scheme in any case, white space around and after it) with plain string
 * operations, each one pass over the header: anyone can send a 16 KB header, and a regular expression such as
 * /^Bearer(?:\s+(\S*))?\s*$/ backtracks quadratically on "Bearer", thousands of spaces, "a b".
 */
export function parseAuthorization(header: string): Credentials {
  const value = header.trim();
  if (value === "") return { kind: "none" };
  if (value.slice(0, 6).toLowerCase() !== "bearer") return { kind: "other" };
  const rest = value.slice(6);
  const token = rest.trim();
  if (token === "") return { kind: "none" };
  // "Bearerabc" is another scheme; "Bearer a b" is not one token. \s is one character, so the test is one pass.
  if (token.length === rest.length || /\s/.test(token)) return { kind: "other" };
  return { kind: "bearer", token };
}

// The brand as requests see it, per brand record: a cached key hands out the same record until it changes (2 s at
// most), so its limits and this object are worked out once, not per request. Frozen: requests share it.
const contextByRecord = new WeakMap<BrandRecord, Readonly<BrandContext>>();
function contextOf(brand: BrandRecord): Readonly<BrandContext> {
  let context = contextByRecord.get(brand);
  if (!context) {
    context = Object.freeze({
      id: brand.id,
      slug: brand.slug,
      name: brand.name,
      uidPrefix: brand.uidPrefix,
      status: brand.status,
      plan: brand.plan,
      limits: Object.freeze(effectiveLimits({ plan: brand.plan, limit_overrides: brand.limitOverrides })),
    });
    contextByRecord.set(brand, context);
  }
  return context;
}

/**
 * Order: MISSING_KEY naming the absent header (Authorization, then X-Service-Brand: nothing to check, not a failure);
 * then the credentials, anything wrong being INVALID_KEY: an Authorization header that is not "Bearer <key>" says so;
 * an unknown key, a revoked key and a key of another brand get one answer, so it tells nothing about other brands.
 * Wrong credentials count against the client address, which gets 429 RATE_LIMIT once locked. Last BRAND_INACTIVE,
 * which only the holder of a valid key learns. (docs/brand-api.md, "Authentication errors".)
 */
export function requireBrand(deps: AppDeps, policy: ThrottlePolicy = API_KEY_CLIENT_POLICY): Middleware<AppState> {
  return async (ctx, next) => {
    const headers = ctx.req.headers;
    const credentials = parseAuthorization(headers.authorization ?? "");
    if (credentials.kind === "none") throw new MissingKeyError("Authorization");
    const slug = String(headers["x-service-brand"] ?? "").trim().toLowerCase();
    if (credentials.kind === "bearer" && !slug) throw new MissingKeyError("X-Service-Brand");

    const brand = credentials.kind === "bearer" ? await brandForKey(deps.db, credentials.token, deps.keyCache) : undefined;
    if (!brand || brand.slug !== slug) {
      // The lock is read only for a failed key: a valid key is not the guessing the lock stops, and this keeps the
      // lock check off the path of every valid request. A locked address still learns nothing: it gets 429.
      const clientKey = `apikey:ip:${ctx.ip}`;
      await assertNotLocked(deps.db, [clientKey]);
      const delayMs = await recordFailure(deps.db, [{ key: clientKey, policy }]);
      await sleep(delayMs);
      throw new InvalidKeyError(credentials.kind === "bearer" ? "key" : "scheme");
    }
    if (brand.status !== "active") throw new BrandInactiveError();

    ctx.state.brand = contextOf(brand);
    await next();
  };
}
