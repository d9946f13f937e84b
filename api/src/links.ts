// The service's public addresses, built in one place: a product's passport record, certificate page, scan page and
// PDF, a brand's profile (each on the brand's own address where it has one), a brand's subdomain, and a transaction
// on the block explorer (from the configured template).
import type { Config } from "./config";
import { isReservedName } from "./domains/hostnames";

type LinkConfig = Pick<Config, "publicBaseUrl">;
type BrandLinkConfig = Pick<Config, "publicBaseUrl" | "domains">;

/** Where a brand's pages are served besides the main site: its slug (its subdomain) and its verified custom domain. */
export type BrandAddress = { slug: string; customDomain: string | null };

/** The brand address of a product row that carries its brand's slug and verified custom domain (findProductByUid). */
export function brandAddressOf(row: { brand_slug: string; brand_custom_domain: string | null }): BrandAddress {
  return { slug: row.brand_slug, customDomain: row.brand_custom_domain };
}

/**
 * The origin a brand's public URLs start with. Behind TLS (an https public base URL: production, Caddy in front):
 * its verified custom domain, else its subdomain when BASE_DOMAIN is a public domain. Otherwise, and for no brand, the
 * public base URL: on a local http stack a brand's hosts answer a Host header but no browser finds them by name.
 */
export function brandBaseUrl(config: BrandLinkConfig, brand: BrandAddress | null): string {
  if (!brand || !config.publicBaseUrl.startsWith("https://")) return config.publicBaseUrl;
  if (brand.customDomain) return `https://${brand.customDomain}`;
  if (!isReservedName(config.domains.baseDomain)) return `https://${brand.slug}.${config.domains.baseDomain}`;
  return config.publicBaseUrl;
}

/**
 * One of a brand's hosts (its subdomain, its custom domain) as the dashboard shows it: with the public base URL's
 * scheme and port, where this deployment serves it (https behind Caddy; the API's own port on a local stack).
 */
export function brandHostUrl(config: LinkConfig, host: string): string {
  const url = new URL(config.publicBaseUrl);
  url.hostname = host;
  return url.origin;
}

/** The public addresses of a product's passport: the JSON record, the certificate page and the scan page. */
export function productLinks(config: BrandLinkConfig, uid: string, brand: BrandAddress | null) {
  const base = brandBaseUrl(config, brand);
  return {
    dpp_url: `${base}/api/dpp/${uid}`,
    certificate_url: `${base}/dpp-certificate/${uid}`,
    scan_url: `${base}/scan/${uid}`,
  };
}

export function certificatePageUrl(config: BrandLinkConfig, uid: string, brand: BrandAddress | null): string {
  return productLinks(config, uid, brand).certificate_url;
}

/** Public URL of the certificate PDF of a UID. */
export function certificatePdfUrl(config: BrandLinkConfig, uid: string, brand: BrandAddress | null): string {
  return `${brandBaseUrl(config, brand)}/certificates/${uid}.pdf`;
}

/** The brand's profile: the home page of its own address, else /brand/<slug> on the main site. */
export function brandProfileUrl(config: BrandLinkConfig, brand: BrandAddress): string {
  const base = brandBaseUrl(config, brand);
  return base === config.publicBaseUrl ? `${base}/brand/${brand.slug}` : `${base}/`;
}

/** A transaction on the block explorer (on the local chain, the service's own transaction page). */
export function explorerTxUrl(config: Pick<Config, "explorerTxUrlTemplate">, txHash: string): string {
  return config.explorerTxUrlTemplate.replace("{txHash}", txHash);
}

/** The brand dashboard (a single-page app; its screens are paths under this). */
export function dashboardUrl(config: LinkConfig): string {
  return `${config.publicBaseUrl}/dashboard`;
}

/** The shopper's order status page, with the order's secret in the fragment (never sent to a server's logs). */
export function orderStatusUrl(config: LinkConfig, orderId: string, secret: string): string {
  return `${config.publicBaseUrl}/orders/${orderId}#s=${secret}`;
}

/** What a Cash QR encodes: the dashboard's cashier screen for the order, with its one-time token in the fragment. */
export function cashierConfirmUrl(config: LinkConfig, orderId: string, token: string): string {
  return `${config.publicBaseUrl}/dashboard/cashier/${orderId}#t=${token}`;
}

/** Where a gateway sends the shopper (or its server) back to us: bKash and Nagad's callback, SSLCommerz's base. */
export function paymentCallbackUrl(config: LinkConfig, method: "bkash" | "nagad" | "sslcommerz"): string {
  return method === "sslcommerz" ? `${config.publicBaseUrl}/api/payments/sslcommerz` : `${config.publicBaseUrl}/api/payments/${method}/callback`;
}
