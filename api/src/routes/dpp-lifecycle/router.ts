// The EN 18222 lifecycle API (IDTA-01002-3 DPP annex paths) under /api/dpp-lifecycle/v1/: reads need no key; writes
// take the brand's API key and X-Service-Brand and are metered like v1. Errors are EN 18222's Result object.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { visibleDpp, visibleElement, visibleVersionBytes } from "../../access/reads";
import { markReaderResponse, requestReader } from "../../middleware/reader";
import type { Reader } from "../../access/readers";
import type { ReadOperation } from "../../access/service";
import { ValidationError } from "../../errors";
import type { Logger } from "../../logger";
import { catchErrors } from "../../middleware/error-handler";
import { renderJson, sendJson, type RenderedJson } from "../../middleware/etag";
import { IndexedReadCache } from "../../onchain/indexed-read-cache";
import type { OpenApiRegistry } from "../../openapi/registry";
import { productKeyOf } from "../../dpp/product-ids";
import type { Json } from "../../dpp/merge-patch";
import type { Representation } from "../../dpp/representation";
import {
  BadRequestError,
  createDpp,
  deleteDpp,
  dppIdsByProductIds,
  dppVersionContent,
  listDppVersions,
  readDpp,
  readDppAt,
  readDppByProductId,
  readElement,
  updateDpp,
  updateElement,
  type DppRead,
  type ProductKey,
} from "../../dpp/service";
import { requestRegistrations } from "../../registry/registration";
import { defineRoute, mountRoutes, type RouteResponse } from "../define-route";
import {
  canonicalContentSchema,
  createDppBody,
  DATA_ELEMENT_SCHEMA,
  dateQuery,
  dppIdParam,
  dppIdsSchema,
  dppSchema,
  elementParams,
  elementPatchBody,
  elementReadSchema,
  mergePatchBody,
  pagingQuery,
  productIdParam,
  productIdsBody,
  registerBody,
  registrationsSchema,
  representationQuery,
  resultSchema,
  versionParams,
  versionsSchema,
} from "./schemas";

export const DPP_LIFECYCLE_PREFIX = "/api/dpp-lifecycle/";
const BASE = "/api/dpp-lifecycle/v1";
const TAG = "EN 18222 lifecycle";

/** How long an archived passport stays readable (ESPR registry data is kept 10 years: Implementing Regulation (EU) 2026/1778). */
export const RETENTION_YEARS = 10;

const result = (description: string): RouteResponse => ({ description, schema: { $ref: "#/components/schemas/Result" } });

/** The answers every route here may give besides its own, as Result objects. */
const READ_ERRORS = {
  "400": result("a malformed identifier, date or path (BAD_REQUEST)"),
  "401": result("a reader credential that fails: READER_KEY_INVALID, CREDENTIAL_INVALID, CREDENTIAL_EXPIRED, CREDENTIAL_AUDIENCE, CREDENTIAL_UNTRUSTED_ISSUER (docs/access.md)"),
  "403": result("an element, or a version's exact bytes, above the reader's access class (ACCESS_CLASS_REQUIRED)"),
  "404": result("no such passport, version or element (NOT_FOUND)"),
  "422": result("a parameter out of its range (VALIDATION_ERROR)"),
};
const WRITE_ERRORS = {
  ...READ_ERRORS,
  "401": result("MISSING_KEY or INVALID_KEY"),
  "403": result("BRAND_INACTIVE"),
  "409": result("the passport is being anchored, archived, or still on the market (CONFLICT)"),
  "429": result("RATE_LIMIT or MONTHLY_LIMIT_REACHED"),
  "503": result("the chain could not be reached; nothing changed (SERVICE_UNAVAILABLE)"),
};

/** Renders every failure under the prefix (a missing route included) as EN 18222's Result: one message, plus one per detail. */
export function resultErrors(logger: Logger) {
  const middleware = catchErrors(logger, ({ code, message, details }, requestId) => {
    const timestamp = new Date().toISOString();
    const entry = (text: string, entryCode: string) => ({ messageType: "Error", text, code: entryCode, correlationId: requestId, timestamp });
    return { messages: [entry(message, code), ...(details ?? []).map((d) => entry(`${d.field}: ${d.problem}`, code))] };
  });
  return (ctx: Parameters<typeof middleware>[0], next: () => Promise<unknown>) => (ctx.path.startsWith(DPP_LIFECYCLE_PREFIX) ? middleware(ctx, next) : next());
}

/** The headers an element read or a version's bytes says the reader's view with (their bodies are EN 18222's own). */
function sendAccessHeaders(ctx: { set: (name: string, value: string) => void }, access: { class: string; withheld: string[] }) {
  ctx.set("DPP-Access-Class", access.class);
  if (access.withheld.length > 0) ctx.set("DPP-Withheld-Elements", access.withheld.join(","));
}

