// One structured log line per request, with its id, status and duration.
import type { Middleware } from "koa";
import type { AppState } from "../deps";
import type { Logger } from "../logger";

export function accessLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 },
        "request",
      );
    }
  };
}
