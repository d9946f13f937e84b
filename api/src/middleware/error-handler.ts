// One place turns every failure into the error envelope; 5xx replies stay generic and the stack goes to the log.
import type { Middleware } from "koa";
import type { AppState } from "../deps";
import { isDatabaseUnavailable } from "../db/unavailable";
import { AppError, ServiceUnavailableError } from "../errors";
import type { Logger } from "../logger";

/** Koa and its helpers throw http-errors with `status` and `expose`; those map onto our codes. */
const HTTP_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

export function errorHandler(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new AppError(404, "NOT_FOUND", "No such route.");
    } catch (error) {
      const requestId = ctx.state.requestId;
      let status = 500;
      let code = "SERVER_ERROR";
      let message = "Internal error. Quote the request id when you contact support.";
      let details: AppError["details"];
      // A statement past DATABASE_STATEMENT_TIMEOUT_MS, a full or restarting server: 503, and the client may retry.
      const failure = isDatabaseUnavailable(error) ? new ServiceUnavailableError("The database is busy or unreachable; retry shortly.") : error;
      if (failure instanceof AppError) {
        ({ status, code, message, details } = failure);
        for (const [name, value] of Object.entries(failure.headers ?? {})) ctx.set(name, value);
      } else if (isExposedHttpError(error)) {
        status = error.status;
        code = HTTP_CODES[status] ?? "BAD_REQUEST";
        message = error.message;
      } else if (isUnknownMethod(error)) {
        // @koa/router throws 501 for a method no route implements (TRACE, PROPFIND…): the client's mistake, not ours.
        status = 405;
        code = "METHOD_NOT_ALLOWED";
        message = `Method ${ctx.method} is not allowed.`;
      }
      if (status >= 500) {
        logger.error({ err: error, requestId, method: ctx.method, path: ctx.path }, "request failed");
      }
      ctx.status = status;
      ctx.body = { success: false, error: { code, message, request_id: requestId, ...(details ? { details } : {}) } };
    }
  };
}

function isExposedHttpError(error: unknown): error is { status: number; message: string } {
  const candidate = error as { status?: unknown; expose?: unknown };
  return typeof candidate?.status === "number" && candidate.status < 500 && candidate.expose === true;
}

/** The http-errors NotImplemented that allowedMethods({ throw: true }) throws; nothing else of ours answers 501. */
function isUnknownMethod(error: unknown): boolean {
  const candidate = error as { status?: unknown; name?: unknown };
  return candidate?.status === 501 && candidate.name === "NotImplementedError";
}
