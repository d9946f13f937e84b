// v1 webhooks (spec 4.12) and their delivery log:
//   POST   /api/v1/webhook/register                              subscribe a URL to v1 events (secret shown once)
//   GET    /api/v1/webhooks                                      the brand's webhooks (no secrets)
//   DELETE /api/v1/webhooks/:id                                  unsubscribe (its delivery log goes with it)
//   GET    /api/v1/webhooks/:id/deliveries                       recent deliveries, newest first
//   POST   /api/v1/webhooks/:id/deliveries/:deliveryId/redeliver queue one delivery again, same webhook-id
//   POST   /api/v1/webhooks/:id/rotate-secret                    new secret; the old one keeps signing for 24 h
//   POST   /api/v1/webhooks/:id/enable                           turn a disabled webhook back on
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import {
  deleteWebhook,
  enableWebhook,
  listWebhooks,
  redeliverWebhook,
  registerWebhook,
  rotateWebhookSecret,
  webhookDeliveries,
} from "../../../webhooks/brand-endpoints";
import { defineRoute, mountRoutes } from "../../define-route";
import { envelopeSchema, ok, V1_HEADERS_NOTE, V1_TAG } from "../router-base";
import { presentDeliveries, presentDelivery, presentRegistration, presentRotation, presentWebhook, SIGNATURE_NOTE } from "./presenter";
import {
  deletionSchema,
  deliveriesQuery,
  deliveriesSchema,
  deliveryPathParams,
  deliverySchema,
  registerBody,
  registrationSchema,
  rotationSchema,
  webhookListSchema,
  webhookPathParams,
  webhookSchema,
} from "./schemas";

const DEFAULT_PAGE = 20;

const WEBHOOK_EXAMPLE = {
  webhook_id: 7,
  url: "https://shop.example.com/hooks/passport",
  events: ["product.certified", "cert.issued"],
  status: "active",
  disabled_reason: null,
  disabled_at: null,
  previous_secret_valid_until: null,
  created_at: "2026-03-02T10:15:00.000Z",
};
const DELIVERY_EXAMPLE = {
  delivery_id: "msg_4f2a9c0e8b7d4e1fa3c25d6b7e8f9a01",
  event_id: "evt_9e1c3b5a7d2f4e6a8b0c1d2e3f4a5b6c",
  event: "product.certified",
  status: "pending",
  attempts: 2,
  last_attempt_at: "2026-03-02T10:16:05.120Z",
  last_response_code: 503,
  last_error: "HTTP 503: upstream unavailable",
  next_attempt_at: "2026-03-02T10:16:36.900Z",
  delivered_at: null,
  created_at: "2026-03-02T10:16:00.004Z",
};
const NOT_FOUND = errorResponse("NOT_FOUND: no webhook with this id for this brand");

