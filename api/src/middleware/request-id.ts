// Gives every request an id (the caller's X-Request-Id when it is sane), echoed in the response and in every log line.
import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";
import type { AppState } from "../deps";

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestId(): Middleware<AppState> {
  return (ctx, next) => {
    const given = ctx.req.headers["x-request-id"];
    const id = typeof given === "string" && SAFE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.res.setHeader("X-Request-Id", id);
    return next();
  };
}
