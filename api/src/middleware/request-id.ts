// Gives every request an id (the caller's X-Request-Id when it is sane), echoed in the response and in every log line.
import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";
import type { AppState } from "../deps";

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestId(): Middleware<AppState> {
  return async (ctx, next) => {
    const given = ctx.get("X-Request-Id");
    const id = SAFE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set("X-Request-Id", id);
    await next();
  };
}
