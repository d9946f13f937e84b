// The Domain screen's JSON: the brand's subdomain, and its custom domain with the DNS records to create and each
// verification step's last result.
import type { BrandContext } from "../../../brands/service";
import type { Config } from "../../../config";
import { txtRecordName } from "../../../domains/dns-check";
import type { CustomDomain } from "../../../domains/service";
import { brandHostUrl } from "../../../links";

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

function step(ok: boolean | null, checkedAt: Date | null, detail: string | null) {
  return { status: ok === null ? ("not_checked" as const) : ok ? ("passed" as const) : ("failed" as const), checked_at: iso(checkedAt), detail };
}

export function presentDomainOverview(config: Pick<Config, "publicBaseUrl" | "domains">, brand: BrandContext, view: { domain: CustomDomain | undefined; allowed: boolean }) {
  const { domain } = view;
  const subdomain = `${brand.slug}.${config.domains.baseDomain}`;
  return {
    subdomain: { host: subdomain, url: brandHostUrl(config, subdomain) },
    plan: brand.plan,
    custom_domain_allowed: view.allowed,
    custom_domain: domain
      ? {
          hostname: domain.hostname,
          url: brandHostUrl(config, domain.hostname),
          status: domain.status,
          records: [
            { type: "CNAME" as const, name: domain.hostname, value: config.domains.cnameTarget },
            { type: "TXT" as const, name: txtRecordName(domain.hostname), value: domain.verify_token },
          ],
          steps: {
            cname: step(domain.cname_ok, domain.cname_checked_at, domain.cname_detail),
            txt: step(domain.txt_ok, domain.txt_checked_at, domain.txt_detail),
          },
          created_at: iso(domain.created_at)!,
          next_check_at: iso(domain.next_check_at),
          window_ends_at: new Date(new Date(domain.window_started_at).getTime() + config.domains.verifyWindowHours * 3_600_000).toISOString(),
          verified_at: iso(domain.verified_at),
          failed_at: iso(domain.failed_at),
          failure_reason: domain.failure_reason,
        }
      : null,
  };
}
