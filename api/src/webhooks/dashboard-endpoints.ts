// The dashboard's webhook screen: the brand's dashboard receiver (spec 6.1) and its v1 subscriptions (spec 6.2) side
// by side, managed through endpoints.ts (SSRF guard, secrets shown once, rotation), every change audited.
import { recordAudit, type Actor } from "../audit/service";
import type { Knex } from "../db/knex";
import { NotFoundError } from "../errors";
import { redactUrl } from "../redact";
import { endpointActivity, type EndpointActivity } from "./dashboard-endpoints.repo";
import {
  dashboardWebhook,
  endpointDeliveries,
  getEndpoint,
  listV1Endpoints,
  redeliver,
  reenableEndpoint,
  registerV1Endpoint,
  removeEndpoint,
  ROTATION_OVERLAP_SECONDS,
  rotateSecret,
  setDashboardWebhook,
  type DeliveryRecord,
  type EndpointDeps,
  type EndpointRecord,
} from "./endpoints";
import { withBrandEndpointsLock } from "./endpoints.repo";
import type { V1EventType } from "./events";
import { queueTestEvent } from "./test-event";

export type DashboardEndpoint = EndpointRecord & { lastDelivery: EndpointActivity["lastDelivery"]; secretRotatedAt: Date | null };

function withActivity(endpoint: EndpointRecord, activity: EndpointActivity | undefined): DashboardEndpoint {
  const expires = activity?.previousSecretExpiresAt ?? null;
  return {
    ...endpoint,
    lastDelivery: activity?.lastDelivery ?? null,
    secretRotatedAt: expires ? new Date(expires.getTime() - ROTATION_OVERLAP_SECONDS * 1000) : null,
  };
}

async function withLatestActivity(db: Knex, endpoint: EndpointRecord): Promise<DashboardEndpoint> {
  return withActivity(endpoint, (await endpointActivity(db, endpoint.brandId)).get(endpoint.id));
}

/** The brand's receiver and subscriptions, each with its latest delivery. */
export async function webhookOverview(db: Knex, brandId: number): Promise<{ dashboard: DashboardEndpoint | null; subscriptions: DashboardEndpoint[] }> {
  const [dashboard, subscriptions, activity] = await Promise.all([
    dashboardWebhook(db, brandId),
    listV1Endpoints(db, brandId),
    endpointActivity(db, brandId),
  ]);
  return {
    dashboard: dashboard ? withActivity(dashboard, activity.get(dashboard.id)) : null,
    subscriptions: subscriptions.map((endpoint) => withActivity(endpoint, activity.get(endpoint.id))),
  };
}

/** One of the brand's endpoints, of either kind; NOT_FOUND for another brand's or an unknown id. */
export async function brandEndpoint(db: Knex, brandId: number, id: number): Promise<EndpointRecord> {
  const dashboard = await dashboardWebhook(db, brandId);
  if (dashboard?.id === id) return dashboard;
  return getEndpoint(db, brandId, "v1", id);
}

const target = (endpoint: EndpointRecord) => redactUrl(endpoint.url);

/** Sets (or points elsewhere) the dashboard receiver; a new one's secret is returned once. */
export async function setDashboardReceiver(
  deps: EndpointDeps,
  brandId: number,
  actor: Actor,
  url: string,
): Promise<{ endpoint: DashboardEndpoint; signingSecret: string | undefined }> {
  const result = await deps.db.transaction(async (trx) => {
    const before = await dashboardWebhook(trx, brandId);
    const set = await setDashboardWebhook({ ...deps, db: trx }, brandId, url);
    await recordAudit(trx, brandId, actor, {
      action: set.signingSecret ? "webhook.created" : "webhook.updated",
      target: target(set.endpoint),
      details: { webhook_id: set.endpoint.id, kind: "dashboard", ...(before ? { previous_url: redactUrl(before.url) } : {}) },
    });
    return set;
  });
  return { endpoint: await withLatestActivity(deps.db, result.endpoint), signingSecret: result.signingSecret };
}

/** Removes the dashboard receiver and its delivery log. */
export async function removeDashboardReceiver(db: Knex, brandId: number, actor: Actor): Promise<void> {
  await db.transaction(async (trx) => {
    const endpoint = await dashboardWebhook(trx, brandId);
    if (!endpoint) throw new NotFoundError("Dashboard webhook");
    await removeEndpoint(trx, brandId, "dashboard", endpoint.id);
    await recordAudit(trx, brandId, actor, { action: "webhook.deleted", target: target(endpoint), details: { webhook_id: endpoint.id, kind: "dashboard" } });
  });
}

