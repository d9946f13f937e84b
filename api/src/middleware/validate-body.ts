// Validates a request's JSON body against a JSON Schema; validated input goes on ctx.state.input.
import type { Middleware } from "koa";
import type { AppState } from "../deps";
import { ValidationError } from "../errors";
import { compile, toDetails, type JsonSchema } from "../validation";
import { readJsonBody } from "./json-body";

/**
 * Reads the JSON body (after whatever authentication runs before it), validates it against `schema`, and puts it on
 * ctx.state.input. An optional body left out is taken as `{}` (a plain logout needs none); a required one is a 422.
 */
export function validateBody(schema: JsonSchema, { optional = false, limitBytes }: { optional?: boolean; limitBytes?: number } = {}): Middleware<AppState> {
  const check = compile(schema);
  return async (ctx, next) => {
    await readJsonBody(ctx, limitBytes);
    const body = ctx.state.body ?? (optional ? {} : undefined);
    if (body === undefined) throw new ValidationError([{ field: "body", problem: "is required" }]);
    if (!check(body)) throw new ValidationError(toDetails(check.errors));
    ctx.state.input = body;
    await next();
  };
}
