// The dashboard's webhook screen: the dashboard receiver and the v1 subscriptions, their delivery logs, redelivery,
// test events, secret rotation and re-enabling. Endpoint ids are the brand's own; another brand's answer 404.
import type { AppDeps } from "../../../deps";
import { errorResponse } from "../../../openapi/registry";
import { actorOf } from "../../../team/service";
import {
  brandEndpointDeliveries,
  deleteBrandEndpoint,
  enableBrandEndpoint,
  redeliverBrandDelivery,
  removeDashboardReceiver,
  rotateBrandEndpointSecret,
  setDashboardReceiver,
  subscribe,
  testBrandEndpoint,
  webhookOverview,
} from "../../../webhooks/dashboard-endpoints";
import type { EndpointDeps } from "../../../webhooks/endpoints";
import { TEST_EVENT } from "../../../webhooks/test-event";
import { defineRoute, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentDelivery, presentEndpoint } from "./presenter";
import {
  createdEndpointSchema,
  dashboardReceiverBody,
  deliveriesQuery,
  deliveryParams,
  deliverySchema,
  endpointParams,
  endpointSchema,
  receiverSchema,
  rotationSchema,
  subscriptionBody,
  testEventSchema,
  webhooksSchema,
} from "./schemas";

const DEFAULT_PAGE = 25;
const NOT_FOUND = errorResponse("NOT_FOUND: no webhook with this id in this brand");
const URL_REFUSED = errorResponse("VALIDATION_ERROR: url not http(s) (https in production), too long, or refused by the SSRF guard (private, loopback, link-local or metadata address)");