/** A reader's answer is rendered for it alone (and logged); the public's is shared through `reads` (below). */
async function sendRead(ctx: Parameters<typeof sendJson>[0], reader: Reader, shared: (render: () => Promise<unknown>) => Promise<void>, render: () => Promise<unknown>) {
  markReaderResponse(ctx, reader);
  if (reader.class === "public") return shared(render);
  sendJson(ctx, renderJson(await render()));
}

/** A read passport as `reader` may see it (visibleDpp, with the access the read had). */
const readVisible = (deps: AppDeps, reader: Reader, read: DppRead, operation: ReadOperation) => visibleDpp(deps, reader, read.dpp, operation, read.access);

const representationOf = (query: { representation?: string }): Representation => (query.representation === "full" ? "full" : "compressed");

function keyOf(productId: string, field: string): ProductKey {
  const key = productKeyOf(productId);
  if ("problem" in key) throw new BadRequestError(`The product identifier ${key.problem}.`, [{ field, problem: key.problem }]);
  return key;
}

/** An ISO 8601 instant with an explicit UTC offset (Z or ±hh:mm), as EN 18222 asks; a date alone is midnight UTC. */
function instantOf(value: string): Date {
  const ok = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(value);
  const at = ok ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : undefined;
  if (!at || Number.isNaN(at.getTime())) throw new BadRequestError(`date "${value}" is not an ISO 8601 instant in UTC (e.g. 2026-11-27T10:00:00Z).`, [{ field: "query.date", problem: "is not an ISO 8601 instant" }]);
  return at;
}

/**
 * Passports as ReadDPPById and ReadDPPByProductId render them, held for up to a second, so a burst of reads of one
 * passport costs one render. Every write through this API drops them all once it is done, failed or not: its writer,
 * and anyone reading from this process after it, sees the change at once. A change made elsewhere (the dashboard, the
 * v1 API, a mint or re-anchor completing, another replica's write) shows within that second, the staleness the public
 * record accepts too (routes/dpp/router.ts). Nothing here comes from the indexer, so unlike the public record a
 * rendering is not tied to the indexed block: that would only add a query per burst and a render per block.
 */
function renderedReads() {
  const fresh = () => new IndexedReadCache<RenderedJson>({ ttlMs: 1000, maxEntries: 1000 });
  let renderings = fresh();
  return {
    async send(ctx: Parameters<typeof sendJson>[0], key: string, render: () => Promise<unknown>): Promise<void> {
      sendJson(ctx, await renderings.read(key, undefined, async () => renderJson(await render())));
    },
    /** Runs a write, then drops every rendering (renders in flight finish into the dropped cache and are not kept). */
    async writing<T>(write: Promise<T>): Promise<T> {
      try {
        return await write;
      } finally {
        renderings = fresh();
      }
    },
  };
}

