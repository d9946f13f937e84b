// The dashboard's access screen (docs/access.md): the class of every element of the brand's passports with its
// source and the brand's restrictions; the reader keys it gives partners (issue, revoke); and the log of every read
// above the public.
import type Router from "@koa/router";
import { accessLogPage, listReaderKeys, overridesOf, replaceOverrides, revokeReaderKey, type AccessLogRow, type ReaderKeyRow } from "../../../access/service";
import { checkOverrides, classOfPath, ELEMENT_CLASSES, type Overrides } from "../../../access/classes";
import { issueReaderKey, type ReaderType } from "../../../access/readers";
import { readerTypeSchema } from "../../../access/schemas";
import { recordAudit } from "../../../audit/service";
import type { AppDeps, AppState } from "../../../deps";
import { NotFoundError } from "../../../errors";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { actorOf } from "../../../team/service";
import type { JsonSchema } from "../../../validation";
import { defineRoute, mountRoutes } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok, PAGE_QUERY, pageOf, TIMESTAMP } from "../base";

const CLASS = { enum: ["public", "legitimate-interest", "authority"] } as const;

const classesSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["elements"],
  properties: {
    elements: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["element", "default_class", "class", "source", "legal_minimum", "restricted_by_brand"],
        properties: {
          element: { type: "string", description: "element path pattern (`*` for any item of a list)" },
          default_class: CLASS,
          class: { ...CLASS, description: "the class readers see it at, with the brand's restrictions" },
          source: { type: "string" },
          legal_minimum: { type: "boolean", description: "the law requires it public: it cannot be restricted" },
          restricted_by_brand: { type: ["string", "null"], enum: ["legitimate-interest", "authority", null] },
        },
      },
    },
  },
};

const overridesBody = {
  type: "object",
  required: ["overrides"],
  additionalProperties: false,
  properties: {
    overrides: {
      type: "object",
      maxProperties: 200,
      propertyNames: { maxLength: 100 },
      additionalProperties: { enum: ["legitimate-interest", "authority"] },
      description: "element pattern → the narrower class it is shown to; replaces the brand's restrictions ({} lifts them all)",
    },
  },
} as const;

const readerKeySchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "prefix", "label", "reader_type", "state", "created_at", "revoked_at", "last_used_at"],
  properties: {
    id: { type: "integer" },
    prefix: { type: "string" },
    label: { type: "string" },
    reader_type: { type: "string" },
    state: { enum: ["active", "revoked"] },
    created_at: TIMESTAMP,
    revoked_at: { type: ["string", "null"], format: "date-time" },
    last_used_at: { type: ["string", "null"], format: "date-time" },
  },
};

const readerKeyBody = {
  type: "object",
  required: ["label", "reader_type"],
  additionalProperties: false,
  properties: {
    label: { type: "string", minLength: 1, maxLength: 100, description: "who holds it, e.g. 'Dhaka Repair Co.'" },
    reader_type: readerTypeSchema,
  },
} as const;

const keyParams = { type: "object", required: ["id"], additionalProperties: false, properties: { id: { type: "string", pattern: "^[1-9][0-9]{0,17}$" } } } as const;

const logEntrySchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "read_at", "uid", "dpp_id", "reader_class", "reader_kind", "reader_id", "reader_label", "reader_type", "operation", "elements"],
  properties: {
    id: { type: "integer" },
    read_at: TIMESTAMP,
    uid: { type: "string" },
    dpp_id: { type: "string" },
    reader_class: { enum: ["legitimate-interest", "authority"] },
    reader_kind: { enum: ["reader_key", "credential", "authority_key"] },
    reader_id: { type: "string", description: "the reader key's or authority key's id, or the credential's issuer" },
    reader_label: { type: ["string", "null"], description: "the key's label, or the credential subject's id" },
    reader_type: { type: ["string", "null"] },
    operation: { type: "string" },
    elements: { type: "array", items: { type: "string" }, description: "the non-public elements the reader was shown" },
  },
};

const pageMetaSchema: JsonSchema = {
  type: "object",
  required: ["page", "per_page", "total"],
  properties: { page: { type: "integer" }, per_page: { type: "integer" }, total: { type: "integer" } },
};

