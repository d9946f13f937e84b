// v1 webhooks (spec 4.12) and their delivery log:
//   POST   /api/v1/webhook/register                              subscribe a URL to v1 events (secret shown once)
//   GET    /api/v1/webhooks                                      the brand's webhooks (no secrets)
//   DELETE /api/v1/webhooks/:id                                  unsubscribe (its delivery log goes with it)
//   GET    /api/v1/webhooks/:id/deliveries                       recent deliveries, newest first
//   POST   /api/v1/webhooks/:id/deliveries/:deliveryId/redeliver queue one delivery again, same webhook-id
//   POST   /api/v1/webhooks/:id/rotate-secret                    new secret; the old one keeps signing for 24 h
//   POST   /api/v1/webhooks/:id/enable                           turn a disabled webhook back on
import type Router from "@koa/router";
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../../../deps";
import { ValidationError } from "../../../errors";
import { validateParams } from "../../../middleware/validate-params";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { validateBody } from "../../../middleware/validate-body";
import { compile, toDetails, type JsonSchema } from "../../../validation";
import type { EventType } from "../../../webhooks/events";
import { BRAND_HEADER, envelopeSchema, ok, V1_ERRORS, V1_HEADERS_NOTE, v1Router } from "../router-base";
import { presentDeliveries, presentDelivery, presentRegistration, presentRotation, presentWebhook, SIGNATURE_NOTE } from "./presenter";
import {
  deliveriesQuery,
  deliveriesSchema,
  deliveryPathParams,
  deliverySchema,
  registerBody,
  registrationSchema,
  rotationSchema,
  webhookPathParams,
  webhookSchema,
} from "./schemas";
import {
  deleteWebhook,
  enableWebhook,
  listWebhooks,
  redeliverWebhook,
  registerWebhook,
  rotateWebhookSecret,
  webhookDeliveries,
} from "../../../webhooks/brand-endpoints";

const DEFAULT_PAGE = 20;

function validateQuery(schema: JsonSchema): Middleware<AppState> {
  const check = compile(schema);
  return async (ctx, next) => {
    const query = { ...ctx.query };
    if (!check(query)) throw new ValidationError(toDetails(check.errors, "query"));
    await next();
  };
}

export function v1WebhooksRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = v1Router(deps);
  const brandId = (ctx: { state: AppState }) => ctx.state.brand!.id;
  const webhookId = (ctx: { params: Record<string, string> }) => Number(ctx.params.id);

  router.post("/webhook/register", validateBody(registerBody), async (ctx) => {
    const input = ctx.state.input as { url: string; events: EventType[] };
    ctx.set("Cache-Control", "no-store");
    ok(ctx, presentRegistration(await registerWebhook(deps, brandId(ctx), input.url, input.events)), 201);
  });

  router.get("/webhooks", async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    // An object, like every v1 `data` (spec 2.11), so fields can join the list later without breaking clients.
    ok(ctx, { webhooks: (await listWebhooks(deps, brandId(ctx))).map(presentWebhook) });
  });

  router.delete("/webhooks/:id", validateParams(webhookPathParams), async (ctx) => {
    await deleteWebhook(deps, brandId(ctx), webhookId(ctx));
    ok(ctx, { webhook_id: webhookId(ctx), deleted: true });
  });

  router.get("/webhooks/:id/deliveries", validateParams(webhookPathParams), validateQuery(deliveriesQuery), async (ctx) => {
    const query = ctx.query as { limit?: string; status?: string; before?: string };
    const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE;
    const { endpoint, deliveries } = await webhookDeliveries(deps, brandId(ctx), webhookId(ctx), { limit, status: query.status, before: query.before });
    ctx.set("Cache-Control", "no-store");
    ok(ctx, presentDeliveries(endpoint, deliveries, limit));
  });

  router.post("/webhooks/:id/deliveries/:deliveryId/redeliver", validateParams(deliveryPathParams), async (ctx) => {
    ok(ctx, presentDelivery(await redeliverWebhook(deps, brandId(ctx), webhookId(ctx), ctx.params.deliveryId!)), 202);
  });

  router.post("/webhooks/:id/rotate-secret", validateParams(webhookPathParams), async (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ok(ctx, presentRotation(await rotateWebhookSecret(deps, brandId(ctx), webhookId(ctx))));
  });

  router.post("/webhooks/:id/enable", validateParams(webhookPathParams), async (ctx) => {
    ok(ctx, presentWebhook(await enableWebhook(deps, brandId(ctx), webhookId(ctx))));
  });

  document(openapi);
  return router;
}

const TAG = "Brand API v1";
const idParam = { name: "id", in: "path" as const, required: true, schema: { type: "integer" }, description: "webhook_id" };
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

