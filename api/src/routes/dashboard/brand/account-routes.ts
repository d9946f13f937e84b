// The dashboard's API keys (created and shown once, rotated with a grace period, revoked) and the plan usage screen.
import { brandKeys, createBrandKey, DEFAULT_GRACE_SECONDS, revokeBrandKey, rotateBrandKey } from "../../../brands/dashboard-keys";
import type { AppDeps } from "../../../deps";
import { monthlyUsage } from "../../../metering/service";
import { errorResponse } from "../../../openapi/registry";
import { actorOf } from "../../../team/service";
import { defineRoute, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentIssuedKey, presentKey, presentUsage } from "./presenter";
import { createKeyBody, issuedKeySchema, keyParams, keySchema, rotateKeyBody, usageSchema } from "./schemas";

const NOT_FOUND = errorResponse("NOT_FOUND: no API key with this id in this brand");

export function accountRoutes(deps: AppDeps): Route[] {
  const { db } = deps;
  const keys = { tag: DASHBOARD_TAG, auth: "session", permission: "keys.manage" } as const;
  return [
    defineRoute({
      ...keys,
      method: "get",
      path: "/api/dashboard/api-keys",
      operationId: "dashboardApiKeys",
      summary: "The brand's API keys, newest first: prefix, label, last use, state (never the keys themselves)",
      responses: { "200": { description: "the keys", schema: envelopeSchema({ type: "array", items: keySchema }) } },
      handler: async (ctx) => ok(ctx, (await brandKeys(db, ctx.state.brand)).map((key) => presentKey(key))),
    }),
    defineRoute({
      ...keys,
      method: "post",
      path: "/api/dashboard/api-keys",
      operationId: "dashboardCreateApiKey",
      summary: "Create an API key; the key is in this answer only (it is stored hashed)",
      body: createKeyBody,
      bodyOptional: true,
      bodyExample: { label: "shop backend" },
      responses: { "201": { description: "the new key", schema: envelopeSchema(issuedKeySchema) }, "422": errorResponse("label longer than 60 characters") },
      handler: async (ctx) => {
        ok(ctx, presentIssuedKey(await createBrandKey(db, ctx.state.brand, actorOf(ctx.state.user), ctx.state.input.label)), 201);
      },
    }),
    defineRoute({
      ...keys,
      method: "post",
      path: "/api/dashboard/api-keys/:id/rotate",
      operationId: "dashboardRotateApiKey",
      summary: "Replace a key: a new key (in this answer only), the old one valid for grace_seconds more (default 24 h)",
      params: keyParams,
      body: rotateKeyBody,
      bodyOptional: true,
      bodyExample: { grace_seconds: 3600 },
      responses: {
        "201": { description: "the new key, and when the old one stops working", schema: envelopeSchema(issuedKeySchema) },
        "404": NOT_FOUND,
        "409": errorResponse("CONFLICT: the key is revoked already"),
        "422": errorResponse("grace_seconds not a whole number from 0 to 604800"),
      },
      handler: async (ctx) => {
        const grace = ctx.state.input.grace_seconds ?? DEFAULT_GRACE_SECONDS;
        const rotated = await rotateBrandKey(db, ctx.state.brand, actorOf(ctx.state.user), Number(ctx.params.id), grace);
        ok(ctx, presentIssuedKey(rotated.key, rotated.revoked), 201);
      },
    }),
    defineRoute({
      ...keys,
      method: "delete",
      path: "/api/dashboard/api-keys/:id",
      operationId: "dashboardRevokeApiKey",
      summary: "Revoke a key now (a key revoked already stays so)",
      params: keyParams,
      responses: { "204": { description: "revoked" }, "404": NOT_FOUND },
      handler: async (ctx) => {
        await revokeBrandKey(db, ctx.state.brand, actorOf(ctx.state.user), Number(ctx.params.id));
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/usage",
      operationId: "dashboardUsage",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The plan, its limits and this month's use: the figures of GET /api/v1/usage",
      responses: { "200": { description: "the usage", schema: envelopeSchema(usageSchema) } },
      handler: async (ctx) => {
        const brand = ctx.state.brand;
        // Leased calls go back and buffered endpoint counts are written first, so the figures are exact.
        await deps.callMeter.settle(brand.id);
        ok(ctx, presentUsage(brand, await monthlyUsage(db, brand.id)));
      },
    }),
  ];
}
