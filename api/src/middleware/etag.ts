// JSON bodies rendered once for many responses, and weak ETags for JSON GETs: a repeated scan with If-None-Match
// costs a 304 and no body.
import { createHash } from "node:crypto";
import type { Context } from "koa";

/**
 * A JSON body serialised once, as the bytes sent, with its ETag: a cached rendering is neither serialised, hashed
 * nor encoded again per request.
 */
export type RenderedJson = { body: Buffer; etag: string };

const JSON_TYPE = "application/json; charset=utf-8";

export function renderJson(value: unknown): RenderedJson {
  const body = Buffer.from(JSON.stringify(value), "utf8");
  return { body, etag: `W/"${createHash("sha1").update(body).digest("base64url")}"` };
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
