// Hostnames as brands type them and as Host headers carry them: one normal form (lower case, ASCII, no trailing dot),
// the check that a name is a real DNS hostname, and which of the service's addresses a request's host is.
import { domainToASCII } from "node:url";

export const HOSTNAME_MAX = 253;
/** A DNS label of a hostname (RFC 1123): letters, digits and inner hyphens, at most 63. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const ALL_DIGITS = /^[0-9]+$/;
/** Special-use names (RFC 6761) that never reach a brand's shop. `.test` stays allowed: the demo and the tests use it. */
const RESERVED_SUFFIXES = ["localhost", "invalid", "local", "example"];

/** Lower case, trimmed, without a trailing dot, internationalised labels in their xn-- form ("" when not a name). */
export function normalizeHostname(value: string): string {
  const trimmed = value.trim().toLowerCase();
  const bare = trimmed.endsWith(".") ? trimmed.slice(0, -1) : trimmed;
  return bare === "" ? "" : domainToASCII(bare);
}

/**
 * Whether `name` (normalised) is a DNS hostname: at most 253 characters of valid labels. An address is not: an
 * IPv6 one has colons, and no top-level domain is all digits, which rules out every IPv4 spelling (1.2.3.4, 0x7f.1).
 */
export function isDnsName(name: string): boolean {
  if (name.length === 0 || name.length > HOSTNAME_MAX) return false;
  const labels = name.split(".");
  return labels.every((label) => LABEL.test(label)) && !ALL_DIGITS.test(labels[labels.length - 1]!);
}

/** Whether `name` is `domain` or a name under it. */
export function isUnder(name: string, domain: string): boolean {
  return name === domain || name.endsWith(`.${domain}`);
}

/** Whether `name` is under a special-use domain no public DNS answers for (localhost, invalid, local, example). */
export function isReservedName(name: string): boolean {
  return RESERVED_SUFFIXES.some((suffix) => isUnder(name, suffix));
}

/** The service's own addresses, against which a request's host is told apart. */
export type ServiceHosts = {
  /** The public base URL's host: the main site. */
  mainHost: string;
  /** Brands are served at <slug>.<baseDomain>. */
  baseDomain: string;
};

/** Which site a host is: the main one, a brand's subdomain (by slug), or a name that may be a brand's custom domain. */
export type HostKind = { kind: "main" } | { kind: "subdomain"; slug: string } | { kind: "custom"; hostname: string };

const MAIN: HostKind = Object.freeze({ kind: "main" });

/**
 * Classifies a request's host (Koa's ctx.hostname: no port, lower-cased here) with string work only, so the main
 * site costs no lookup. The main host, an address, `localhost`, the base domain itself and any name that cannot be
 * a brand's are the main site; `<slug>.<base>` is a subdomain; any other DNS name may be a custom domain.
 */
export function classifyHost(host: string, hosts: ServiceHosts): HostKind {
  if (host === hosts.mainHost || host === "") return MAIN;
  const name = normalizeHostname(host);
  if (name === hosts.mainHost || name === hosts.baseDomain || !isDnsName(name)) return MAIN;
  if (name.endsWith(`.${hosts.baseDomain}`)) {
    // One label: a brand's slug, if any brand has it (slugs are DNS labels); deeper names are nobody's.
    const slug = name.slice(0, -hosts.baseDomain.length - 1);
    return slug.includes(".") ? MAIN : { kind: "subdomain", slug };
  }
  if (isReservedName(name)) return MAIN;
  return { kind: "custom", hostname: name };
}
