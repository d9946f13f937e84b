// JSON Schema validation with ajv, compiled once at start; validated input goes on ctx.state.input.
import Ajv, { type ErrorObject, type JSONSchemaType, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Middleware } from "koa";
import type { AppState } from "./app";
import { ValidationError, type ErrorDetail } from "./errors";
import { readJsonBody } from "./middleware/json-body";

export type JsonSchema = Record<string, unknown>;

const ajv = new Ajv({ allErrors: true, strict: true, coerceTypes: false, useDefaults: true });
addFormats(ajv);

export function compile<T>(schema: JsonSchema | JSONSchemaType<T>): ValidateFunction<T> {
  return ajv.compile<T>(schema as JSONSchemaType<T>);
}

/** Turns ajv's errors into `{field, problem}` pairs that name the field the caller sent. */
export function toDetails(errors: ErrorObject[] | null | undefined, root = "body"): ErrorDetail[] {
  return (errors ?? []).map((error) => {
    const path = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
    if (error.keyword === "required") {
      return { field: joinPath(path, String(error.params.missingProperty)), problem: "is required" };
    }
    if (error.keyword === "additionalProperties") {
      return { field: joinPath(path, String(error.params.additionalProperty)), problem: "is not an allowed field" };
    }
    return { field: path || root, problem: error.message ?? "is invalid" };
  });
}

function joinPath(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}

/** Reads the JSON body (after whatever authentication runs before it), validates it against `schema`, and puts it on ctx.state.input. */
export function validateBody<T>(schema: JsonSchema): Middleware<AppState> {
  const check = compile<T>(schema);
  return async (ctx, next) => {
    await readJsonBody(ctx);
    const body = ctx.state.body;
    if (body === undefined) throw new ValidationError([{ field: "body", problem: "is required" }]);
    if (!check(body)) throw new ValidationError(toDetails(check.errors));
    ctx.state.input = body;
    await next();
  };
}
