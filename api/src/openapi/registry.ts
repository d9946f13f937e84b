// Collects every route's description and JSON Schemas; the OpenAPI 3.1 document is built from the same schemas
// that validate requests, so the two never drift.
import type { JsonSchema } from "../validation";

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete" | "options";
  path: string;
  /** Stable name for generated clients; derived from method and path when left out (see operationIdOf). */
  operationId?: string;
  tag: string;
  summary: string;
  description?: string;
  /** Left out for a public operation, which the document then marks `security: []`. */
  security?: "apiKey" | "bearer" | "session";
  parameters?: Array<{ name: string; in: "path" | "query" | "header"; required?: boolean; schema: JsonSchema; description?: string }>;
  /** `required: false` for a body that may be left out (it is required unless said). */
  requestBody?: { schema: JsonSchema; example?: unknown; required?: boolean; contentTypes?: readonly string[] };
  responses: Record<string, ResponseSpec>;
};

/**
 * One response: its body is `schema` (and `example`) under `contentType`, JSON unless said, or under each of several
 * media types that share it (static files); `otherTypes` adds media types the same status answers with a body of
 * their own (content negotiation).
 */
export type ResponseSpec = {
  description: string;
  schema?: JsonSchema;
  example?: unknown;
  contentType?: string | readonly string[];
  otherTypes?: Record<string, { schema: JsonSchema; example?: unknown }>;
};

/** The document's tags with their descriptions, in the order a reader meets them; a tag not listed here appears without one. */
export const TAGS = [
  { name: "Public", description: "Reads anyone may make without a key: passports, factory reputation, NFT metadata, platform counts, RFQ matching." },
  { name: "Brand API v1", description: "The metered brand API: products, certificates, usage and webhooks. Send the brand's key as a bearer token and X-Service-Brand: <slug>." },
  { name: "Factory operations", description: "Operator login and the on-chain writes a factory operator makes: factories, passports, tags, supply-chain events." },
  { name: "Pages", description: "Server-rendered HTML for shoppers and the embeddable badge; documented so every mounted route is in this document." },
  { name: "EN 18222 lifecycle", description: "Passports as EN 18222 reads and writes them (IDTA-01002-3 DPP annex paths): reads need no key, writes take the brand's key; errors are EN 18222 Result objects. docs/dpp-api.md." },
  { name: "Orders", description: "A shopper buying from a scan page (placing an order, reading it with its secret) and the payment gateways' callbacks." },
  { name: "Dashboard", description: "The JSON API of the brand dashboard (/dashboard): cookie sessions with a CSRF token, each call allowed by the user's role." },
  { name: "Operations", description: "Liveness, readiness and this document, for operators and integrators." },
  { name: "Internal", description: "Called by the service's own infrastructure (the TLS proxy), from this machine or with a shared secret; not for integrators." },
] as const;

/**
 * The operationId of a route declared without one: the method, then each path segment in camelCase with `:param`
 * as `By<Param>`, leaving out the leading `/api` (`GET /api/v1/products/:uid` → `getV1ProductsByUid`). It depends
 * only on method and path, so it stays the same when routes are added or reordered.
 */
export function operationIdOf(method: Operation["method"], path: string): string {
  const words = path
    .split("/")
    .filter((segment, index) => segment !== "" && !(index === 1 && segment === "api"))
    .flatMap((segment) => (segment.startsWith(":") ? ["by", ...wordsOf(segment.slice(1))] : wordsOf(segment)));
  return method + (words.length === 0 ? "Root" : words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(""));
}

function wordsOf(segment: string): string[] {
  // "rotate-secret" → rotate, secret; "deliveryId" → deliveryId (already camelCase, kept as it is).
  return segment.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
}

