// A brand's own addresses, as its dashboard manages them: the subdomain every brand has, and (from Growth up) one
// custom domain, added with a DNS token to publish, checked by hand or by the checker, and removed. Changes are
// audited; the host cache of this process forgets the domain at once.
import { randomBytes } from "node:crypto";
import { recordAudit, type Actor } from "../audit/service";
import type { BrandContext } from "../brands/service";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { AppError, ConflictError, NotFoundError, PlanFeatureError, RateLimitError, ValidationError } from "../errors";
import type { BrandAddress } from "../links";
import type { Logger } from "../logger";
import { planFeatures } from "../plans/catalogue";
import { verifyDomain } from "./checker";
import { createResolver } from "./dns-check";
import { findBrandAddress, findDomainOfBrand, findVerifiedDomain, insertDomain, markDomainRemoved, reopenDomain, takeManualCheck, type CustomDomainRow } from "./domains.repo";
import { HOSTNAME_MAX, isDnsName, isReservedName, isUnder, normalizeHostname } from "./hostnames";
import { invalidateSiteHosts, serviceHosts } from "./site-hosts";

/** A brand's custom domain with its verification state, as the dashboard shows it. */
export type CustomDomain = CustomDomainRow;

/** "Check now" at most this often per domain (a DNS check costs the resolvers, and answers change slowly). */
export const MANUAL_CHECK_INTERVAL_SECONDS = 30;

export type DomainDeps = { db: Knex; config: Pick<Config, "publicBaseUrl" | "domains">; logger: Logger };


/** 409 DOMAIN_TAKEN: the hostname is another brand's verified domain (which one is not said). */
export class DomainTakenError extends AppError {
  constructor(hostname: string) {
    super(409, "DOMAIN_TAKEN", `${hostname} is already in use. If it is yours, remove it where it is used first.`);
  }
}

/** The brand's address for its absolute URLs (links.ts): slug and verified custom domain; null for no such brand. */
export async function brandAddress(db: Knex, brandId: number): Promise<BrandAddress | null> {
  return (await findBrandAddress(db, brandId)) ?? null;
}

/** The brand's custom domain (undefined: none) and whether its plan allows one. */
export async function customDomainOf(db: Knex, brand: BrandContext): Promise<{ domain: CustomDomainRow | undefined; allowed: boolean }> {
  return { domain: await findDomainOfBrand(db, brand.id), allowed: planFeatures(brand.plan).customDomain };
}

/**
 * Adds the brand's custom domain: checked as a hostname a shop can use, then stored pending with a fresh token for
 * its TXT record; the checker takes it from there. One domain per brand (409 CONFLICT). A hostname is held only by the
 * brand that verified it (409 DOMAIN_TAKEN): one only claimed elsewhere (pending, failed) may be claimed again, and
 * whichever brand proves it first holds it.
 */
export async function addCustomDomain(deps: DomainDeps, brand: BrandContext, actor: Actor, input: string): Promise<CustomDomainRow> {
  if (!planFeatures(brand.plan).customDomain) {
    throw new PlanFeatureError(`A custom domain is not included in the ${brand.plan} plan; it comes with Growth and above. Your subdomain works on every plan.`);
  }
  const hostname = normalizeHostname(input);
  const problem = hostnameProblem(deps.config, hostname, input);
  if (problem) throw new ValidationError([{ field: "hostname", problem }], `${input.trim() || "The hostname"} cannot be used as a custom domain.`);
  // 128 random bits: the TXT record proves control of the name only if nobody could have guessed its value.
  const verifyToken = randomBytes(16).toString("hex");
  return deps.db.transaction(async (trx) => {
    const holder = await findVerifiedDomain(trx, hostname);
    if (holder && holder.brand_id !== brand.id) throw new DomainTakenError(hostname);
    const added = await insertDomain(trx, { brandId: brand.id, hostname, verifyToken });
    if ("taken" in added) {
      if (added.taken === "brand") throw new ConflictError("Your brand has a custom domain already; remove it before adding another.");
      throw new DomainTakenError(hostname);
    }
    await recordAudit(trx, brand.id, actor, { action: "domain.added", target: hostname });
    return added.row;
  });
}

/**
 * Removes the brand's custom domain: from now on its hostname answers 404 (this process at once, every other within
 * seconds), and anyone may add it again.
 */
export async function removeCustomDomain(deps: DomainDeps, brand: BrandContext, actor: Actor): Promise<void> {
  await deps.db.transaction(async (trx) => {
    const removed = await markDomainRemoved(trx, brand.id);
    if (!removed) throw new NotFoundError("Custom domain");
    await recordAudit(trx, brand.id, actor, { action: "domain.removed", target: removed.hostname, details: { status: removed.status } });
  });
  invalidateSiteHosts();
}

/**
 * "Check now": both DNS steps at once, recorded as the checker records them. A failed domain gets a new window, and
 * so does a released one once no other brand holds its hostname; a verified one has nothing to check (409), nor has a
 * released one whose hostname another brand holds (409). At most one per MANUAL_CHECK_INTERVAL_SECONDS (429
 * RATE_LIMIT).
 */
export async function checkCustomDomainNow(deps: DomainDeps, brand: BrandContext): Promise<CustomDomainRow> {
  const current = await findDomainOfBrand(deps.db, brand.id);
  if (!current) throw new NotFoundError("Custom domain");
  if (current.status === "verified") throw new ConflictError(`${current.hostname} is verified already.`);
  if (current.status === "released" && (await findVerifiedDomain(deps.db, current.hostname))) {
    throw new ConflictError(`Another brand holds ${current.hostname} now: remove this domain to add another.`);
  }
  const taken = await takeManualCheck(deps.db, brand.id, MANUAL_CHECK_INTERVAL_SECONDS);
  if (!taken) {
    const wait = MANUAL_CHECK_INTERVAL_SECONDS - Math.floor((Date.now() - new Date(current.manual_check_at ?? 0).getTime()) / 1000);
    throw new RateLimitError(Math.max(1, wait), `Checked a moment ago; check again in ${Math.max(1, wait)} seconds.`);
  }
  const pending = taken.status === "failed" || taken.status === "released" ? await reopenDomain(deps.db, taken.id) : taken;
  if (pending) await verifyDomain(deps, pending, createResolver(deps.config.domains));
  const now = await findDomainOfBrand(deps.db, brand.id);
  if (!now) throw new NotFoundError("Custom domain");
  return now;
}

/** Why `hostname` cannot be a brand's custom domain, or undefined when it can. */
function hostnameProblem(config: DomainDeps["config"], hostname: string, input: string): string | undefined {
  if (input.trim().length === 0) return "must not be empty";
  if (hostname.length > HOSTNAME_MAX) return `must be at most ${HOSTNAME_MAX} characters`;
  if (!isDnsName(hostname)) return "must be a hostname such as shop.example.com: letters, digits, hyphens and dots, no address, no scheme or path";
  if (!hostname.includes(".")) return "must be a full hostname such as shop.example.com";
  const { mainHost, baseDomain } = serviceHosts(config);
  if (isUnder(hostname, baseDomain)) return `must not be under ${baseDomain}: your subdomain there is yours already`;
  if (isUnder(hostname, mainHost) || isUnder(hostname, config.domains.cnameTarget)) return "must be your own shop's hostname, not this service's";
  if (isReservedName(hostname)) return "must be a name public DNS can answer for (not localhost, .local, .invalid or .example)";
  return undefined;
}
