// The v1 webhook operations of the authenticated brand; every call is scoped to that brand's own v1 endpoints.
import type { AppDeps } from "../deps";
import type { EventType } from "./events";
import {
  endpointDeliveries,
  listV1Endpoints,
  redeliver,
  reenableEndpoint,
  registerV1Endpoint,
  removeEndpoint,
  rotateSecret,
  type EndpointDeps,
} from "./endpoints";

const endpointDeps = (deps: AppDeps): EndpointDeps => ({ db: deps.db, config: deps.config });

export const registerWebhook = (deps: AppDeps, brandId: number, url: string, events: EventType[]) =>
  registerV1Endpoint(endpointDeps(deps), brandId, url, events);

export const listWebhooks = (deps: AppDeps, brandId: number) => listV1Endpoints(deps.db, brandId);

export const deleteWebhook = (deps: AppDeps, brandId: number, id: number) => removeEndpoint(deps.db, brandId, "v1", id);

export const webhookDeliveries = (deps: AppDeps, brandId: number, id: number, options: { limit: number; status?: string; before?: string }) =>
  endpointDeliveries(deps.db, brandId, "v1", id, options);

export const redeliverWebhook = (deps: AppDeps, brandId: number, id: number, deliveryId: string) => redeliver(deps.db, brandId, "v1", id, deliveryId);

export const rotateWebhookSecret = (deps: AppDeps, brandId: number, id: number) => rotateSecret(endpointDeps(deps), brandId, "v1", id);

export const enableWebhook = (deps: AppDeps, brandId: number, id: number) => reenableEndpoint(endpointDeps(deps), brandId, "v1", id);
