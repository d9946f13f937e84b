// Sending server-rendered pages from Koa: headers, caching, and HTML (not JSON) answers to errors.
import type { Context, Middleware } from "koa";
import type { AppState } from "../deps";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import { errorPage, type RenderedPage } from "../pages/layout";

export function sendPage(ctx: Context, rendered: RenderedPage, cacheControl: string): void {
  ctx.status = rendered.status;
  for (const [name, value] of Object.entries(rendered.headers)) ctx.set(name, value);
  ctx.set("Cache-Control", cacheControl);
  ctx.type = "text/html; charset=utf-8";
  ctx.body = rendered.html;
}

/** Words of the error pages for one kind of page ("passport", "brand"). */
export type ErrorWording = { notFound: string; invalid: string };

/**
 * Answers errors of a page route with a friendly HTML page of the same status (a shopper's browser shows it; a
 * JSON envelope would look broken). Unexpected errors are logged with the request id, as errorHandler does.
 */
export function htmlErrors(logger: Logger, wording: ErrorWording): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      let rendered: RenderedPage;
      if (error instanceof AppError && error.status === 404) {
        rendered = errorPage(404, "Not found", wording.notFound);
      } else if (error instanceof AppError && error.status === 422) {
        rendered = errorPage(422, "This address is not valid", wording.invalid);
      } else if (error instanceof AppError && error.status < 500) {
        for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
        rendered = errorPage(error.status, "This page cannot be shown", error.message);
      } else {
        logger.error({ err: error, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, "page failed");
        rendered = errorPage(500, "Something went wrong", `Please try again in a moment. Reference: ${ctx.state.requestId}.`);
      }
      sendPage(ctx, rendered, "no-store");
    }
  };
}