export function dppLifecycleRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  openapi.addSchemas({ Result: resultSchema, DataElement: DATA_ELEMENT_SCHEMA });
  const dpp = (description: string): RouteResponse => ({ description, schema: dppSchema });
  const reads = renderedReads();
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: `${BASE}/dpps/:dppId`,
      operationId: "readDppById",
      tag: TAG,
      auth: "public",
      summary: "ReadDPPById: a passport by its persistent id",
      params: dppIdParam,
      query: representationQuery,
      responses: { "200": dpp("the passport: EN 18223 header, the content section keyed by its specification id, and its anchor"), ...READ_ERRORS },
      handler: async (ctx) => {
        const representation = representationOf(ctx.query);
        const reader = await requestReader(deps, ctx);
        await sendRead(ctx, reader, (render) => reads.send(ctx, `${representation} ${ctx.params.dppId}`, render), async () =>
          readVisible(deps, reader, await readDpp(deps, ctx.params.dppId, representation), "ReadDPPById"),
        );
      },
    }),
    defineRoute({
      method: "get",
      path: `${BASE}/dppsByProductId/:productId`,
      operationId: "readDppByProductId",
      tag: TAG,
      auth: "public",
      summary: "ReadDPPByProductId: the passport of a UID, a GS1 Digital Link URI or GTIN and serial",
      description: "Where several passports carry the identifier (a GTIN alone names a model, its batches and items), the most general is returned: the model before a batch before an item. ReadDPPIdsByProductIds lists them all.",
      params: productIdParam,
      query: representationQuery,
      responses: { "200": dpp("the passport"), ...READ_ERRORS },
      handler: async (ctx) => {
        const key = keyOf(ctx.params.productId, "productId");
        const representation = representationOf(ctx.query);
        const reader = await requestReader(deps, ctx);
        await sendRead(ctx, reader, (render) => reads.send(ctx, `${representation} ${JSON.stringify(key)}`, render), async () =>
          readVisible(deps, reader, await readDppByProductId(deps, key, representation), "ReadDPPByProductId"),
        );
      },
    }),
    defineRoute({
      method: "get",
      path: `${BASE}/dppsByIdAndDate/:dppId`,
      operationId: "readDppVersionByIdAndDate",
      tag: TAG,
      auth: "public",
      summary: "ReadDPPVersionByIdAndDate: the version of a passport current at an instant",
      description: "The latest version anchored at or before `date`, its content section exactly as it was hashed (its hash is in anchor.dataHash).",
      params: dppIdParam,
      query: dateQuery,
      responses: { "200": dpp("the passport as it was then"), ...READ_ERRORS },
      handler: async (ctx) => {
        const reader = await requestReader(deps, ctx);
        markReaderResponse(ctx, reader);
        ctx.body = await visibleDpp(deps, reader, await readDppAt(deps, ctx.params.dppId, instantOf(ctx.query.date), representationOf(ctx.query)), "ReadDPPVersionByIdAndDate");
      },
    }),
    defineRoute({
      method: "post",
      path: `${BASE}/dppsByProductIds`,
      operationId: "readDppIdsByProductIds",
      tag: TAG,
      auth: "public",
      summary: "ReadDPPIdsByProductIds: the passport ids of up to 100 product identifiers, paged",
      params: undefined,
      query: pagingQuery,
      body: productIdsBody,
      bodyExample: { productIds: ["https://id.gs1.org/01/09506000134352/21/A1"] },
      responses: { "200": { description: "the union of the passport ids, in id order", schema: dppIdsSchema }, ...READ_ERRORS },
      handler: async (ctx) => {
        const keys = ctx.state.input.productIds.map((id, i) => keyOf(id, `productIds.${i}`));
        ctx.body = await dppIdsByProductIds(deps, keys, Number(ctx.query.limit ?? 100), ctx.query.cursor);
      },
    }),
    defineRoute({
      method: "post",
      path: `${BASE}/dpps`,
      operationId: "createDpp",
      tag: TAG,
      auth: "apiKey",
      summary: "CreateDPP: a model, batch or item passport, registered and anchored on chain",
      description:
        "A batch or item names its model (and an item its batch) by passport id; what it leaves out it takes from its batch, then its model, and its content says which field came from where. Counts one certificate against the monthly quota. 201 once the passport is anchored, or while its mint is still in flight (anchor.status pending).",
      body: createDppBody,
      bodyExample: { granularity: "model", product: { sku: "POLO-24", name: "Piqué polo", category: "polo-shirt", fabric_type: "organic cotton" }, country_of_manufacture: "BD" },
      responses: { "201": dpp("created; its id is digitalProductPassportId"), ...WRITE_ERRORS },
      handler: async (ctx) => {
        ctx.status = 201;
        ctx.body = await reads.writing(createDpp(deps, ctx.state.brand, ctx.state.input));
        ctx.set("Location", `${BASE}/dpps/${encodeURIComponent((ctx.body as { digitalProductPassportId: string }).digitalProductPassportId)}`);
      },
    }),
    defineRoute({
      method: "patch",
      path: `${BASE}/dpps/:dppId`,
      operationId: "updateDppById",
      tag: TAG,
      auth: "apiKey",
      summary: "UpdateDPPById: an RFC 7396 JSON Merge Patch of the passport; the new version is archived and re-anchored",
      description: "Patch the passport as served (compressed): the content section under its specification id, and dppStatus (active or inactive). Read-only elements (the header, uid, brand, manufacturer, carbon, provenance, passport) are refused by name.",
      params: dppIdParam,
      body: mergePatchBody,
      bodyExample: { "passport-registry/dpp-content/3": { product: { name: "Piqué polo, regular fit" } } },
      responses: { "200": dpp("the passport after the change"), ...WRITE_ERRORS },
      handler: async (ctx) => {
        ctx.body = await reads.writing(updateDpp(deps, ctx.state.brand, ctx.params.dppId, ctx.state.input as Json));
      },
    }),
    defineRoute({
      method: "delete",
      path: `${BASE}/dpps/:dppId`,
      operationId: "deleteDppById",
      tag: TAG,
      auth: "apiKey",
      summary: "DeleteDPPById: erases a passport never anchored; archives one that was, once it is inactive",
      description: `An anchored passport is never erased: once its dppStatus is inactive (the product is off the market), DELETE archives it (read-only, still readable) for ${RETENTION_YEARS} years.`,
      params: dppIdParam,
      responses: { "204": { description: "erased, or archived" }, ...WRITE_ERRORS },
      handler: async (ctx) => {
        await reads.writing(deleteDpp(deps, ctx.state.brand, ctx.params.dppId, RETENTION_YEARS));
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: "get",
      path: `${BASE}/dpps/:dppId/elements/:elementPath`,
      operationId: "readDataElement",
      tag: TAG,
      auth: "public",
      summary: "ReadDataElement: one element of a passport",
      params: elementParams,
      query: representationQuery,
      responses: { "200": { description: "the element", schema: elementReadSchema }, ...READ_ERRORS },
      handler: async (ctx) => {
        const reader = await requestReader(deps, ctx);
        markReaderResponse(ctx, reader);
        const { body, access } = await visibleElement(deps, reader, ctx.params.dppId, ctx.params.elementPath, () =>
          readElement(deps, ctx.params.dppId, ctx.params.elementPath, representationOf(ctx.query)),
        );
        sendAccessHeaders(ctx, access);
        ctx.body = body;
      },
    }),
    defineRoute({
      method: "patch",
      path: `${BASE}/dpps/:dppId/elements/:elementPath`,
      operationId: "updateDataElement",
      tag: TAG,
      auth: "apiKey",
      summary: "UpdateDataElement: sets one element; the new version is archived and re-anchored",
      params: elementParams,
      body: elementPatchBody,
      bodyExample: { value: "Piqué polo, regular fit" },
      responses: { "200": { description: "the element after the change (compressed)", schema: elementReadSchema }, ...WRITE_ERRORS },
      handler: async (ctx) => {
        const { value } = ctx.state.input as { value: Json };
        if (value === undefined) throw new ValidationError([{ field: "body.value", problem: "is required" }]);
        ctx.body = await reads.writing(updateElement(deps, ctx.state.brand, ctx.params.dppId, ctx.params.elementPath, value));
      },
    }),
    defineRoute({
      method: "post",
      path: `${BASE}/registerDPP`,
      operationId: "registerProductDpp",
      tag: TAG,
      auth: "apiKey",
      summary: "RegisterProductDPP: queues the registration of passports at the EU registry",
      description:
        "Registers the latest anchored version of each passport (up to 100) at the EU DPP registry (REGISTRY_URL; docs/registry.md). 202 with each registration's state: queued, then registered with the registry's id and proof, or failed with the registry's reason. A version is registered once: asking again answers the same registration (a failed one is queued again). 422 names every field the registry needs and a passport lacks (commodity code, economic operator, facility).",
      body: registerBody,
      bodyExample: { digitalProductPassportIds: ["urn:uuid:96a790fe-4c8c-4fcc-bec1-e636cb983112"] },
      responses: { "202": { description: "the registrations, queued or already done", schema: registrationsSchema }, ...WRITE_ERRORS },
      handler: async (ctx) => {
        ctx.status = 202;
        ctx.body = { registrations: await reads.writing(requestRegistrations(deps, ctx.state.brand.id, ctx.state.input.digitalProductPassportIds)) };
      },
    }),
    defineRoute({
      method: "get",
      path: `${BASE}/dpps/:dppId/versions`,
      operationId: "listDppVersions",
      tag: TAG,
      auth: "public",
      summary: "The anchored versions of a passport (an extension of EN 18222, for auditors)",
      params: dppIdParam,
      responses: { "200": { description: "every anchored version, oldest first", schema: versionsSchema }, ...READ_ERRORS },
      handler: async (ctx) => {
        ctx.body = { versions: await listDppVersions(deps, ctx.params.dppId) };
      },
    }),
    defineRoute({
      method: "get",
      path: `${BASE}/dpps/:dppId/versions/:version/content`,
      operationId: "readDppVersionContent",
      tag: TAG,
      auth: "public",
      summary: "The exact bytes a version hashed (RFC 8785 canonical JSON; an extension of EN 18222)",
      description: "keccak256 of this body is the version's dataHash, on chain.",
      params: versionParams,
      responses: { "200": { description: "the canonical JSON, byte for byte", schema: canonicalContentSchema }, ...READ_ERRORS },
      handler: async (ctx) => {
        const reader = await requestReader(deps, ctx);
        markReaderResponse(ctx, reader);
        const bytes = await dppVersionContent(deps, ctx.params.dppId, Number(ctx.params.version));
        ctx.type = "application/json";
        ctx.body = await visibleVersionBytes(deps, reader, ctx.params.dppId, bytes);
      },
    }),
  ]);
}
