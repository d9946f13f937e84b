// Validates path parameters against a JSON Schema; a bad parameter is a 422 naming it.
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
