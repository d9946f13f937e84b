// Verifying custom domains: one check of a pending domain (both DNS steps, recorded with the outcome), and the job
// that runs in every API process and checks the due ones, claimed with SKIP LOCKED so replicas never check the same
// domain at once. Back-off per domain: 1 minute after the first check, doubling up to an hour, until the window
// (DOMAIN_VERIFY_WINDOW_HOURS, 24 by default) is over; the check at its end that still fails marks it failed.
import type { Resolver } from "node:dns/promises";
import { recordAudit } from "../audit/service";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import type { Logger } from "../logger";
import { checkDomainDns, createResolver, MAX_CNAME_HOPS, type DnsCheck } from "./dns-check";
import { claimDueDomains, findVerifiedDomain, lockHostname, recordCheck, releaseOtherClaims, type CheckRecord, type CustomDomainRow } from "./domains.repo";
import { invalidateSiteHosts } from "./site-hosts";
import type { Job, JobHealth } from "../jobs/job";
import type { PeriodicJob } from "../jobs/periodic-job";
import { claimAndWorkJob, type ClaimAndWork } from "../jobs/claim-and-work";

export const BACKOFF_FIRST_MS = 60_000;
export const BACKOFF_MAX_MS = 3_600_000;
/** Domains one pass claims, and how many of them are checked at the same time. */
const BATCH = 20;
const CONCURRENCY = 4;

export type CheckerDeps = { db: Knex; config: Pick<Config, "domains">; logger: Logger };

/** The wait before the next check of a domain checked `checks` times before this one: 1, 2, 4 … minutes, at most an hour. */
export function backoffMs(checks: number): number {
  return Math.min(BACKOFF_FIRST_MS * 2 ** Math.min(checks, 20), BACKOFF_MAX_MS);
}

/** What a check found decides: verified when both steps pass; failed once the window is over; else checked again. */
export function outcomeOf(row: Pick<CustomDomainRow, "checks" | "window_started_at">, dns: DnsCheck, at: Date, windowHours: number): CheckRecord["outcome"] {
  if (dns.cname.ok && dns.txt.ok) return { status: "verified" };
  const windowEnds = new Date(row.window_started_at).getTime() + windowHours * 3_600_000;
  if (at.getTime() >= windowEnds) {
    const failing = [dns.cname.ok ? "" : `CNAME: ${dns.cname.detail}`, dns.txt.ok ? "" : `TXT: ${dns.txt.detail}`].filter(Boolean).join(" ");
    return { status: "failed", reason: `Not verified within ${windowHours} hours. ${failing}` };
  }
  // The last check falls at the window's end, not up to an hour after it.
  return { status: "pending", nextCheckAt: new Date(Math.min(at.getTime() + backoffMs(row.checks), windowEnds)) };
}

/** Why a brand's claim of a hostname was released: another brand proved control first (which one is not said). */
export function releasedReason(hostname: string): string {
  return `Another brand proved control of ${hostname} first (its DNS records were verified), so it is served there. If ${hostname} is yours, check its records, then remove this domain here and add it again once the other brand's is removed.`;
}

/**
 * Checks a pending domain now and records the results and the outcome; verified and failed are audited (actor: the
 * domain checker) in the same transaction. Only one brand's claim of a hostname is verified: the first to prove it
 * (verifications of one hostname are serialised); the other brands' claims of it are released then, and one that
 * proves it after that is released itself. Undefined when the domain changed meanwhile (removed, settled).
 */
export async function verifyDomain(deps: CheckerDeps, row: CustomDomainRow, resolver: Resolver): Promise<CustomDomainRow | undefined> {
  const { domains } = deps.config;
  const dns = await checkDomainDns(resolver, { hostname: row.hostname, token: row.verify_token }, domains.cnameTarget);
  const at = new Date();
  const checked = outcomeOf(row, dns, at, domains.verifyWindowHours);
  const actor = { system: "domain checker" };
  const written = await deps.db.transaction(async (trx) => {
    let outcome: CheckRecord["outcome"] = checked;
    if (outcome.status === "verified") {
      await lockHostname(trx, row.hostname);
      const holder = await findVerifiedDomain(trx, row.hostname);
      if (holder && holder.id !== row.id) outcome = { status: "released", reason: releasedReason(row.hostname) };
    }
    const updated = await recordCheck(trx, row.id, { cname: dns.cname, txt: dns.txt, at, outcome });
    if (updated && outcome.status !== "pending") {
      const details = outcome.status === "verified" ? { cname_target: domains.cnameTarget } : { reason: outcome.reason };
      await recordAudit(trx, row.brand_id, actor, { action: `domain.${outcome.status}`, target: row.hostname, details });
    }
    if (updated && outcome.status === "verified") {
      const reason = releasedReason(row.hostname);
      for (const loser of await releaseOtherClaims(trx, row.hostname, row.id, reason)) {
        await recordAudit(trx, loser.brand_id, actor, { action: "domain.released", target: loser.hostname, details: { reason } });
      }
    }
    return updated;
  });
  if (written && written.status !== "pending") invalidateSiteHosts();
  return written;
}

/** The claim-and-work job: every DOMAIN_CHECK_INTERVAL_MS, the due domains, at most a batch a pass. */
export class DomainChecker implements Job {
  readonly name = "domain-checker";
  private readonly job: PeriodicJob<number>;
  private readonly resolver: Resolver;
  /** Long enough for the slowest check (a chain of CNAMEs each timing out), so a claim never expires mid-check. */
  private readonly leaseMs: number;

  constructor(private readonly deps: CheckerDeps) {
    this.resolver = createResolver(deps.config.domains);
    this.leaseMs = 60_000 + (MAX_CNAME_HOPS + 1) * deps.config.domains.dnsTimeoutMs;
    this.job = claimAndWorkJob({
      name: this.name,
      intervalMs: deps.config.domains.checkIntervalMs,
      logger: deps.logger,
      specs: [
        {
          claim: (limit: number) => claimDueDomains(this.deps.db, limit, this.leaseMs),
          work: (row: CustomDomainRow) => verifyDomain(this.deps, row, this.resolver),
          failed: (row: CustomDomainRow, error: unknown) =>
            this.deps.logger.warn({ err: error, hostname: row.hostname }, "domain check failed; retried after the claim expires"),
          batch: BATCH,
          concurrency: CONCURRENCY,
        } satisfies ClaimAndWork<CustomDomainRow>,
      ],
    });
  }

  start(): void {
    this.job.start();
  }

  /** One pass (the one running, if any): claims the due domains and checks them; resolves with how many it checked. */
  runOnce(): Promise<number> {
    return this.job.runOnce().catch(() => 0);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  health(): JobHealth {
    return this.job.health();
  }
}
