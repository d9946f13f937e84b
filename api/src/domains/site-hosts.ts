// Which site a request's host is: the main site, a brand's (its subdomain <slug>.<BASE_DOMAIN> or its verified custom
// domain), or a name of ours that serves nothing (a subdomain no active brand has, a custom domain pending, failed or
// removed). The main host, addresses, localhost and any name never added as a custom domain are the main site, as
// every host always was; the main host costs no lookup. Other hosts: one indexed lookup, cached per host for a few
// seconds. A change this process makes is seen at once (invalidateSiteHosts); one made elsewhere as soon as the
// brand_auth notification arrives (the key cache's LISTEN connection, migrations 007 and 023), within the TTL at worst.
import type { Config } from "../config";
import type { KeyCache } from "../brands/key-cache";
import type { Knex } from "../db/knex";
import { findBrandBySlug, findBrandIdOfProduct, findHostname } from "./domains.repo";
import { classifyHost, type HostKind, type ServiceHosts } from "./hostnames";

/** The brand a host serves, and how it was named. */
export type SiteBrand = { id: number; slug: string; name: string; via: "subdomain" | "custom_domain"; host: string };

/** What a host serves: the main site, one brand's site, or nothing (404 for every path). */
export type HostSite = { site: "main" } | { site: "brand"; brand: SiteBrand } | { site: "none" };

/** How long an answer is kept: a removed domain stops being served within this on a replica that missed the news. */
export const SITE_HOST_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

const MAIN: HostSite = Object.freeze({ site: "main" });
const NONE: HostSite = Object.freeze({ site: "none" });

type Entry = { answer: Promise<HostSite>; until: number; local: number; shared: number | undefined };

/** Bumped by every change this process makes to what a host serves. */
let localGeneration = 0;

/** Forgets every cached answer of this process: call after verifying or removing a domain. */
export function invalidateSiteHosts(): void {
  localGeneration += 1;
}

export class SiteHosts {
  private readonly entries = new Map<string, Entry>();
  readonly hosts: ServiceHosts;

  constructor(private readonly deps: { db: Knex; config: Pick<Config, "publicBaseUrl" | "domains">; keyCache?: KeyCache }) {
    this.hosts = serviceHosts(deps.config);
  }

  /** What kind of host `host` is, by its name alone (no lookup). */
  classify(host: string): HostKind {
    return classifyHost(host, this.hosts);
  }

  /** What a host that is not the main site by its name serves. */
  resolve(kind: Exclude<HostKind, { kind: "main" }>): Promise<HostSite> {
    const key = kind.kind === "subdomain" ? `${kind.slug}.${this.hosts.baseDomain}` : kind.hostname;
    const now = Date.now();
    const shared = this.deps.keyCache?.generation;
    const entry = this.entries.get(key);
    if (entry && entry.until > now && entry.local === localGeneration && entry.shared === shared) return entry.answer;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const answer = this.lookUp(kind, key);
    // Concurrent requests for the same host share the one lookup; a failed lookup is not kept.
    this.entries.set(key, { answer, until: now + SITE_HOST_TTL_MS, local: localGeneration, shared });
    answer.catch(() => this.entries.delete(key));
    return answer;
  }

  /** The brand of a product UID (one indexed lookup, not cached), undefined for a UID no product has. */
  brandOfProduct(uid: string): Promise<number | undefined> {
    return findBrandIdOfProduct(this.deps.db, uid);
  }

  private async lookUp(kind: Exclude<HostKind, { kind: "main" }>, host: string): Promise<HostSite> {
    if (kind.kind === "subdomain") {
      const brand = await findBrandBySlug(this.deps.db, kind.slug);
      return brand?.status === "active" ? { site: "brand", brand: { id: brand.id, slug: brand.slug, name: brand.name, via: "subdomain", host } } : NONE;
    }
    const found = await findHostname(this.deps.db, kind.hostname);
    if (!found) return MAIN;
    const served = found.domain_status === "verified" && found.status === "active";
    return served ? { site: "brand", brand: { id: found.id, slug: found.slug, name: found.name, via: "custom_domain", host } } : NONE;
  }
}

/** The main host (the public base URL's) and the base domain of brand subdomains. */
export function serviceHosts(config: Pick<Config, "publicBaseUrl" | "domains">): ServiceHosts {
  return { mainHost: new URL(config.publicBaseUrl).hostname.toLowerCase(), baseDomain: config.domains.baseDomain };
}
