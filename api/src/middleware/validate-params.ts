// Validates path parameters and the query string against JSON Schemas; a bad one is a 422 naming it.
import type { Middleware } from "koa";
import type { AppState } from "../deps";
import { ValidationError } from "../errors";
import { compile, toDetails, type JsonSchema } from "../validation";

export function validateParams(schema: JsonSchema): Middleware<AppState> {
  const check = compile(schema);
  return async (ctx, next) => {
    const params = { ...(ctx as unknown as { params: Record<string, string> }).params };
    if (!check(params)) throw new ValidationError(toDetails(check.errors, "path"));
    await next();
  };
}

/** Checks a copy of ctx.query, so the handler reads the query as it was sent (a repeated name is refused: not a string). */
export function validateQuery(schema: JsonSchema): Middleware<AppState> {
  const check = compile(schema);
  return async (ctx, next) => {
    const query = { ...ctx.query };
    if (!check(query)) throw new ValidationError(toDetails(check.errors, "query"));
    await next();
  };
}