export class OpenApiRegistry {
  private readonly operations: Operation[] = [];
  private readonly operationIds = new Map<string, string>();
  private readonly schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };

  /** Component schemas a route's schemas refer to (`#/components/schemas/<name>`); a name is given once. */
  addSchemas(schemas: Record<string, JsonSchema>): void {
    for (const [name, schema] of Object.entries(schemas)) {
      if (name in this.schemas) throw new Error(`component schema ${name} is already declared`);
      this.schemas[name] = schema;
    }
  }

  add(operation: Operation): void {
    // A clash would make generated clients drop or rename a method; fail at start, naming both routes.
    const operationId = operation.operationId ?? operationIdOf(operation.method, operation.path);
    const route = `${operation.method.toUpperCase()} ${operation.path}`;
    const taken = this.operationIds.get(operationId);
    if (taken) throw new Error(`operationId ${operationId} of ${route} is already used by ${taken}; give one of them an explicit operationId`);
    this.operationIds.set(operationId, route);
    this.operations.push({ ...operation, operationId });
  }

  document(serverUrl: string): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const op of this.operations) {
      const path = op.path.replace(/:([A-Za-z_]+)/g, "{$1}");
      paths[path] ??= {};
      paths[path]![op.method] = {
        operationId: op.operationId,
        tags: [op.tag],
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        // An explicit empty list says "public" (Redocly's recommended ruleset wants it said, not left out).
        security: op.security ? [{ [op.security]: [] }] : [],
        ...(op.parameters ? { parameters: op.parameters } : {}),
        ...(op.requestBody
          ? {
              requestBody: {
                required: op.requestBody.required ?? true,
                content: Object.fromEntries(
                  (op.requestBody.contentTypes ?? ["application/json"]).map((type) => [type, { schema: op.requestBody!.schema, example: op.requestBody!.example }]),
                ),
              },
            }
          : {}),
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, response]) => [
            status,
            { description: response.description, ...contentOf(response) },
          ]),
        ),
      };
    }
    const used = new Set(this.operations.map((op) => op.tag));
    const declared = new Set<string>(TAGS.map((tag) => tag.name));
    const tags = [
      ...TAGS.filter((tag) => used.has(tag.name)),
      ...[...used].filter((name) => !declared.has(name)).sort().map((name) => ({ name })),
    ];
    return {
      openapi: "3.1.0",
      info: {
        title: "Passport Registry API",
        version: "1.0",
        license: { name: "Apache-2.0", identifier: "Apache-2.0" },
        contact: { name: "Passport Registry maintainers", url: `${serverUrl}/docs` },
        description:
          "EU Digital Product Passports anchored on an EVM chain, a factory registry with on-chain reputation, " +
          "AI request-for-quotation matching and a metered brand API. Errors use the envelope " +
          '{"success": false, "error": {"code", "message", "request_id", "details"?}}.',
      },
      // PUBLIC_BASE_URL, the origin every link in a response is built on (config.ts strips its trailing slash).
      servers: [{ url: serverUrl }],
      tags,
      components: {
        securitySchemes: {
          apiKey: { type: "http", scheme: "bearer", description: "Brand API key; also send X-Service-Brand: <slug>." },
          bearer: { type: "http", scheme: "bearer", description: "Operator token from POST /api/login." },
          session: {
            type: "apiKey",
            in: "cookie",
            name: "pr_session",
            description:
              "Dashboard session cookie from POST /api/dashboard/session (named __Host-pr_session behind https). " +
              "Every request other than GET also needs the session's CSRF token in X-CSRF-Token.",
          },
        },
        schemas: this.schemas,
      },
      paths,
    };
  }
}

/** The `content` of a response: nothing for a bodiless one. */
function contentOf(response: ResponseSpec): { content?: Record<string, unknown> } {
  const content: Record<string, unknown> = {};
  if (response.schema || response.example !== undefined) {
    const media = { ...(response.schema ? { schema: response.schema } : {}), ...(response.example !== undefined ? { example: response.example } : {}) };
    for (const type of ([] as string[]).concat(response.contentType ?? "application/json")) content[type] = media;
  }
  for (const [type, media] of Object.entries(response.otherTypes ?? {})) content[type] = media;
  return Object.keys(content).length > 0 ? { content } : {};
}

export const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["success", "error"],
  properties: {
    success: { const: false },
    error: {
      type: "object",
      required: ["code", "message", "request_id"],
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        request_id: { type: "string" },
        details: {
          type: "array",
          items: { type: "object", properties: { field: { type: "string" }, problem: { type: "string" } } },
        },
      },
    },
  },
};

export const errorResponse = (description: string) => ({ description, schema: { $ref: "#/components/schemas/Error" } });
