// The reader of a passport read (docs/access.md): `Authorization: Bearer <reader key, role credential or authority
// key>`, or the public when there is none; and the caching headers of an answer that depends on it.
import type { Context } from "koa";
import { readerOf, type Reader } from "../access/readers";
import type { AppDeps } from "../deps";
import { parseAuthorization } from "./brand-auth";

/** The reader of a request; a credential that is sent and fails throws (401), it is never read as public. */
export function requestReader(deps: Pick<AppDeps, "db" | "config" | "keyCache">, ctx: Pick<Context, "get">): Promise<Reader> {
  return readerOf(deps, parseAuthorization(ctx.get("authorization")));
}

/**
 * Marks an answer as depending on its reader: public answers stay cacheable and say they vary on Authorization; a
 * reader's own answer is never stored by a shared cache.
 */
export function markReaderResponse(ctx: Pick<Context, "vary" | "set">, reader: Reader): void {
  ctx.vary("Authorization");
  if (reader.class !== "public") ctx.set("Cache-Control", "private, no-store");
}