export function webhookRoutes(deps: AppDeps): Route[] {
  const { db } = deps;
  const endpointDeps: EndpointDeps = { db, config: deps.config };
  const common = { tag: DASHBOARD_TAG, auth: "session", permission: "webhooks.manage" } as const;
  return [
    defineRoute({
      ...common,
      method: "get",
      path: "/api/dashboard/webhooks",
      operationId: "dashboardWebhooks",
      summary: "The dashboard receiver (spec 6.1) and the v1 subscriptions (spec 6.2), each with its latest delivery; never their secrets",
      responses: { "200": { description: "the brand's webhooks", schema: envelopeSchema(webhooksSchema) } },
      handler: async (ctx) => {
        const { dashboard, subscriptions } = await webhookOverview(db, ctx.state.brand.id);
        ok(ctx, { dashboard: dashboard ? presentEndpoint(dashboard) : null, subscriptions: subscriptions.map(presentEndpoint) });
      },
    }),
    defineRoute({
      ...common,
      method: "put",
      path: "/api/dashboard/webhooks/dashboard",
      operationId: "dashboardSetReceiver",
      summary: "Set the URL that receives the dashboard events (order.paid, cert.issued, scan.verified, tag.assigned)",
      description: "A new receiver gets a signing secret, in this answer only. Pointing the receiver elsewhere keeps its secret (signing_secret null) and re-enables it.",
      body: dashboardReceiverBody,
      bodyExample: { url: "https://shop.example.com/hooks/dashboard" },
      responses: {
        "200": { description: "the receiver, with its secret when it is new", schema: envelopeSchema(receiverSchema) },
        "422": URL_REFUSED,
      },
      handler: async (ctx) => {
        const set = await setDashboardReceiver(endpointDeps, ctx.state.brand.id, actorOf(ctx.state.user), ctx.state.input.url);
        ok(ctx, { endpoint: presentEndpoint(set.endpoint), signing_secret: set.signingSecret ?? null });
      },
    }),
    defineRoute({
      ...common,
      method: "delete",
      path: "/api/dashboard/webhooks/dashboard",
      operationId: "dashboardRemoveReceiver",
      summary: "Stop sending dashboard events: the receiver and its delivery log are deleted",
      responses: { "204": { description: "removed" }, "404": errorResponse("NOT_FOUND: no dashboard receiver is set") },
      handler: async (ctx) => {
        await removeDashboardReceiver(db, ctx.state.brand.id, actorOf(ctx.state.user));
        ctx.status = 204;
      },
    }),
    defineRoute({
      ...common,
      method: "post",
      path: "/api/dashboard/webhooks",
      operationId: "dashboardSubscribe",
      summary: "Subscribe a URL to v1 events (as POST /api/v1/webhook/register); the signing secret is in this answer only",
      body: subscriptionBody,
      bodyExample: { url: "https://shop.example.com/hooks/passport", events: ["product.certified", "cert.issued"] },
      responses: {
        "201": { description: "subscribed", schema: envelopeSchema(createdEndpointSchema) },
        "409": errorResponse("CONFLICT: the brand has 20 subscriptions already"),
        "422": URL_REFUSED,
      },
      handler: async (ctx) => {
        const { url, events } = ctx.state.input;
        const created = await subscribe(endpointDeps, ctx.state.brand.id, actorOf(ctx.state.user), url, events);
        ok(ctx, { endpoint: presentEndpoint(created.endpoint), signing_secret: created.signingSecret }, 201);
      },
    }),
    defineRoute({
      ...common,
      method: "delete",
      path: "/api/dashboard/webhooks/:id",
      operationId: "dashboardDeleteWebhook",
      summary: "Delete a webhook (either kind); its pending deliveries are dropped",
      params: endpointParams,
      responses: { "204": { description: "deleted" }, "404": NOT_FOUND },
      handler: async (ctx) => {
        await deleteBrandEndpoint(db, ctx.state.brand.id, actorOf(ctx.state.user), Number(ctx.params.id));
        ctx.status = 204;
      },
    }),
    defineRoute({
      ...common,
      method: "get",
      path: "/api/dashboard/webhooks/:id/deliveries",
      operationId: "dashboardWebhookDeliveries",
      summary: "A webhook's deliveries, newest first: event, status, attempts, last answer and error, next attempt",
      description: "meta.next_before continues the list (pass it as ?before=); null on the last page.",
      params: endpointParams,
      query: deliveriesQuery,
      responses: {
        "200": {
          description: "a page of deliveries",
          schema: envelopeSchema({ type: "array", items: deliverySchema }, { type: "object", required: ["next_before"], properties: { next_before: { type: ["string", "null"] } } }),
        },
        "404": NOT_FOUND,
      },
      handler: async (ctx) => {
        const { status, before, limit: limitText } = ctx.query;
        const limit = limitText ? Number(limitText) : DEFAULT_PAGE;
        const deliveries = await brandEndpointDeliveries(db, ctx.state.brand.id, Number(ctx.params.id), { limit, status, before });
        ok(ctx, deliveries.map(presentDelivery), 200, { next_before: deliveries.length === limit ? deliveries[deliveries.length - 1]!.id : null });
      },
    }),
    defineRoute({
      ...common,
      method: "post",
      path: "/api/dashboard/webhooks/:id/deliveries/:deliveryId/redeliver",
      operationId: "dashboardRedeliver",
      summary: "Send one delivery again now, with the same webhook-id and a fresh retry schedule",
      params: deliveryParams,
      responses: {
        "200": { description: "queued again", schema: envelopeSchema(deliverySchema) },
        "404": errorResponse("NOT_FOUND: unknown webhook or delivery"),
        "409": errorResponse("CONFLICT: the webhook is disabled, or the delivery is being attempted right now"),
      },
      handler: async (ctx) => {
        const delivery = await redeliverBrandDelivery(db, ctx.state.brand.id, actorOf(ctx.state.user), Number(ctx.params.id), ctx.params.deliveryId);
        ok(ctx, presentDelivery(delivery));
      },
    }),
    defineRoute({
      ...common,
      method: "post",
      path: "/api/dashboard/webhooks/:id/test",
      operationId: "dashboardTestWebhook",
      summary: `Queue a signed ${TEST_EVENT} event to this webhook only, delivered (and retried) like any event`,
      description: `The body is {"event":"${TEST_EVENT}","webhook_id","kind","message","timestamp"}, signed with the webhook's secret. At most 5 per webhook in 10 minutes.`,
      params: endpointParams,
      responses: {
        "202": { description: "queued", schema: envelopeSchema(testEventSchema) },
        "404": NOT_FOUND,
        "409": errorResponse("CONFLICT: the webhook is disabled; enable it first"),
        "429": errorResponse("RATE_LIMIT: 5 test events in the last 10 minutes (Retry-After)"),
      },
      handler: async (ctx) => {
        const queued = await testBrandEndpoint(db, ctx.state.brand.id, actorOf(ctx.state.user), Number(ctx.params.id));
        ok(ctx, { delivery_id: queued.deliveryId }, 202);
      },
    }),
    defineRoute({
      ...common,
      method: "post",
      path: "/api/dashboard/webhooks/:id/rotate-secret",
      operationId: "dashboardRotateWebhookSecret",
      summary: "A new signing secret, in this answer only; the old one keeps signing beside it for 24 hours",
      params: endpointParams,
      responses: { "200": { description: "the new secret", schema: envelopeSchema(rotationSchema) }, "404": NOT_FOUND },
      handler: async (ctx) => {
        const rotated = await rotateBrandEndpointSecret(endpointDeps, ctx.state.brand.id, actorOf(ctx.state.user), Number(ctx.params.id));
        ok(ctx, { signing_secret: rotated.signingSecret, previous_secret_valid_until: rotated.endpoint.previousSecretExpiresAt!.toISOString() });
      },
    }),
    defineRoute({
      ...common,
      method: "post",
      path: "/api/dashboard/webhooks/:id/enable",
      operationId: "dashboardEnableWebhook",
      summary: "Turn a disabled webhook back on (its URL is checked again); redeliver what it missed",
      params: endpointParams,
      responses: { "200": { description: "enabled", schema: envelopeSchema(endpointSchema) }, "404": NOT_FOUND, "422": URL_REFUSED },
      handler: async (ctx) => {
        ok(ctx, presentEndpoint(await enableBrandEndpoint(endpointDeps, ctx.state.brand.id, actorOf(ctx.state.user), Number(ctx.params.id))));
      },
    }),
  ];
}
