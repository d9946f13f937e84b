// JSON Schema validation with ajv, compiled once at start. The middleware that applies it to requests and puts the
// validated input on ctx.state.input is middleware/validate-body.ts (and validate-params.ts for paths).
import Ajv, { type ErrorObject, type JSONSchemaType, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { ErrorDetail } from "./errors";

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
