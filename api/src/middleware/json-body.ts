// Reads a JSON request body with a size limit; the parsed value goes on ctx.state.body for validation. It is read
// by the route's body validator, after the route's authentication: a request without credentials is answered 401
// whatever its body, and a brand's malformed body is a metered call like any other.
import getRawBody from "raw-body";
import type { Context } from "koa";
import { AppError, ValidationError } from "../errors";

const LIMIT_BYTES = 64 * 1024;

/** Reads and parses the body once (later calls are no-ops); sets ctx.state.body (undefined when empty). */
export async function readJsonBody(ctx: Context, limitBytes = LIMIT_BYTES): Promise<void> {
  if (ctx.state.rawBody !== undefined) return;
  const length = Number(ctx.get("Content-Length") || 0);
  const hasBody = length > 0 || ctx.get("Transfer-Encoding") !== "";
  // application/merge-patch+json (RFC 7396, the EN 18222 update) and other +json types are JSON too.
  if (hasBody && !ctx.is("application/json", "application/*+json")) {
    throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as Content-Type: application/json.");
  }
  let raw = "";
  if (hasBody) {
    try {
      raw = await getRawBody(ctx.req, { length: length || undefined, limit: limitBytes, encoding: "utf8" });
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413) throw new AppError(413, "PAYLOAD_TOO_LARGE", `The body is larger than ${limitBytes} bytes.`);
      throw new AppError(400, "BAD_REQUEST", "The request body could not be read.");
    }
  }
  ctx.state.rawBody = raw;
  if (raw.trim() === "") {
    ctx.state.body = undefined;
    return;
  }
  try {
    ctx.state.body = JSON.parse(raw);
  } catch {
    throw new ValidationError([{ field: "body", problem: "is not valid JSON" }]);
  }
  const problem = unstorable(ctx.state.body);
  if (problem) throw new ValidationError([{ field: problem.field, problem: problem.problem }]);
}

/** Deeper than any request of ours: validators and serialisers recurse, so depth is bounded before they run. */
const MAX_DEPTH = 32;
// Postgres text and jsonb cannot hold U+0000, and a lone surrogate is not valid Unicode: both are refused up front,
// for every endpoint, rather than failing (or being silently altered) where they are stored.
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorable(value: unknown, path = "body", depth = 0): { field: string; problem: string } | undefined {
  if (depth > MAX_DEPTH) return { field: path, problem: `nests deeper than ${MAX_DEPTH} levels` };
  if (typeof value === "string") {
    return UNSTORABLE.test(value) ? { field: path, problem: "contains a NUL character or invalid Unicode" } : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = Array.isArray(value) ? `${path}[${key}]` : path === "body" ? key : `${path}.${key}`;
    if (UNSTORABLE.test(key)) return { field: childPath, problem: "has a name with a NUL character or invalid Unicode" };
    const found = unstorable(child, childPath, depth + 1);
    if (found) return found;
  }
  return undefined;
}
