// Weak ETags for JSON GETs: a repeated scan with If-None-Match costs a 304 and no body.
import { createHash } from "node:crypto";
import type { Context } from "koa";

/** A JSON body serialised once with its ETag, so a cached rendering is not serialised and hashed again per request. */
export type RenderedJson = { json: string; etag: string };

export function renderJson(body: unknown): RenderedJson {
  const json = JSON.stringify(body);
  return { json, etag: `W/"${createHash("sha1").update(json).digest("base64url")}"` };
}

/** Sets ctx.body to `body`, or answers 304 when the caller already holds this version. */
export function sendWithEtag(ctx: Context, body: unknown, maxAgeSeconds: number): void {
  sendRendered(ctx, renderJson(body), maxAgeSeconds);
}

export function sendRendered(ctx: Context, { json, etag }: RenderedJson, maxAgeSeconds: number): void {
  ctx.set("ETag", etag);
  ctx.set("Cache-Control", `public, max-age=${maxAgeSeconds}, stale-while-revalidate=30`);
  ctx.type = "application/json";
  const held = ctx.get("If-None-Match");
  if (held && held.split(",").some((tag) => tag.trim() === etag)) {
    ctx.status = 304;
    return;
  }
  ctx.body = json;
}