/** A new v1 subscription; its secret is returned once. */
export async function subscribe(
  deps: EndpointDeps,
  brandId: number,
  actor: Actor,
  url: string,
  events: readonly V1EventType[],
): Promise<{ endpoint: DashboardEndpoint; signingSecret: string }> {
  const created = await deps.db.transaction(async (trx) => {
    const registered = await registerV1Endpoint({ ...deps, db: trx }, brandId, url, events);
    await recordAudit(trx, brandId, actor, {
      action: "webhook.created",
      target: target(registered.endpoint),
      details: { webhook_id: registered.endpoint.id, kind: "v1", events: registered.endpoint.events },
    });
    return registered;
  });
  return { endpoint: await withLatestActivity(deps.db, created.endpoint), signingSecret: created.signingSecret };
}

/** Deletes an endpoint of either kind; pending deliveries go with it. */
export async function deleteBrandEndpoint(db: Knex, brandId: number, actor: Actor, id: number): Promise<void> {
  await db.transaction(async (trx) => {
    const endpoint = await brandEndpoint(trx, brandId, id);
    await removeEndpoint(trx, brandId, endpoint.kind, id);
    await recordAudit(trx, brandId, actor, { action: "webhook.deleted", target: target(endpoint), details: { webhook_id: id, kind: endpoint.kind } });
  });
}

/** A new signing secret, returned once; the old one keeps signing beside it for 24 hours. */
export async function rotateBrandEndpointSecret(
  deps: EndpointDeps,
  brandId: number,
  actor: Actor,
  id: number,
): Promise<{ endpoint: EndpointRecord; signingSecret: string }> {
  return deps.db.transaction(async (trx) => {
    const endpoint = await brandEndpoint(trx, brandId, id);
    const rotated = await rotateSecret({ ...deps, db: trx }, brandId, endpoint.kind, id);
    await recordAudit(trx, brandId, actor, {
      action: "webhook.secret_rotated",
      target: target(endpoint),
      details: { webhook_id: id, previous_secret_valid_until: rotated.endpoint.previousSecretExpiresAt?.toISOString() ?? null },
    });
    return rotated;
  });
}

/** Turns a disabled endpoint back on, its URL checked again. */
export async function enableBrandEndpoint(deps: EndpointDeps, brandId: number, actor: Actor, id: number): Promise<DashboardEndpoint> {
  const enabled = await deps.db.transaction(async (trx) => {
    const endpoint = await brandEndpoint(trx, brandId, id);
    const result = await reenableEndpoint({ ...deps, db: trx }, brandId, endpoint.kind, id);
    if (endpoint.status !== "active") {
      await recordAudit(trx, brandId, actor, { action: "webhook.enabled", target: target(endpoint), details: { webhook_id: id, was: endpoint.disabledReason } });
    }
    return result;
  });
  return withLatestActivity(deps.db, enabled);
}

/** The endpoint's deliveries, newest first. */
export async function brandEndpointDeliveries(
  db: Knex,
  brandId: number,
  id: number,
  options: { limit: number; status?: string; before?: string },
): Promise<DeliveryRecord[]> {
  const endpoint = await brandEndpoint(db, brandId, id);
  return (await endpointDeliveries(db, brandId, endpoint.kind, id, options)).deliveries;
}

/** Queues one delivery again now, same webhook-id, fresh retry schedule. */
export async function redeliverBrandDelivery(db: Knex, brandId: number, actor: Actor, id: number, deliveryId: string): Promise<DeliveryRecord> {
  return db.transaction(async (trx) => {
    const endpoint = await brandEndpoint(trx, brandId, id);
    const delivery = await redeliver(trx, brandId, endpoint.kind, id, deliveryId);
    await recordAudit(trx, brandId, actor, { action: "webhook.redelivered", target: target(endpoint), details: { webhook_id: id, delivery_id: deliveryId, event: delivery.eventType } });
    return delivery;
  });
}

/** Queues a signed test event to the endpoint (test-event.ts). */
export async function testBrandEndpoint(db: Knex, brandId: number, actor: Actor, id: number): Promise<{ deliveryId: string }> {
  // Under the brand's endpoint lock, so parallel clicks cannot all pass the per-endpoint cap.
  return withBrandEndpointsLock(db, brandId, async (trx) => {
    const endpoint = await brandEndpoint(trx, brandId, id);
    const queued = await queueTestEvent(trx, endpoint);
    await recordAudit(trx, brandId, actor, { action: "webhook.tested", target: target(endpoint), details: { webhook_id: id, delivery_id: queued.deliveryId } });
    return { deliveryId: queued.deliveryId };
  });
}
