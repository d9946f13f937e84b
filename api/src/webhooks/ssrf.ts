// The SSRF guard: a webhook URL must name a public http(s) host, checked at registration and again at every delivery.
import { Resolver } from "node:dns/promises";
import ipaddr from "ipaddr.js";

export type UrlPolicy = Readonly<{
  /** Production accepts https only. */
  httpsOnly: boolean;
  /** Local development posts to receivers on 127.0.0.1 / ::1. */
  allowLoopback: boolean;
}>;

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address it has; tests inject one that answers with hostile addresses. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The checked destination: deliveries connect to `address`, never to a second resolution of the name. */
export type Destination = { url: URL; hostname: string; address: string; family: 4 | 6 };

export class UrlRefusedError extends Error {
  constructor(readonly problem: string) {
    super(problem);
  }
}

const DNS_TIMEOUT_MS = 5000;

export type DnsOptions = {
  /** Name servers ("127.0.0.1:5353"); default: the system's (/etc/resolv.conf). Tests point this at a fake. */
  servers?: string[];
  /** Bound on one resolution, both address families together. */
  timeoutMs?: number;
};

// RFC 6761: localhost names are loopback and never asked of DNS. c-ares does not read /etc/hosts, so without this
// they would not resolve at all; the policy then allows them only where loopback receivers are allowed.
const LOOPBACK_ANSWERS: readonly ResolvedAddress[] = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

/**
 * A resolver of receiver host names that asks DNS directly (c-ares, on the event loop) rather than through
 * dns.lookup: getaddrinfo runs on libuv's small thread pool, where a few receivers with slow DNS would hold the
 * threads and make every other name lookup of the process (the database's, the RPC's) wait behind them. Only
 * A and AAAA records count: /etc/hosts and search domains do not apply to webhook receivers.
 */
export function dnsResolver(options: DnsOptions = {}): HostResolver {
  const timeoutMs = options.timeoutMs ?? DNS_TIMEOUT_MS;
  // c-ares retries once with a longer wait; the overall bound below is what callers rely on.
  const resolver = new Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / 3)), tries: 2 });
  if (options.servers) resolver.setServers(options.servers);
  return async (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, "");
    if (name === "localhost" || name.endsWith(".localhost")) return [...LOOPBACK_ANSWERS];
    const [v4, v6] = await withTimeout(
      Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]),
      timeoutMs,
      `DNS lookup of ${name} timed out after ${timeoutMs / 1000} s`,
    );
    const answers: ResolvedAddress[] = [];
    if (v4.status === "fulfilled") answers.push(...v4.value.map((address): ResolvedAddress => ({ address, family: 4 })));
    if (v6.status === "fulfilled") answers.push(...v6.value.map((address): ResolvedAddress => ({ address, family: 6 })));
    if (answers.length > 0) return answers;
    // Both failed: a timeout says more than "no AAAA record" (ENODATA) does.
    const failures = [v4, v6].map((r) => (r as PromiseRejectedResult).reason as { code?: string });
    throw failures.find((f) => f.code === "ETIMEOUT") ?? failures.find((f) => f.code !== "ENODATA") ?? failures[0];
  };
}

export const systemResolver: HostResolver = dnsResolver();

let activeResolver: HostResolver = systemResolver;

/** Replaces the resolver used when none is passed (the API's routes); returns a function restoring the previous one. */
export function useHostResolver(resolver: HostResolver): () => void {
  const previous = activeResolver;
  activeResolver = resolver;
  return () => {
    activeResolver = previous;
  };
}

// Names that resolve to instance-metadata services inside clouds, whatever the local resolver says.
const METADATA_HOSTS = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.com",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Checks what can be checked without DNS: scheme, credentials, host form. Returns the parsed URL. */
export function checkUrlShape(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefusedError("is not a valid absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UrlRefusedError("must use http or https");
  if (policy.httpsOnly && url.protocol !== "https:") throw new UrlRefusedError("must use https");
  if (url.username || url.password) throw new UrlRefusedError("must not contain credentials");
  const hostname = bareHostname(url);
  if (!hostname) throw new UrlRefusedError("must name a host");
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_HOSTS.has(name)) throw new UrlRefusedError("must not point at a cloud metadata service");
  if (name === "localhost" || name.endsWith(".localhost")) {
    if (!policy.allowLoopback) throw new UrlRefusedError("must not point at a loopback address");
  }
  // The URL parser already turns decimal, octal and hex IPv4 forms into dotted quads; ipaddr.js is the second net.
  if (ipaddr.isValid(name)) refuseAddress(name, policy);
  return url;
}

