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

/** What a failure is answered with: its status, stable code and message (generic for a 5xx), details and headers. */
export type ErrorReply = { status: number; code: string; message: string; details?: AppError["details"]; headers?: Record<string, string> };

export function errorReplyOf(error: unknown, method: string): ErrorReply {
  // A statement past DATABASE_STATEMENT_TIMEOUT_MS, a full or restarting server: 503, and the client may retry.
  const failure = isDatabaseUnavailable(error) ? new ServiceUnavailableError("The database is busy or unreachable; retry shortly.") : error;
  if (failure instanceof AppError) return { status: failure.status, code: failure.code, message: failure.message, details: failure.details, headers: failure.headers };
  if (isExposedHttpError(error)) return { status: error.status, code: HTTP_CODES[error.status] ?? "BAD_REQUEST", message: error.message };
  // @koa/router throws 501 for a method no route implements (TRACE, PROPFIND…): the client's mistake, not ours.
  if (isUnknownMethod(error)) return { status: 405, code: "METHOD_NOT_ALLOWED", message: `Method ${method} is not allowed.` };
  return { status: 500, code: "SERVER_ERROR", message: "Internal error. Quote the request id when you contact support." };
}

/**
 * Catches what `next` throws (and a 404 no route answered), logs a 5xx with its stack, sets the reply's status and
 * headers, and hands the reply to `render` for the body: one path for our envelope and for EN 18222's Result.
 */
export function catchErrors(logger: Logger, render: (reply: ErrorReply, requestId: string) => unknown): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new AppError(404, "NOT_FOUND", "No such route.");
    } catch (error) {
      const reply = errorReplyOf(error, ctx.method);
      if (reply.status >= 500) logger.error({ err: error, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, "request failed");
      for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
      ctx.status = reply.status;
      ctx.body = render(reply, ctx.state.requestId);
    }
  };
}

export function errorHandler(logger: Logger): Middleware<AppState> {
  return catchErrors(logger, ({ code, message, details }, requestId) => ({
    success: false,
    error: { code, message, request_id: requestId, ...(details ? { details } : {}) },
  }));
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