function document(openapi: OpenApiRegistry): void {
  openapi.add({
    method: "post",
    path: "/api/v1/webhook/register",
    tag: TAG,
    summary: "Subscribe a receiver URL to v1 events; the signing secret is returned once",
    description:
      "Events: product.certified, order.verified, scan.detected, cert.issued (payloads in docs/webhooks.md, Events catalogue). The " +
      "URL must be http(s) (https in production) and resolve only to public addresses; it is checked again before " +
      "every delivery. " + SIGNATURE_NOTE + " " + V1_HEADERS_NOTE,
    security: "apiKey",
    parameters: [BRAND_HEADER],
    requestBody: { schema: registerBody, example: { url: "https://shop.example.com/hooks/passport", events: ["product.certified", "cert.issued"] } },
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
      ...V1_ERRORS,
    },
  });
  openapi.add({
    method: "get",
    path: "/api/v1/webhooks",
    tag: TAG,
    summary: "The brand's webhooks, with status and why one was disabled (secrets are never listed)",
    security: "apiKey",
    parameters: [BRAND_HEADER],
    responses: {
      "200": { description: "the webhooks", schema: envelopeSchema({ type: "object", additionalProperties: false, required: ["webhooks"], properties: { webhooks: { type: "array", items: webhookSchema } } }), example: { success: true, data: { webhooks: [WEBHOOK_EXAMPLE] } } },
      ...V1_ERRORS,
    },
  });
  openapi.add({
    method: "delete",
    path: "/api/v1/webhooks/:id",
    tag: TAG,
    summary: "Delete a webhook; pending deliveries are dropped",
    security: "apiKey",
    parameters: [BRAND_HEADER, idParam],
    responses: {
      "200": { description: "deleted", example: { success: true, data: { webhook_id: 7, deleted: true } } },
      "404": NOT_FOUND,
      "422": errorResponse("VALIDATION_ERROR: the id is not a positive integer"),
      ...V1_ERRORS,
    },
  });
  openapi.add({
    method: "get",
    path: "/api/v1/webhooks/:id/deliveries",
    tag: TAG,
    summary: "Recent deliveries of a webhook, newest first: event, status, attempts, last response and error, next attempt",
    security: "apiKey",
    parameters: [
      BRAND_HEADER,
      idParam,
      { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: DEFAULT_PAGE } },
      { name: "status", in: "query", schema: { enum: ["pending", "delivering", "succeeded", "failed"] } },
      { name: "before", in: "query", schema: { type: "string" }, description: "next_before of the previous page" },
    ],
    responses: {
      "200": {
        description: "the delivery log",
        schema: envelopeSchema(deliveriesSchema),
        example: { success: true, data: { webhook: WEBHOOK_EXAMPLE, deliveries: [DELIVERY_EXAMPLE], next_before: null } },
      },
      "404": NOT_FOUND,
      "422": errorResponse("VALIDATION_ERROR: bad id, limit, status or before"),
      ...V1_ERRORS,
    },
  });
  openapi.add({
    method: "post",
    path: "/api/v1/webhooks/:id/deliveries/:deliveryId/redeliver",
    tag: TAG,
    summary: "Queue one delivery again now, with a fresh retry schedule and the same webhook-id",
    security: "apiKey",
    parameters: [BRAND_HEADER, idParam, { name: "deliveryId", in: "path", required: true, schema: { type: "string" } }],
    responses: {
      "202": { description: "queued", schema: envelopeSchema(deliverySchema), example: { success: true, data: { ...DELIVERY_EXAMPLE, status: "pending", attempts: 0 } } },
      "404": errorResponse("NOT_FOUND: unknown webhook or delivery"),
      "409": errorResponse("CONFLICT: the webhook is disabled, or the delivery is being attempted right now"),
      "422": errorResponse("VALIDATION_ERROR: malformed id"),
      ...V1_ERRORS,
    },
  });
  openapi.add({
    method: "post",
    path: "/api/v1/webhooks/:id/rotate-secret",
    tag: TAG,
    summary: "Issue a new signing secret; both secrets sign deliveries for 24 hours",
    security: "apiKey",
    parameters: [BRAND_HEADER, idParam],
    responses: {
      "200": {
        description: "the new secret, shown once",
        schema: envelopeSchema(rotationSchema),
        example: { success: true, data: { webhook_id: 7, signing_secret: "whsec_Q2hhbmdlZCBzZWNyZXQgZm9yIHRoZSBleGFtcGxlIQ==", previous_secret_valid_until: "2026-03-03T10:20:00.000Z", note: "Store signing_secret now: it is not shown again. …" } },
      },
      "404": NOT_FOUND,
      ...V1_ERRORS,
    },
  });
  openapi.add({
    method: "post",
    path: "/api/v1/webhooks/:id/enable",
    tag: TAG,
    summary: "Turn a disabled webhook back on (its URL is checked again); redeliver what it missed",
    security: "apiKey",
    parameters: [BRAND_HEADER, idParam],
    responses: {
      "200": { description: "enabled", schema: envelopeSchema(webhookSchema), example: { success: true, data: WEBHOOK_EXAMPLE } },
      "404": NOT_FOUND,
      "422": errorResponse("VALIDATION_ERROR: the URL is no longer allowed"),
      ...V1_ERRORS,
    },
  });
}
