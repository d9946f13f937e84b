// The two DNS steps of a custom domain's verification, asked of the configured resolvers (DNS_RESOLVERS, else the
// system's): the hostname is a CNAME of our target (a chain of CNAMEs is followed, a bounded number of hops), and a
// TXT record at _passport-verify.<hostname> holds the brand's token. Results are sentences a brand can act on.
import { Resolver } from "node:dns/promises";
import type { Config } from "../config";
import { normalizeHostname } from "./hostnames";

/** The underscore label of the ownership record, like Cloudflare's _cf-custom-hostname and Vercel's _vercel. */
export const TXT_LABEL = "_passport-verify";
/** CNAME hops followed before giving up (a provider's chain is two or three; a loop never ends). */
export const MAX_CNAME_HOPS = 8;

export type StepResult = { ok: boolean; detail: string };
export type DnsCheck = { cname: StepResult; txt: StepResult };

/** The name of the TXT record that proves the brand controls `hostname`. */
export function txtRecordName(hostname: string): string {
  return `${TXT_LABEL}.${hostname}`;
}

/** A resolver that asks `dnsResolvers` (or the system's servers), once per query, for at most `dnsTimeoutMs`. */
export function createResolver(config: Pick<Config["domains"], "dnsResolvers" | "dnsTimeoutMs">): Resolver {
  const resolver = new Resolver({ timeout: config.dnsTimeoutMs, tries: 1 });
  if (config.dnsResolvers.length > 0) resolver.setServers([...config.dnsResolvers]);
  return resolver;
}

/** Both steps, asked at the same time. */
export async function checkDomainDns(resolver: Resolver, domain: { hostname: string; token: string }, cnameTarget: string): Promise<DnsCheck> {
  const [cname, txt] = await Promise.all([checkCname(resolver, domain.hostname, cnameTarget), checkTxt(resolver, domain.hostname, domain.token)]);
  return { cname, txt };
}

/**
 * Whether `hostname` is a CNAME of `target`, directly or through a chain of CNAMEs, compared without letter case or
 * trailing dots.
 */
export async function checkCname(resolver: Resolver, hostname: string, target: string): Promise<StepResult> {
  const want = normalizeHostname(target);
  const seen = new Set([hostname]);
  let name = hostname;
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    let answers: string[];
    try {
      answers = await resolver.resolveCname(name);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // The chain ends at a name with no CNAME of its own: it led somewhere else.
      if (hop > 0 && (code === "ENODATA" || code === "ENOTFOUND")) return { ok: false, detail: `${hostname} points to ${name}, not to ${want}.` };
      return { ok: false, detail: failure(error, name, "CNAME") };
    }
    const names = answers.map(normalizeHostname);
    if (names.includes(want)) {
      return { ok: true, detail: hop === 0 ? `${hostname} is a CNAME of ${want}.` : `${hostname} leads to ${want} through ${hop + 1} CNAME records.` };
    }
    const next = names[names.length - 1];
    if (next === undefined) return { ok: false, detail: failure({ code: "ENODATA" }, name, "CNAME") };
    if (seen.has(next)) return { ok: false, detail: `The CNAME records of ${hostname} go round in a loop at ${next}.` };
    seen.add(next);
    name = next;
  }
  return { ok: false, detail: `${hostname} has a chain of more than ${MAX_CNAME_HOPS} CNAME records; point it at ${want} directly.` };
}

/** Whether one of the TXT records at _passport-verify.<hostname> is `token` (a record's strings joined, as DNS splits long ones). */
export async function checkTxt(resolver: Resolver, hostname: string, token: string): Promise<StepResult> {
  const name = txtRecordName(hostname);
  let records: string[][];
  try {
    records = await resolver.resolveTxt(name);
  } catch (error) {
    return { ok: false, detail: failure(error, name, "TXT") };
  }
  const values = records.map((chunks) => chunks.join("").trim());
  if (values.includes(token)) return { ok: true, detail: `The TXT record at ${name} holds the token.` };
  const found = values.length === 1 ? `The TXT record at ${name} is not the token` : `None of the ${values.length} TXT records at ${name} is the token`;
  return { ok: false, detail: `${found}; its value must be ${token}.` };
}

/** What a failed query means, in words. */
function failure(error: unknown, name: string, type: "CNAME" | "TXT"): string {
  switch ((error as { code?: string }).code) {
    case "ENOTFOUND":
      return `${name} does not exist in DNS (NXDOMAIN).`;
    case "ENODATA":
      return `${name} has no ${type} record.`;
    case "ETIMEOUT":
      return `The DNS query for ${name} timed out.`;
    default:
      return `The DNS query for ${name} failed (${(error as { code?: string }).code ?? "no answer"}).`;
  }
}
