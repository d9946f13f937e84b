// Factory-write operations (spec 4.6), behind the operator token of POST /api/login:
//   POST /api/factories                      register a factory (admin)
//   POST /api/factories/:id/passports        mint the passport of a product made by factory :id
//   POST /api/factories/:id/tags             assign an NFC tag to a product made by factory :id
//   POST /api/factories/:id/events           record a supply-chain step of a product made by factory :id
//   PUT  /api/factories/:id/identifiers      set factory :id's GLN and Open Supply Hub id (off chain)
//   POST /api/factories/:id/stage-confirmations  confirm factory :id's own stage of a passport's textile section
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { setFacilityIds } from "../../factories/facility-ids";
import { assertActsFor, assignTag, mintForFactory, recordSupplyChainEvent, registerFactory } from "../../factories/operations";
import { confirmTextileStage } from "../../factories/stage-confirmation";
import { explorerTxUrl } from "../../links";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { defineRoute, mountRoutes } from "../define-route";
import {
  assignTagBody,
  facilityIdsBody,
  facilityIdsResult,
  factoryPathParam,
  factoryRegistrationResult,
  mintBody,
  mintResult,
  registerFactoryBody,
  stageConfirmationBody,
  stageConfirmationResult,
  supplyChainEventBody,
  supplyChainEventResult,
  tagResult,
} from "./schemas";

const TAG = "Factory operations";
const WRITE_ERRORS = {
  "403": errorResponse("the operator does not act for this factory, or the product's brand did not name it as the maker (FORBIDDEN)"),
  "404": errorResponse("unknown factory or product"),
  "409": errorResponse("conflicts with the chain's state (CONFLICT)"),
  "422": errorResponse("missing or invalid fields"),
  "503": errorResponse("the chain did not confirm in time"),
};
const TX_HASH = `0x${"5c".repeat(32)}`;
const SENT_EXAMPLE = { tx_hash: TX_HASH, explorer_url: `http://127.0.0.1:3000/explorer/tx/${TX_HASH}`, block_number: 130 };
const TOKEN_ID = "44981658092057552536133201839373791414657990487574918188685188671768504738285";

