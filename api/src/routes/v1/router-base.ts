// What every brand-scoped v1 route shares: the success envelope and the OpenAPI pieces every v1 operation
// documents. Their authentication and metering are the "apiKey" auth of routes/define-route.ts.
import type { Context } from "koa";
import { SLUG_PATTERN } from "../../brands/service";
import { errorResponse, type Operation } from "../../openapi/registry";
import type { JsonSchema } from "../../validation";

export const API_VERSION = "1.0";

/** The tag of every v1 operation in the document. */
export const V1_TAG = "Brand API v1";

/** Sends the v1 success envelope `{success: true, data, meta?}` (spec 2.11). */
export function ok(ctx: Context, data: unknown, status = 200, meta?: Record<string, unknown>): void {
  ctx.status = status;
  ctx.body = { success: true, data, ...(meta ? { meta } : {}) };
}

/** The envelope's JSON Schema around a data schema, for OpenAPI responses. */
export function envelopeSchema(data: JsonSchema, meta?: JsonSchema): JsonSchema {
  return {
    type: "object",
    required: ["success", "data", ...(meta ? ["meta"] : [])],
    properties: { success: { const: true }, data, ...(meta ? { meta } : {}) },
  };
}

/** The X-Service-Brand header parameter every v1 operation takes. */
export const BRAND_HEADER: NonNullable<Operation["parameters"]>[number] = {
  name: "X-Service-Brand",
  in: "header",
  required: true,
  schema: { type: "string", maxLength: 40, pattern: SLUG_PATTERN.source },
  description: "the slug of the brand the API key belongs to",
};

/** Error responses every v1 operation can give before its own handler runs. */
export const V1_ERRORS: Operation["responses"] = {
  "401": errorResponse("MISSING_KEY: no Authorization header, or no X-Service-Brand (the error names which); INVALID_KEY: unknown or revoked key, a key of another brand, or an Authorization header that is not 'Bearer <key>'"),
  "403": errorResponse("BRAND_INACTIVE: the brand account is suspended"),
  "429": errorResponse(
    "RATE_LIMIT: hourly request limit reached, or too many invalid keys from this address; MONTHLY_LIMIT_REACHED: " +
      "monthly API call quota exhausted. Retry-After gives the seconds to wait.",
  ),
};

/** A line for an operation's description, so every v1 route documents the headers it returns the same way. */
export const V1_HEADERS_NOTE =
  "Every response after authentication carries X-Plan-API-Used (calls this month), X-Plan-API-Limit (monthly " +
  "call quota), X-RateLimit-Remaining (requests left this hour), X-RateLimit-Limit and X-RateLimit-Reset (seconds " +
  "to the next hour).";
