// Each route declared once: method, path, auth, the JSON Schemas of its input and of every response, and the handler.
// One declaration feeds both the Koa router (validation, authentication, metering) and the OpenAPI document, and the
// handler's input types come from the same schemas (json-schema-to-ts), so the three cannot drift.
import Router, { type RouterContext, type RouterMiddleware } from "@koa/router";
import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type { Middleware } from "koa";
import type { Operator } from "../auth/sessions";
import type { BrandContext } from "../brands/service";
import type { AppDeps, AppState } from "../deps";
import { requireBrand } from "../middleware/brand-auth";
import { meterApiCall } from "../middleware/metering";
import { requireOperator } from "../middleware/operator-auth";
import { CSRF_HEADER, requireBrandUser } from "../middleware/brand-session";
import type { Permission } from "../team/roles";
import type { SessionUser } from "../team/service";
import { validateBody } from "../middleware/validate-body";
import { validateParams, validateQuery } from "../middleware/validate-params";
import { errorResponse, type OpenApiRegistry, type Operation, type ResponseSpec } from "../openapi/registry";
import type { JsonSchema } from "../validation";
import { BRAND_HEADER, V1_ERRORS } from "./v1/router-base";

/**
 * Who may call a route: anyone; a brand's API key (`requireBrand → meterApiCall`, the metered v1 chain); a factory
 * operator's bearer token from POST /api/login; or a dashboard user's session cookie, whose role must hold the
 * route's `permission` (and, for writes, the session's CSRF token).
 */
export type Auth = "public" | "apiKey" | "operator" | "session";

/**
 * One response of a route. JSON unless `contentType` says otherwise (several media types sharing one schema for static
 * files; `otherTypes` for media types with a body of their own); no `schema` only for bodiless ones (204, 304).
 */
export type RouteResponse = ResponseSpec;

/** A header the route reads that is not its authentication (documented; checked by the middleware that reads it). */
export type HeaderParameter = { name: string; required?: boolean; schema: JsonSchema; description?: string };

type Method = "get" | "post" | "put" | "patch" | "delete" | "options";

type AuthState<A extends Auth> = A extends "apiKey"
  ? { brand: BrandContext }
  : A extends "operator"
    ? { operator: Operator }
    : A extends "session"
      ? { user: SessionUser; brand: BrandContext }
      : unknown;

export type RouteSpec<A extends Auth, P, Q, B> = {
  method: Method;
  /** The Koa pattern (`/api/v1/products/:uid`); the document writes it `/api/v1/products/{uid}`. */
  path: string;
  tag: string;
  /** camelCase, unique in the document: what generated clients name the call. */
  operationId: string;
  summary: string;
  description?: string;
  auth: A;
  /** For `session` routes: what the user's role must allow (team/roles.ts). */
  permission?: A extends "session" ? Permission : never;
  /** Path parameters: an object schema of strings, one property per `:name`. */
  params?: P;
  /**
   * The handler checks the path parameters itself, because it answers a malformed one its own way (an HTML page, a
   * 404 for a file not in a list); `params` then only documents them.
   */
  handlerChecksParams?: true;
  query?: Q;
  body?: B;
  /** A body that may be left out: it is then validated (and handed on) as `{}`. */
  bodyOptional?: true;
  /** A JSON body larger than the usual 64 KB (a list of thousands of UIDs); 413 PAYLOAD_TOO_LARGE past it. */
  bodyLimitBytes?: number;
  bodyExample?: unknown;
  /**
   * A body that is not JSON (an image, a CSV file): its media types, documented; the handler reads it itself, so
   * `body` only documents its schema.
   */
  rawBody?: readonly string[];
  /** Headers the route reads besides its authentication (X-Service-Brand is added for apiKey routes). */
  headers?: HeaderParameter[];
  /** Middleware that runs first, around everything else (HTML error pages, CORS headers, content negotiation). */
  before?: Middleware<AppState>[];
  /** Middleware that runs after validation, just before the handler (idempotency, which needs the validated body). */
  after?: Middleware<AppState>[];
  /** Every status the route answers itself; the errors of its auth are added (AUTH_ERRORS) unless given here. */
  responses: Record<string, RouteResponse>;
  /**
   * Sees the Koa context typed from the declaration: path parameters, query and body have passed their schemas by the
   * time it runs (the body is ctx.state.input), and ctx.state has the brand or the operator its auth established.
   * Types only: nothing is copied per request. (Written out here, not as a generic alias: TypeScript measuring such
   * an alias's variance instantiates FromSchema too deeply.)
   */
  handler: (
    ctx: RouterContext<AppState & AuthState<A> & { input: [B] extends [JSONSchema] ? FromSchema<B> : undefined }> & {
      params: [P] extends [JSONSchema] ? FromSchema<P> : Record<string, string>;
      query: [Q] extends [JSONSchema] ? FromSchema<Q> : Record<string, string | string[] | undefined>;
    },
  ) => unknown;
};

/** A declaration with its types erased, as routers collect them. */
export type Route = Omit<RouteSpec<Auth, unknown, unknown, unknown>, "handler"> & { handler: (ctx: never) => unknown };

/** Declares a route; schemas written inline or `as const` give the handler its input types. */
export function defineRoute<
  const A extends Auth,
  const P extends JSONSchema | undefined = undefined,
  const Q extends JSONSchema | undefined = undefined,
  const B extends JSONSchema | undefined = undefined,
>(spec: RouteSpec<A, P, Q, B>): Route {
  return spec as unknown as Route;
}

