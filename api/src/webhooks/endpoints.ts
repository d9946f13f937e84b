// Managing webhook endpoints: registration behind the SSRF guard, secrets shown once, rotation, redelivery.
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { DASHBOARD_EVENTS, type EventType } from "./events";
import {
  countEndpoints,
  deleteEndpoint,
  enableEndpoint,
  findDashboardEndpoint,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  findEndpointWithDeliveries,
  listEndpoints,
  requeueDelivery,
  rotateEndpointSecret,
  updateEndpointUrl,
  withBrandEndpointsLock,
  type DeliveryRecord,
  type EndpointKind,
  type EndpointRecord,
} from "./endpoints.repo";
import { encryptSecret, generateSigningSecret } from "./secrets";
import { resolveDestination, UrlRefusedError, type HostResolver, type UrlPolicy } from "./ssrf";

export type { DeliveryRecord, EndpointKind, EndpointRecord };

export const MAX_ENDPOINTS_PER_BRAND = 20;
export const MAX_URL_LENGTH = 2048;
/** After a rotation the old secret signs beside the new one for this long, so receivers can switch without a gap. */
export const ROTATION_OVERLAP_SECONDS = 24 * 3600;

export type EndpointDeps = { db: Knex; config: Config; resolver?: HostResolver };

export function urlPolicy(config: Config): UrlPolicy {
  return { httpsOnly: config.mode === "production", allowLoopback: config.allowLoopbackWebhooks };
}

/** The SSRF guard at registration: a refused URL is a 422 on `field` that says why. */
export async function assertDeliverableUrl(deps: EndpointDeps, url: string, field = "url"): Promise<void> {
  if (url.length > MAX_URL_LENGTH) throw new ValidationError([{ field, problem: `must be at most ${MAX_URL_LENGTH} characters` }]);
  try {
    await resolveDestination(url, urlPolicy(deps.config), deps.resolver);
  } catch (error) {
    if (error instanceof UrlRefusedError) throw new ValidationError([{ field, problem: error.problem }], "The webhook URL is not allowed.");
    throw error;
  }
}

export type CreatedEndpoint = { endpoint: EndpointRecord; signingSecret: string };

export async function registerV1Endpoint(deps: EndpointDeps, brandId: number, url: string, events: readonly EventType[]): Promise<CreatedEndpoint> {
  // The URL is resolved before the lock is taken: a slow DNS answer must not hold the brand's other registrations.
  await assertDeliverableUrl(deps, url);
  const signingSecret = generateSigningSecret();
  // Count and insert under the brand's lock: parallel registrations would otherwise all count below the cap.
  const endpoint = await withBrandEndpointsLock(deps.db, brandId, async (trx) => {
    if ((await countEndpoints(trx, brandId, "v1")) >= MAX_ENDPOINTS_PER_BRAND) {
      throw new ConflictError(`A brand can register at most ${MAX_ENDPOINTS_PER_BRAND} webhooks; delete one first.`);
    }
    return insertEndpoint(trx, {
      brandId,
      kind: "v1",
      url,
      events: [...new Set(events)],
      secretCiphertext: encryptSecret(deps.config.secretsKey, signingSecret),
    });
  });
  return { endpoint, signingSecret };
}

export function listV1Endpoints(db: Knex, brandId: number): Promise<EndpointRecord[]> {
  return listEndpoints(db, brandId, "v1");
}

async function requireEndpoint(db: Knex, brandId: number, kind: EndpointKind, id: number): Promise<EndpointRecord> {
  const endpoint = await findEndpoint(db, brandId, kind, id);
  if (!endpoint) throw new NotFoundError("Webhook");
  return endpoint;
}

export async function getEndpoint(db: Knex, brandId: number, kind: EndpointKind, id: number): Promise<EndpointRecord> {
  return requireEndpoint(db, brandId, kind, id);
}

export async function removeEndpoint(db: Knex, brandId: number, kind: EndpointKind, id: number): Promise<void> {
  if (!(await deleteEndpoint(db, brandId, kind, id))) throw new NotFoundError("Webhook");
}

export async function rotateSecret(deps: EndpointDeps, brandId: number, kind: EndpointKind, id: number): Promise<CreatedEndpoint> {
  await requireEndpoint(deps.db, brandId, kind, id);
  const signingSecret = generateSigningSecret();
  const endpoint = await rotateEndpointSecret(deps.db, id, encryptSecret(deps.config.secretsKey, signingSecret), ROTATION_OVERLAP_SECONDS);
  return { endpoint, signingSecret };
}

/** Turns a disabled endpoint back on (after the receiver is fixed); deliveries failed meanwhile can be redelivered. */
export async function reenableEndpoint(deps: EndpointDeps, brandId: number, kind: EndpointKind, id: number): Promise<EndpointRecord> {
  const endpoint = await requireEndpoint(deps.db, brandId, kind, id);
  await assertDeliverableUrl(deps, endpoint.url);
  return enableEndpoint(deps.db, id);
}

export async function endpointDeliveries(
  db: Knex,
  brandId: number,
  kind: EndpointKind,
  id: number,
  options: { limit: number; status?: string; before?: string },
): Promise<{ endpoint: EndpointRecord; deliveries: DeliveryRecord[] }> {
  const found = await findEndpointWithDeliveries(db, brandId, kind, id, options);
  if (!found) throw new NotFoundError("Webhook");
  return found;
}

export async function redeliver(db: Knex, brandId: number, kind: EndpointKind, id: number, deliveryId: string): Promise<DeliveryRecord> {
  const endpoint = await requireEndpoint(db, brandId, kind, id);
  if (!(await findDelivery(db, id, deliveryId))) throw new NotFoundError("Delivery");
  if (endpoint.status !== "active") {
    throw new ConflictError(`The webhook is disabled (${endpoint.disabledReason ?? "no reason recorded"}); enable it first.`);
  }
  const requeued = await requeueDelivery(db, id, deliveryId);
  if (!requeued) throw new ConflictError("The delivery is being attempted right now; check its status again shortly.");
  return requeued;
}

/**
 * Sets the brand's dashboard receiver (spec 6.1), which gets every dashboard event. A new receiver gets a secret,
 * returned once; pointing an existing one at another URL keeps its secret (signingSecret is then undefined).
 */
export async function setDashboardWebhook(
  deps: EndpointDeps,
  brandId: number,
  url: string,
): Promise<{ endpoint: EndpointRecord; signingSecret: string | undefined }> {
  await assertDeliverableUrl(deps, url);
  // Under the brand's lock, so two parallel first calls make one receiver, not a unique-index error.
  return withBrandEndpointsLock(deps.db, brandId, async (trx) => {
    const existing = await findDashboardEndpoint(trx, brandId);
    if (existing) return { endpoint: await updateEndpointUrl(trx, existing.id, url), signingSecret: undefined };
    const signingSecret = generateSigningSecret();
    const endpoint = await insertEndpoint(trx, {
      brandId,
      kind: "dashboard",
      url,
      events: DASHBOARD_EVENTS,
      secretCiphertext: encryptSecret(deps.config.secretsKey, signingSecret),
    });
    return { endpoint, signingSecret };
  });
}

export function dashboardWebhook(db: Knex, brandId: number): Promise<EndpointRecord | undefined> {
  return findDashboardEndpoint(db, brandId);
}
