// The client's coarse region (a country, or a country subdivision) for tap analytics, from our own reverse proxy only.
import type { Context } from "koa";
import type { Config } from "../../config";

/** The header our proxy sets from its geo lookup (e.g. Caddy `header_up X-Client-Region {…country…}`); ISO 3166. */
export const CLIENT_REGION_HEADER = "X-Client-Region";

/** "BD", "DE-BY": an ISO 3166-1 alpha-2 country, optionally with a 3166-2 subdivision. */
const REGION = /^[A-Z]{2}(?:-[A-Z0-9]{1,3})?$/;

/**
 * The region our trusted proxy wrote, or null: without a trusted proxy (TRUSTED_PROXY_HOPS = 0) the header is
 * whatever the client sent, and a forger would choose the regions the clone signals compare. Never the address itself.
 */
export function clientRegionOf(ctx: Context, config: Pick<Config, "trustedProxyHops">): string | null {
  if (config.trustedProxyHops <= 0) return null;
  const value = ctx.get(CLIENT_REGION_HEADER).trim().toUpperCase();
  return REGION.test(value) ? value : null;
}
