// The service's public addresses, built in one place: a product's passport record, certificate page, scan page and
// PDF, a brand's profile, and a transaction on the block explorer (from the configured template).
import type { Config } from "./config";

type LinkConfig = Pick<Config, "publicBaseUrl">;

/** The public addresses of a product's passport: the JSON record, the certificate page and the scan page. */
export function productLinks(config: LinkConfig, uid: string) {
  return {
    dpp_url: `${config.publicBaseUrl}/api/dpp/${uid}`,
    certificate_url: certificatePageUrl(config, uid),
    scan_url: `${config.publicBaseUrl}/scan/${uid}`,
  };
}

export function certificatePageUrl(config: LinkConfig, uid: string): string {
  return `${config.publicBaseUrl}/dpp-certificate/${uid}`;
}

/** Public URL of the certificate PDF of a UID. */
export function certificatePdfUrl(config: LinkConfig, uid: string): string {
  return `${config.publicBaseUrl}/certificates/${uid}.pdf`;
}

export function brandProfileUrl(config: LinkConfig, slug: string): string {
  return `${config.publicBaseUrl}/brand/${slug}`;
}

/** A transaction on the block explorer (on the local chain, the service's own transaction page). */
export function explorerTxUrl(config: Pick<Config, "explorerTxUrlTemplate">, txHash: string): string {
  return config.explorerTxUrlTemplate.replace("{txHash}", txHash);
}

/** The brand dashboard (a single-page app; its screens are paths under this). */
export function dashboardUrl(config: LinkConfig): string {
  return `${config.publicBaseUrl}/dashboard`;
}