/** The host of `url` without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Shape check, then resolution: every address the name resolves to must be public (one private answer refuses the
 * whole name, so a mixed answer cannot slip through). Returns the first address, which the caller connects to.
 */
export async function resolveDestination(
  raw: string,
  policy: UrlPolicy,
  resolver: HostResolver = activeResolver,
): Promise<Destination> {
  const url = checkUrlShape(raw, policy);
  const hostname = bareHostname(url);
  if (ipaddr.isValid(hostname)) {
    const address = ipaddr.process(hostname);
    return { url, hostname, address: address.toString(), family: address.kind() === "ipv6" ? 6 : 4 };
  }
  let answers: ResolvedAddress[];
  try {
    answers = await withTimeout(resolver(hostname), DNS_TIMEOUT_MS, `DNS lookup of ${hostname} timed out`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ETIMEOUT") throw new UrlRefusedError(`host "${hostname}" did not resolve in time (DNS timeout)`);
    throw new UrlRefusedError(`host "${hostname}" does not resolve${code ? ` (${code})` : ""}`);
  }
  if (answers.length === 0) throw new UrlRefusedError(`host "${hostname}" does not resolve`);
  for (const answer of answers) refuseAddress(answer.address, policy, hostname);
  const first = ipaddr.process(answers[0]!.address);
  return { url, hostname, address: first.toString(), family: first.kind() === "ipv6" ? 6 : 4 };
}

/**
 * The ipaddr.js range of an address, after unwrapping IPv4-mapped IPv6. IPv4-compatible IPv6 (::/96, deprecated by
 * RFC 4291; some stacks route it to the embedded IPv4 address) is a range of its own, "ipv4Compatible", whatever
 * address it embeds; :: and ::1 keep their usual ranges.
 */
export function addressRange(address: string): string {
  const parsed = ipaddr.process(canonical(address));
  if (parsed.kind() === "ipv6") {
    const parts = (parsed as ipaddr.IPv6).parts;
    if (parts.slice(0, 6).every((p) => p === 0) && !(parts[6] === 0 && parts[7]! <= 1)) return "ipv4Compatible";
  }
  return parsed.range();
}

/**
 * IPv6 in WHATWG URL form (hex groups only). ipaddr.js reads "::a.b.c.d", the way inet_ntop prints IPv4-compatible
 * addresses in DNS answers, as IPv4-mapped (::ffff:a.b.c.d); the URL parser reads it as ::/96, as the kernel does.
 */
function canonical(address: string): string {
  if (!address.includes(":")) return address;
  let url: URL;
  try {
    url = new URL(`http://[${address}]/`);
  } catch {
    throw new UrlRefusedError(`resolves to an unparseable address "${address}"`);
  }
  return bareHostname(url);
}

function refuseAddress(address: string, policy: UrlPolicy, hostname?: string): void {
  let range: string;
  try {
    range = addressRange(address);
  } catch {
    throw new UrlRefusedError(`resolves to an unparseable address "${address}"`);
  }
  if (range === "unicast") return;
  if (range === "loopback" && policy.allowLoopback) return;
  const where = hostname ? `host "${hostname}" resolves to` : "points at";
  const kind = RANGE_WORDS[range] ?? `non-public (${range})`;
  throw new UrlRefusedError(`${where} ${/^[aeiuI]/.test(kind) ? "an" : "a"} ${kind} address; only public addresses are allowed`);
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local (cloud metadata)",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT",
  private: "private",
  reserved: "reserved",
  uniqueLocal: "unique-local (private IPv6)",
  ipv4Mapped: "IPv4-mapped",
  ipv4Compatible: "IPv4-compatible IPv6 (embedded IPv4)",
  rfc6052: "NAT64 (embedded IPv4)",
  "6to4": "6to4 (embedded IPv4)",
  teredo: "Teredo (embedded IPv4)",
};

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(message), { code: "ETIMEOUT" })), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
