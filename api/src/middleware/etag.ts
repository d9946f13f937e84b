// JSON bodies rendered once for many responses, and weak ETags for JSON GETs: a repeated scan with If-None-Match
// costs a 304 and no body.
import { createHash } from "node:crypto";
import type { Context } from "koa";

/**
 * A JSON body serialised once, with its ETag: a cached rendering is neither serialised nor hashed again per request.
 * The body is kept as the JSON text, not as its bytes: a Buffer of more than 4 KB owns an ArrayBuffer outside V8's
 * heap, and the records the read caches held for their second (a public record is about 10 KB) were promoted with
 * theirs, which drove a full garbage collection every 3 s at 500 reads a second and a latency spike with each
 * (`npm run bench:volume`'s paced run; docs/benchmarks.md). Node writes a text body to the socket as UTF-8 itself.
 */
export type RenderedJson = { body: string; etag: string };

const JSON_TYPE = "application/json; charset=utf-8";

export function renderJson(value: unknown): RenderedJson {
  const body = JSON.stringify(value);
  return { body, etag: `W/"${createHash("sha1").update(body, "utf8").digest("base64url")}"` };
}

/** Sets ctx.body to `body`, or answers 304 when the caller already holds this version. */
export function sendWithEtag(ctx: Context, body: unknown, maxAgeSeconds: number): void {
  sendRendered(ctx, renderJson(body), maxAgeSeconds);
}

// One Cache-Control value per max-age in use (a handful), not a new string per response.
const cacheControls = new Map<number, string>();
function cacheControl(maxAgeSeconds: number): string {
  let value = cacheControls.get(maxAgeSeconds);
  if (value === undefined) {
    value = `public, max-age=${maxAgeSeconds}, stale-while-revalidate=30`;
    cacheControls.set(maxAgeSeconds, value);
  }
  return value;
}

export function sendRendered(ctx: Context, { body, etag }: RenderedJson, maxAgeSeconds: number): void {
  const res = ctx.res;
  res.setHeader("ETag", etag);
  res.setHeader("Cache-Control", cacheControl(maxAgeSeconds));
  // What `ctx.type = "application/json"` sets, without its MIME lookup.
  res.setHeader("Content-Type", JSON_TYPE);
  const held = ctx.req.headers["if-none-match"];
  if (held && held.split(",").some((tag) => tag.trim() === etag)) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}

/**
 * Sends a rendered body as it is, with no caching headers: for a cached record that would otherwise be serialised
 * again for every request (Koa stringifies an object body each time).
 */
export function sendJson(ctx: Context, { body }: RenderedJson, status = 200): void {
  ctx.status = status;
  ctx.res.setHeader("Content-Type", JSON_TYPE);
  ctx.body = body;
}
