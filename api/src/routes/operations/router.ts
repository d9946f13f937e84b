// Factory-write operations (spec 4.6), behind the operator token of POST /api/login:
//   POST /api/factories                      register a factory (admin)
//   POST /api/factories/:id/passports        mint the passport of a product made by factory :id
//   POST /api/factories/:id/tags             assign an NFC tag to a product made by factory :id
//   POST /api/factories/:id/events           record a supply-chain step of a product made by factory :id
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { requireOperator } from "../../middleware/operator-auth";
import { validateParams } from "../../middleware/validate-params";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { validateBody } from "../../middleware/validate-body";
import { assignTagBody, factoryPathParam, mintBody, registerFactoryBody, supplyChainEventBody, transactionResult } from "./schemas";
import { assignTag, mintForFactory, recordSupplyChainEvent, registerFactory, type RegisterFactoryInput } from "../../factories/operations";

const WRITE_ERRORS = {
  "401": errorResponse("missing, unknown or expired token (UNAUTHORIZED)"),
  "403": errorResponse("the operator does not act for this factory, or the product's brand did not name it as the maker (FORBIDDEN)"),
  "404": errorResponse("unknown factory or product"),
  "409": errorResponse("conflicts with the chain's state (CONFLICT)"),
  "422": errorResponse("missing or invalid fields"),
  "503": errorResponse("the chain did not confirm in time"),
};

export function operationsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();
  const auth = requireOperator(deps);
  const factoryId = (ctx: { params: Record<string, string> }) => Number(ctx.params.id);

  router.post("/api/factories", auth, validateBody(registerFactoryBody), async (ctx) => {
    ctx.status = 201;
    ctx.body = await registerFactory(deps, ctx.state.operator!, ctx.state.input as RegisterFactoryInput);
  });
  router.post("/api/factories/:id/passports", validateParams(factoryPathParam), auth, validateBody(mintBody), async (ctx) => {
    const result = await mintForFactory(deps, ctx.state.operator!, factoryId(ctx), (ctx.state.input as { uid: string }).uid);
    ctx.status = result.created ? 201 : 200;
    ctx.body = result;
  });
  router.post("/api/factories/:id/tags", validateParams(factoryPathParam), auth, validateBody(assignTagBody), async (ctx) => {
    const input = ctx.state.input as { uid: string; tag_uid: string };
    ctx.status = 201;
    ctx.body = await assignTag(deps, ctx.state.operator!, factoryId(ctx), input.uid, input.tag_uid);
  });
  router.post("/api/factories/:id/events", validateParams(factoryPathParam), auth, validateBody(supplyChainEventBody), async (ctx) => {
    ctx.status = 201;
    ctx.body = await recordSupplyChainEvent(deps, ctx.state.operator!, factoryId(ctx), ctx.state.input as { uid: string; stage: number });
  });

  const idParam = [{ name: "id", in: "path" as const, required: true, schema: { type: "integer" } }];
  openapi.add({
    method: "post",
    path: "/api/factories",
    tag: "Factory operations",
    summary: "Register a factory in the registry (admin): profile off chain, metadata hash and country on chain",
    security: "bearer",
    requestBody: {
      schema: registerFactoryBody,
      example: { factory_id: 2001, name: "Example Knit Ltd.", city: "Gazipur", country: "BD", certifications: ["OEKO-TEX"], product_types: ["t-shirt"], capacity_units_per_month: 200000, min_order_units: 1000, lead_time_days: 45, verified: true },
    },
    responses: { "201": { description: "registered; every transaction sent", schema: transactionResult }, ...WRITE_ERRORS },
  });
  openapi.add({
    method: "post",
    path: "/api/factories/:id/passports",
    tag: "Factory operations",
    summary: "Mint the passport of a product made by this factory (idempotent per UID: a repeat returns 200 with the first mint)",
    description:
      "Only for a product whose brand named this factory as its maker (factory_id); a product with no maker is issued " +
      "by its brand (POST /api/v1/certs/issue). A new passport counts one certificate against the brand's monthly quota.",
    security: "bearer",
    parameters: idParam,
    requestBody: { schema: mintBody, example: { uid: "DEMO-3TN9E7WG" } },
    responses: {
      "201": { description: "minted", schema: transactionResult },
      "200": { description: "minted before; the same result" },
      ...WRITE_ERRORS,
      "403": errorResponse("the operator does not act for this factory, the product is not attributed to it (FORBIDDEN), or its brand is suspended (BRAND_INACTIVE)"),
      "429": errorResponse("the brand's monthly certificate quota is used up (MONTHLY_LIMIT_REACHED)"),
    },
  });
  openapi.add({
    method: "post",
    path: "/api/factories/:id/tags",
    tag: "Factory operations",
    summary: "Assign an NFC tag (its UID in hex) to a minted product; the chain stores keccak256 of the tag UID",
    security: "bearer",
    parameters: idParam,
    requestBody: { schema: assignTagBody, example: { uid: "DEMO-7K3M9Q2X", tag_uid: "04A2B3C4D5E6F7" } },
    responses: { "201": { description: "assigned", schema: transactionResult }, ...WRITE_ERRORS },
  });
  openapi.add({
    method: "post",
    path: "/api/factories/:id/events",
    tag: "Factory operations",
    summary: "Record a supply-chain step (stage 1-12, see docs/contracts.md) with optional details, whose hash goes on chain",
    security: "bearer",
    parameters: idParam,
    requestBody: { schema: supplyChainEventBody, example: { uid: "DEMO-7K3M9Q2X", stage: 8, details: { inspector: "QC line 3", result: "pass" } } },
    responses: { "201": { description: "recorded", schema: transactionResult }, ...WRITE_ERRORS },
  });
  return router;
}