export function v1WebhooksRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/v1/webhook/register",
      operationId: "registerWebhook",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Subscribe a receiver URL to v1 events; the signing secret is returned once",
      description:
        "Events: product.certified, order.verified, scan.detected, cert.issued (payloads in docs/webhooks.md, Events catalogue). The " +
        "URL must be http(s) (https in production) and resolve only to public addresses; it is checked again before " +
        "every delivery. " + SIGNATURE_NOTE + " " + V1_HEADERS_NOTE,
      body: registerBody,
      bodyExample: { url: "https://shop.example.com/hooks/passport", events: ["product.certified", "cert.issued"] },
      responses: {
        "201": {
          description: "registered (spec 2.9)",
          schema: envelopeSchema(registrationSchema),
          example: {
            success: true,
            data: {
              webhook_id: 7,
              url: "https://shop.example.com/hooks/passport",
              events: ["product.certified", "cert.issued"],
              signing_secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2bK6dRPhyJk=",
              note: SIGNATURE_NOTE,
            },
          },
        },
        "409": errorResponse("CONFLICT: the brand has 20 webhooks already"),
        "422": errorResponse("VALIDATION_ERROR: url missing, not http(s), longer than 2048, or refused (private, loopback, link-local or metadata address); events empty, repeated or unknown"),
      },
      handler: async (ctx) => {
        const { url, events } = ctx.state.input;
        ctx.set("Cache-Control", "no-store");
        ok(ctx, presentRegistration(await registerWebhook(deps, ctx.state.brand.id, url, events)), 201);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/webhooks",
      operationId: "listWebhooks",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "The brand's webhooks, with status and why one was disabled (secrets are never listed)",
      responses: {
        "200": { description: "the webhooks", schema: envelopeSchema(webhookListSchema), example: { success: true, data: { webhooks: [WEBHOOK_EXAMPLE] } } },
      },
      handler: async (ctx) => {
        ctx.set("Cache-Control", "no-store");
        // An object, like every v1 `data` (spec 2.11), so fields can join the list later without breaking clients.
        ok(ctx, { webhooks: (await listWebhooks(deps, ctx.state.brand.id)).map(presentWebhook) });
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/webhooks/:id",
      operationId: "deleteWebhook",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Delete a webhook; pending deliveries are dropped",
      params: webhookPathParams,
      responses: {
        "200": { description: "deleted", schema: envelopeSchema(deletionSchema), example: { success: true, data: { webhook_id: 7, deleted: true } } },
        "404": NOT_FOUND,
        "422": errorResponse("VALIDATION_ERROR: the id is not a positive integer"),
      },
      handler: async (ctx) => {
        const id = Number(ctx.params.id);
        await deleteWebhook(deps, ctx.state.brand.id, id);
        ok(ctx, { webhook_id: id, deleted: true });
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/webhooks/:id/deliveries",
      operationId: "listWebhookDeliveries",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Recent deliveries of a webhook, newest first: event, status, attempts, last response and error, next attempt",
      params: webhookPathParams,
      query: deliveriesQuery,
      responses: {
        "200": {
          description: "the delivery log",
          schema: envelopeSchema(deliveriesSchema),
          example: { success: true, data: { webhook: WEBHOOK_EXAMPLE, deliveries: [DELIVERY_EXAMPLE], next_before: null } },
        },
        "404": NOT_FOUND,
        "422": errorResponse("VALIDATION_ERROR: bad id, limit, status or before"),
      },
      handler: async (ctx) => {
        const { limit: limitText, status, before } = ctx.query;
        const limit = limitText ? Number(limitText) : DEFAULT_PAGE;
        const { endpoint, deliveries } = await webhookDeliveries(deps, ctx.state.brand.id, Number(ctx.params.id), { limit, status, before });
        ctx.set("Cache-Control", "no-store");
        ok(ctx, presentDeliveries(endpoint, deliveries, limit));
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/webhooks/:id/deliveries/:deliveryId/redeliver",
      operationId: "redeliverWebhookDelivery",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Queue one delivery again now, with a fresh retry schedule and the same webhook-id",
      params: deliveryPathParams,
      responses: {
        "202": { description: "queued", schema: envelopeSchema(deliverySchema), example: { success: true, data: { ...DELIVERY_EXAMPLE, status: "pending", attempts: 0 } } },
        "404": errorResponse("NOT_FOUND: unknown webhook or delivery"),
        "409": errorResponse("CONFLICT: the webhook is disabled, or the delivery is being attempted right now"),
        "422": errorResponse("VALIDATION_ERROR: malformed id"),
      },
      handler: async (ctx) => {
        ok(ctx, presentDelivery(await redeliverWebhook(deps, ctx.state.brand.id, Number(ctx.params.id), ctx.params.deliveryId)), 202);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/webhooks/:id/rotate-secret",
      operationId: "rotateWebhookSecret",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Issue a new signing secret; both secrets sign deliveries for 24 hours",
      params: webhookPathParams,
      responses: {
        "200": {
          description: "the new secret, shown once",
          schema: envelopeSchema(rotationSchema),
          example: { success: true, data: { webhook_id: 7, signing_secret: "whsec_Q2hhbmdlZCBzZWNyZXQgZm9yIHRoZSBleGFtcGxlIQ==", previous_secret_valid_until: "2026-03-03T10:20:00.000Z", note: "Store signing_secret now: it is not shown again. …" } },
        },
        "404": NOT_FOUND,
        "422": errorResponse("VALIDATION_ERROR: malformed id"),
      },
      handler: async (ctx) => {
        ctx.set("Cache-Control", "no-store");
        ok(ctx, presentRotation(await rotateWebhookSecret(deps, ctx.state.brand.id, Number(ctx.params.id))));
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/webhooks/:id/enable",
      operationId: "enableWebhook",
      tag: V1_TAG,
      auth: "apiKey",
      summary: "Turn a disabled webhook back on (its URL is checked again); redeliver what it missed",
      params: webhookPathParams,
      responses: {
        "200": { description: "enabled", schema: envelopeSchema(webhookSchema), example: { success: true, data: WEBHOOK_EXAMPLE } },
        "404": NOT_FOUND,
        "422": errorResponse("VALIDATION_ERROR: the URL is no longer allowed"),
      },
      handler: async (ctx) => {
        ok(ctx, presentWebhook(await enableWebhook(deps, ctx.state.brand.id, Number(ctx.params.id))));
      },
    }),
  ]);
}