const presentKey = (row: ReaderKeyRow) => ({
  id: Number(row.id),
  prefix: row.prefix,
  label: row.label,
  reader_type: row.reader_type,
  state: row.revoked_at ? ("revoked" as const) : ("active" as const),
  created_at: row.created_at.toISOString(),
  revoked_at: row.revoked_at?.toISOString() ?? null,
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

const presentLog = (row: AccessLogRow) => ({
  id: Number(row.id),
  read_at: row.read_at.toISOString(),
  uid: row.uid,
  dpp_id: row.dpp_id,
  reader_class: row.reader_class,
  reader_kind: row.reader_kind,
  reader_id: row.reader_id,
  reader_label: row.reader_label,
  reader_type: row.reader_type,
  operation: row.operation,
  elements: row.elements,
});

function presentClasses(overrides: Overrides) {
  return {
    elements: Object.entries(ELEMENT_CLASSES).map(([element, entry]) => ({
      element,
      default_class: entry.class,
      class: classOfPath(element.replace(/\*/g, "0"), overrides),
      source: entry.source,
      legal_minimum: entry.legalMinimum === true,
      restricted_by_brand: overrides[element] ?? null,
    })),
  };
}

export function dashboardAccessRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const common = { tag: DASHBOARD_TAG, auth: "session" } as const;
  return mountRoutes(deps, openapi, [
    defineRoute({
      ...common,
      permission: "dashboard.read",
      method: "get",
      path: "/api/dashboard/access",
      operationId: "dashboardAccessClasses",
      summary: "The access class of every passport element (public, legitimate-interest, authority), its source, and the brand's restrictions",
      responses: { "200": { description: "every element of the classification", schema: envelopeSchema(classesSchema) } },
      handler: async (ctx) => ok(ctx, presentClasses(await overridesOf(deps.db, ctx.state.brand.id))),
    }),
    defineRoute({
      ...common,
      permission: "keys.manage",
      method: "put",
      path: "/api/dashboard/access/overrides",
      operationId: "dashboardSetAccessOverrides",
      summary: "Restrict elements of the brand's passports further than their default class (never an element the law requires public)",
      body: overridesBody,
      bodyExample: { overrides: { "textile.durability": "authority", manufacturer: "legitimate-interest" } },
      responses: {
        "200": { description: "the classification with the new restrictions", schema: envelopeSchema(classesSchema) },
        "422": errorResponse("ACCESS_LEGAL_MINIMUM: an element the law requires public (named in details); VALIDATION_ERROR: an unknown element, or a class not narrower than the default"),
      },
      handler: async (ctx) => {
        const overrides = checkOverrides(ctx.state.input.overrides as Record<string, string>);
        await replaceOverrides(deps.db, ctx.state.brand.id, overrides);
        await recordAudit(deps.db, ctx.state.brand.id, actorOf(ctx.state.user), { action: "access.overrides_set", target: "access", details: { overrides } });
        ok(ctx, presentClasses(overrides));
      },
    }),
    defineRoute({
      ...common,
      permission: "keys.manage",
      method: "get",
      path: "/api/dashboard/access/reader-keys",
      operationId: "dashboardReaderKeys",
      summary: "The reader keys the brand gave partners with a legitimate interest (prefixes only), newest first",
      responses: { "200": { description: "the keys", schema: envelopeSchema({ type: "array", items: readerKeySchema }) } },
      handler: async (ctx) => ok(ctx, (await listReaderKeys(deps.db, ctx.state.brand.id)).map(presentKey)),
    }),
    defineRoute({
      ...common,
      permission: "keys.manage",
      method: "post",
      path: "/api/dashboard/access/reader-keys",
      operationId: "dashboardIssueReaderKey",
      summary: "Issue a reader key for a partner (a repairer, a recycler): it reads the brand's passports at legitimate-interest; shown once",
      body: readerKeyBody,
      bodyExample: { label: "Dhaka Repair Co.", reader_type: "repairer" },
      responses: {
        "201": {
          description: "the key (shown once) and its record",
          schema: envelopeSchema({ type: "object", required: ["reader_key", "key"], properties: { reader_key: { type: "string" }, key: readerKeySchema } }),
        },
      },
      handler: async (ctx) => {
        const { label, reader_type } = ctx.state.input;
        const issued = await issueReaderKey(deps.db, ctx.state.brand.id, label, reader_type as ReaderType);
        await recordAudit(deps.db, ctx.state.brand.id, actorOf(ctx.state.user), { action: "access.reader_key_issued", target: issued.row.prefix, details: { label, reader_type } });
        ok(ctx, { reader_key: issued.key, key: presentKey(issued.row) }, 201);
      },
    }),
    defineRoute({
      ...common,
      permission: "keys.manage",
      method: "delete",
      path: "/api/dashboard/access/reader-keys/:id",
      operationId: "dashboardRevokeReaderKey",
      summary: "Revoke a reader key now: it answers 401 READER_KEY_INVALID from then on",
      params: keyParams,
      responses: { "200": { description: "the revoked key", schema: envelopeSchema(readerKeySchema) }, "404": errorResponse("no such key in this brand (NOT_FOUND)") },
      handler: async (ctx) => {
        const row = await revokeReaderKey(deps.db, ctx.state.brand.id, Number(ctx.params.id));
        if (!row) throw new NotFoundError("Reader key");
        await recordAudit(deps.db, ctx.state.brand.id, actorOf(ctx.state.user), { action: "access.reader_key_revoked", target: row.prefix });
        ok(ctx, presentKey(row));
      },
    }),
    defineRoute({
      ...common,
      permission: "dashboard.read",
      method: "get",
      path: "/api/dashboard/access/log",
      operationId: "dashboardAccessLog",
      summary: "Every read of the brand's passports above the public: who, which passport, which elements, when; newest first",
      query: { type: "object", additionalProperties: false, properties: PAGE_QUERY },
      responses: { "200": { description: "a page of reads", schema: envelopeSchema({ type: "array", items: logEntrySchema }, pageMetaSchema) } },
      handler: async (ctx) => {
        const { page, perPage, offset } = pageOf(ctx.query);
        const { rows, total } = await accessLogPage(deps.db, ctx.state.brand.id, perPage, offset);
        ok(ctx, rows.map(presentLog), 200, { page, per_page: perPage, total });
      },
    }),
  ]);
}
