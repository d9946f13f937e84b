// Shapes the brand editor, the economic operator id, webhooks, API keys and usage as the dashboard shows them; secrets
// only where they are new.
import { DEFAULT_PRIMARY, DEFAULT_SECONDARY, type EditorBranding } from "../../../brands/brand-editor";
import type { EconomicOperatorId } from "../../../brands/economic-operator";
import { keyStatus } from "../../../brands/dashboard-keys";
import type { ApiKeyRecord, BrandContext, IssuedKey } from "../../../brands/service";
import type { Config } from "../../../config";
import { brandProfileUrl } from "../../../links";
import type { MonthlyUsage } from "../../../metering/service";
import { isPlanName, PLANS } from "../../../plans/catalogue";
import type { DashboardEndpoint } from "../../../webhooks/dashboard-endpoints";
import type { DeliveryRecord } from "../../../webhooks/endpoints";
import { presentUsage as presentV1Usage } from "../../v1/usage/presenter";

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);

/** An uploaded logo's address is a path on this service; the dashboard gets it absolute. */
function absolute(config: Pick<Config, "publicBaseUrl">, url: string | undefined): string | null {
  if (!url) return null;
  return url.startsWith("/") ? `${config.publicBaseUrl}${url}` : url;
}

export function presentBranding(config: Config, view: EditorBranding) {
  const { branding } = view;
  return {
    name: view.name,
    slug: view.slug,
    logo_url: absolute(config, branding.logo_url),
    logo: view.logo ? { media_type: view.logo.mediaType, width: view.logo.width, height: view.logo.height } : null,
    primary_color: branding.primary_color ?? null,
    secondary_color: branding.secondary_color ?? null,
    defaults: { primary_color: DEFAULT_PRIMARY, secondary_color: DEFAULT_SECONDARY },
    tagline: branding.tagline ?? null,
    about: branding.about ?? null,
    social: {
      facebook: branding.social?.facebook ?? null,
      instagram: branding.social?.instagram ?? null,
      website: branding.social?.website ?? null,
    },
    contrast: view.contrast,
    profile_url: brandProfileUrl(config, view.address),
    preview_uid: view.previewUid,
  };
}

export function presentEconomicOperator(id: EconomicOperatorId | null) {
  return { economic_operator_id: id?.value ?? null, scheme: id?.scheme ?? null };
}

export function presentEndpoint(endpoint: DashboardEndpoint) {
  return {
    id: endpoint.id,
    kind: endpoint.kind,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.status === "active",
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt.toISOString(),
    secret_rotated_at: iso(endpoint.secretRotatedAt),
    previous_secret_valid_until: iso(endpoint.previousSecretExpiresAt),
    last_delivery: endpoint.lastDelivery ? { status: endpoint.lastDelivery.status, at: new Date(endpoint.lastDelivery.at).toISOString() } : null,
  };
}

export function presentDelivery(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    event: delivery.eventType as string,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastResponseCode,
    last_error: delivery.lastError,
    created_at: delivery.createdAt.toISOString(),
    delivered_at: iso(delivery.deliveredAt),
    next_attempt_at: iso(delivery.nextAttemptAt),
    last_attempt_at: iso(delivery.lastAttemptAt),
  };
}

export function presentKey(key: ApiKeyRecord) {
  return {
    id: key.id,
    prefix: key.prefix,
    label: key.label,
    created_at: key.createdAt.toISOString(),
    last_used_at: iso(key.lastUsedAt),
    revoked_at: iso(key.revokedAt),
    status: keyStatus(key),
  };
}

export function presentIssuedKey(key: IssuedKey, replaced?: ApiKeyRecord) {
  return {
    key: key.key,
    id: key.id,
    prefix: key.prefix,
    label: key.label,
    created_at: key.createdAt.toISOString(),
    ...(replaced ? { old_key_id: replaced.id, old_key_expires_at: replaced.revokedAt!.toISOString() } : {}),
  };
}

/** The plan, its limits and this month's meters: the figures of GET /api/v1/usage, grouped for the usage screen. */
export function presentUsage(brand: BrandContext, usage: MonthlyUsage) {
  const plan = isPlanName(brand.plan) ? PLANS[brand.plan] : PLANS.starter;
  const { limits } = brand;
  const v1 = presentV1Usage(brand, usage);
  return {
    plan: { name: plan.name, tier: plan.tier, title: plan.title, price_usd_per_month: limits.priceUsdPerMonth, notes: plan.notes },
    limits: {
      api_calls_per_month: limits.apiCallsPerMonth,
      requests_per_hour: limits.requestsPerHour,
      certs_per_month: limits.certsPerMonth,
      scans_per_month: limits.scansPerMonth,
      carbon_ratings_per_month: limits.carbonRatingsPerMonth,
    },
    period: usage.period,
    meters: {
      api_calls: { used: usage.callsThisMonth, limit: limits.apiCallsPerMonth },
      certs: { used: usage.certsIssued, limit: limits.certsPerMonth },
      scans: { used: usage.scans, limit: limits.scansPerMonth },
      carbon_ratings: { used: usage.carbonRatings, limit: limits.carbonRatingsPerMonth },
    },
    usage_pct: v1.usage_pct,
    estimated_cost_usd: v1.estimated_cost_usd,
    endpoints: v1.endpoint_breakdown,
  };
}