/** The error responses each kind of auth can give before the route's own code runs. */
const AUTH_ERRORS: Record<Auth, Record<string, RouteResponse>> = {
  public: {},
  apiKey: V1_ERRORS,
  operator: { "401": errorResponse("missing, unknown or expired token (UNAUTHORIZED)") },
  session: {
    "401": errorResponse("not signed in, or the session ended (UNAUTHORIZED)"),
    "403": errorResponse("the role may not do this (FORBIDDEN), a write without the session's CSRF token (CSRF_FAILED), or a suspended brand (BRAND_INACTIVE)"),
  },
};

/**
 * A router with `routes` mounted on it and written into the document. The chain of each route is built here once,
 * at start (validators compiled, middleware created), in one order:
 *
 *   public:   before → params → query → body → after → handler
 *   operator: before → params → requireOperator → query → body → after → handler
 *   apiKey:   before → requireBrand → meterApiCall → params → query → body → after → handler
 *
 * Authentication comes before the body is read: a request without credentials is answered 401 whatever its body.
 * A malformed path is refused before an operator's token is looked up (it costs nothing to check); on the brand API
 * it is checked after metering, because every authenticated call counts, a 422 included.
 */
export function mountRoutes(deps: AppDeps, openapi: OpenApiRegistry, routes: Route[]): Router<AppState> {
  const router = new Router<AppState>();
  let brandChain: Middleware<AppState>[] | undefined;
  let operatorAuth: Middleware<AppState> | undefined;
  const sessionAuth: Partial<Record<Permission, Middleware<AppState>>> = {};
  for (const route of routes) {
    const params = route.params && !route.handlerChecksParams ? [validateParams(route.params as JsonSchema)] : [];
    const input = [
      ...(route.query ? [validateQuery(route.query as JsonSchema)] : []),
      ...(route.body && !route.rawBody ? [validateBody(route.body as JsonSchema, { optional: route.bodyOptional === true, limitBytes: route.bodyLimitBytes })] : []),
    ];
    let auth: Middleware<AppState>[] = [];
    if (route.auth === "apiKey") auth = brandChain ??= [requireBrand(deps), meterApiCall(deps)];
    if (route.auth === "operator") auth = [(operatorAuth ??= requireOperator(deps))];
    if (route.auth === "session") {
      if (!route.permission) throw new Error(`${route.operationId}: a session route needs a permission`);
      auth = [(sessionAuth[route.permission] ??= requireBrandUser(deps, route.permission))];
    }
    const chain = [
      ...(route.before ?? []),
      ...(route.auth === "apiKey" ? [...auth, ...params] : [...params, ...auth]),
      ...input,
      ...(route.after ?? []),
      // The validators above guarantee the shapes the handler's type promises.
      route.handler as unknown as Middleware<AppState>,
    ] as RouterMiddleware<AppState>[];
    router[route.method](route.operationId, route.path, ...chain);
    openapi.add(operationOf(route));
  }
  return router;
}

/** The OpenAPI operation of a declaration. */
export function operationOf(route: Route): Operation {
  const parameters: NonNullable<Operation["parameters"]> = [
    ...(route.auth === "apiKey" ? [BRAND_HEADER] : []),
    ...(route.auth === "session" && route.method !== "get" ? [CSRF_PARAMETER] : []),
    ...(route.headers ?? []).map((header) => ({ in: "header" as const, ...header })),
    ...propertiesOf(route.params).map(({ name, schema, description }) => ({ name, in: "path" as const, required: true, schema, ...(description ? { description } : {}) })),
    ...propertiesOf(route.query).map(({ name, schema, description, required }) => ({ name, in: "query" as const, required, schema, ...(description ? { description } : {}) })),
  ];
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    tag: route.tag,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.auth === "apiKey" || route.auth === "session"
      ? { security: route.auth }
      : route.auth === "operator"
        ? { security: "bearer" as const }
        : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            schema: route.body as JsonSchema,
            example: route.bodyExample,
            ...(route.bodyOptional ? { required: false } : {}),
            ...(route.rawBody ? { contentTypes: route.rawBody } : {}),
          },
        }
      : {}),
    responses: { ...route.responses, ...withoutKeys(AUTH_ERRORS[route.auth], route.responses) },
  };
}

const CSRF_PARAMETER = {
  name: CSRF_HEADER,
  in: "header" as const,
  required: true,
  schema: { type: "string", maxLength: 100 } as JsonSchema,
  description: "The session's CSRF token (csrf_token in the session's answer).",
};

function propertiesOf(schema: unknown): Array<{ name: string; schema: JsonSchema; description?: string; required: boolean }> {
  const object = schema as { properties?: Record<string, JsonSchema>; required?: readonly string[] } | undefined;
  return Object.entries(object?.properties ?? {}).map(([name, property]) => ({
    name,
    schema: property,
    description: typeof property.description === "string" ? property.description : undefined,
    required: object?.required?.includes(name) ?? false,
  }));
}

function withoutKeys<T>(from: Record<string, T>, present: Record<string, unknown>): Record<string, T> {
  return Object.fromEntries(Object.entries(from).filter(([status]) => !(status in present)));
}

/** The schema of an HTML page response, and of a script or a file sent as it is. */
export const HTML = (description: string): RouteResponse => ({ description, contentType: "text/html", schema: { type: "string" }, example: "<!doctype html>…" });
export const NOT_MODIFIED: RouteResponse = { description: "not modified since the ETag the caller holds (no body)" };