export function operationsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/factories",
      operationId: "registerFactory",
      tag: TAG,
      auth: "operator",
      summary: "Register a factory in the registry (admin): profile off chain, metadata hash and country on chain",
      body: registerFactoryBody,
      bodyExample: { factory_id: 2001, name: "Example Knit Ltd.", city: "Gazipur", country: "BD", certifications: ["OEKO-TEX"], product_types: ["t-shirt"], capacity_units_per_month: 200000, min_order_units: 1000, lead_time_days: 45, verified: true },
      responses: {
        "201": {
          description: "registered; every transaction sent",
          schema: factoryRegistrationResult,
          example: { factory_id: 2001, metadata_hash: `0x${"7e".repeat(32)}`, ...SENT_EXAMPLE, transactions: [{ action: "register", ...SENT_EXAMPLE }] },
        },
        ...WRITE_ERRORS,
      },
      handler: async (ctx) => {
        ctx.status = 201;
        ctx.body = await registerFactory(deps, ctx.state.operator, ctx.state.input);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/factories/:id/passports",
      operationId: "mintFactoryPassport",
      tag: TAG,
      auth: "operator",
      summary: "Mint the passport of a product made by this factory (idempotent per UID: a repeat returns 200 with the first mint)",
      description:
        "Only for a product whose brand named this factory as its maker (factory_id); a product with no maker is issued " +
        "by its brand (POST /api/v1/certs/issue). A new passport counts one certificate against the brand's monthly quota.",
      params: factoryPathParam,
      body: mintBody,
      bodyExample: { uid: "DEMO-3TN9E7WG" },
      responses: {
        "201": {
          description: "minted",
          schema: mintResult,
          example: { uid: "DEMO-3TN9E7WG", token_id: TOKEN_ID, data_hash: `0x${"39".repeat(32)}`, created: true, ...SENT_EXAMPLE },
        },
        "200": { description: "minted before; the same result (created: false)", schema: mintResult },
        ...WRITE_ERRORS,
        "403": errorResponse("the operator does not act for this factory, the product is not attributed to it (FORBIDDEN), or its brand is suspended (BRAND_INACTIVE)"),
        "429": errorResponse("the brand's monthly certificate quota is used up (MONTHLY_LIMIT_REACHED)"),
      },
      handler: async (ctx) => {
        const result = await mintForFactory(deps, ctx.state.operator, Number(ctx.params.id), ctx.state.input.uid);
        ctx.status = result.created ? 201 : 200;
        ctx.body = result;
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/factories/:id/tags",
      operationId: "assignFactoryTag",
      tag: TAG,
      auth: "operator",
      summary: "Assign an NFC tag (its UID in hex) to a minted product; the chain stores keccak256 of the tag UID",
      params: factoryPathParam,
      body: assignTagBody,
      bodyExample: { uid: "DEMO-7K3M9Q2X", tag_uid: "04A2B3C4D5E6F7" },
      responses: {
        "201": { description: "assigned", schema: tagResult, example: { uid: "DEMO-7K3M9Q2X", token_id: TOKEN_ID, tag_hash: `0x${"a2".repeat(32)}`, ...SENT_EXAMPLE } },
        ...WRITE_ERRORS,
      },
      handler: async (ctx) => {
        const { uid, tag_uid } = ctx.state.input;
        ctx.status = 201;
        ctx.body = await assignTag(deps, ctx.state.operator, Number(ctx.params.id), uid, tag_uid);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/factories/:id/events",
      operationId: "recordSupplyChainEvent",
      tag: TAG,
      auth: "operator",
      summary: "Record a supply-chain step (stage 1-12, see docs/contracts.md) with optional details, whose hash goes on chain",
      params: factoryPathParam,
      body: supplyChainEventBody,
      bodyExample: { uid: "DEMO-7K3M9Q2X", stage: 8, details: { inspector: "QC line 3", result: "pass" } },
      responses: {
        "201": { description: "recorded", schema: supplyChainEventResult, example: { uid: "DEMO-7K3M9Q2X", token_id: TOKEN_ID, stage: 8, details_hash: `0x${"3a".repeat(32)}`, ...SENT_EXAMPLE } },
        ...WRITE_ERRORS,
      },
      handler: async (ctx) => {
        ctx.status = 201;
        ctx.body = await recordSupplyChainEvent(deps, ctx.state.operator, Number(ctx.params.id), ctx.state.input);
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/factories/:id/identifiers",
      operationId: "setFactoryIdentifiers",
      tag: TAG,
      auth: "operator",
      summary: "Set the factory's GS1 GLN and Open Supply Hub id, which passports give as its facilityId (a field left out stays)",
      description:
        "Kept beside the profile, outside the metadata hash the registry anchors, so setting them sends no transaction " +
        "and the anchored hash stays valid. Stored upper case without spaces; empty or null clears one.",
      params: factoryPathParam,
      body: facilityIdsBody,
      bodyExample: { gln: "4012345000009", os_id: "BD2019085TJ0JW3" },
      responses: {
        "200": { description: "the identifiers as saved", schema: facilityIdsResult, example: { factory_id: 1001, gln: "4012345000009", os_id: "BD2019085TJ0JW3" } },
        "403": errorResponse("the operator does not act for this factory (FORBIDDEN)"),
        "404": errorResponse("no profile for this factory"),
        "422": errorResponse("VALIDATION_ERROR, details per field: gln not 13 digits or a wrong check digit; os_id not an Open Supply Hub id"),
      },
      handler: async (ctx) => {
        const factoryId = Number(ctx.params.id);
        assertActsFor(ctx.state.operator, factoryId);
        const { gln, os_id } = ctx.state.input;
        const saved = await setFacilityIds(deps.db, factoryId, { gln, osId: os_id });
        ctx.body = { factory_id: factoryId, gln: saved.gln, os_id: saved.osId };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/factories/:id/stage-confirmations",
      operationId: "confirmTextileStage",
      tag: TAG,
      auth: "operator",
      summary: "Confirm this factory's own processing stage of a passport's textile section, as a supply-chain event on its token",
      description:
        "Only for a stage whose facility names this factory by its registry id (`registry`); a GLN or Open Supply Hub id " +
        "is not verified, so a match on one is refused. The passport's record then shows the stage as confirmed by the facility, " +
        "with the transaction; the brand's anchored content is unchanged (docs/textile.md). A stage confirmed before " +
        "returns that confirmation with 200 and sends nothing; after a 503 the next request waits for the same transaction.",
      params: factoryPathParam,
      body: stageConfirmationBody,
      bodyExample: { uid: "DEMO-5HM2D8VQ", stage: "weaving_knitting" },
      responses: {
        "201": {
          description: "confirmed: the event is mined",
          schema: stageConfirmationResult,
          example: {
            uid: "DEMO-5HM2D8VQ",
            token_id: TOKEN_ID,
            stage: "weaving_knitting",
            index: 2,
            factory_id: 1006,
            confirmed_by: "factory_operator",
            stage_code: 3,
            details_hash: `0x${"4b".repeat(32)}`,
            confirmed_at: "2026-11-27T10:15:00.000Z",
            created: true,
            ...SENT_EXAMPLE,
          },
        },
        "200": { description: "confirmed before; that confirmation (created: false)", schema: stageConfirmationResult },
        "403": errorResponse("the operator does not act for this factory, or the stage's facility does not name this factory by its registry id (FORBIDDEN)"),
        "404": errorResponse("unknown factory or product, or the passport declares no such stage"),
        "409": errorResponse("the passport is not minted yet, or the stage is being confirmed by another request (CONFLICT)"),
        "422": errorResponse("missing or invalid fields; index needed when this factory runs the stage more than once"),
        "503": errorResponse("the chain did not confirm in time (ask again: the same transaction is awaited, none is sent again)"),
      },
      handler: async (ctx) => {
        const confirmDeps = { db: deps.db, contracts: deps.chain.contracts(), ledger: deps.chain.ledger, receiptWaitMs: deps.config.chainLedger.receiptWaitMs };
        const result = await confirmTextileStage(confirmDeps, ctx.state.operator, Number(ctx.params.id), ctx.state.input);
        ctx.status = result.created ? 201 : 200;
        ctx.body = { ...result, explorer_url: explorerTxUrl(deps.config, result.tx_hash) };
      },
    }),
  ]);
}
