// Collects every route's description and JSON Schemas; the OpenAPI 3.1 document is built from the same schemas
// that validate requests, so the two never drift.
import type { JsonSchema } from "../validation";

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  tag: string;
  summary: string;
  description?: string;
  security?: "apiKey" | "bearer";
  parameters?: Array<{ name: string; in: "path" | "query" | "header"; required?: boolean; schema: JsonSchema; description?: string }>;
  /** `required: false` for a body that may be left out (it is required unless said). */
  requestBody?: { schema: JsonSchema; example?: unknown; required?: boolean };
  responses: Record<string, { description: string; schema?: JsonSchema; example?: unknown; contentType?: string }>;
};

export class OpenApiRegistry {
  private readonly operations: Operation[] = [];

  add(operation: Operation): void {
    this.operations.push(operation);
  }

  document(serverUrl: string): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const op of this.operations) {
      const path = op.path.replace(/:([A-Za-z_]+)/g, "{$1}");
      paths[path] ??= {};
      paths[path]![op.method] = {
        tags: [op.tag],
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        ...(op.security ? { security: [{ [op.security]: [] }] } : {}),
        ...(op.parameters ? { parameters: op.parameters } : {}),
        ...(op.requestBody
          ? {
              requestBody: {
                required: op.requestBody.required ?? true,
                content: { "application/json": { schema: op.requestBody.schema, example: op.requestBody.example } },
              },
            }
          : {}),
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, response]) => [
            status,
            {
              description: response.description,
              ...(response.schema || response.example !== undefined
                ? {
                    content: {
                      [response.contentType ?? "application/json"]: {
                        ...(response.schema ? { schema: response.schema } : {}),
                        ...(response.example !== undefined ? { example: response.example } : {}),
                      },
                    },
                  }
                : {}),
            },
          ]),
        ),
      };
    }
    return {
      openapi: "3.1.0",
      info: {
        title: "Passport Registry API",
        version: "1.0",
        description:
          "EU Digital Product Passports anchored on an EVM chain, a factory registry with on-chain reputation, " +
          "AI request-for-quotation matching and a metered brand API. Errors use the envelope " +
          '{"success": false, "error": {"code", "message", "request_id", "details"?}}.',
      },
      servers: [{ url: serverUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: "http", scheme: "bearer", description: "Brand API key; also send X-Service-Brand: <slug>." },
          bearer: { type: "http", scheme: "bearer", description: "Operator token from POST /api/login." },
        },
        schemas: { Error: ERROR_SCHEMA },
      },
      paths,
    };
  }
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
