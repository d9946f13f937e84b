// Validators of the vendored schemas: UNTP DPP 0.6.0 (JSON Schema 2020-12) and Catena-X generic DPP 7.0.0 (draft-04),
// compiled once on first use, for the tests that check every credential and export against them (production never validates its own output).
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { vendoredJson } from "../../api/src/interop/contexts";

export type SchemaCheck = { valid: boolean; errors: ErrorObject[] };

let untp: ValidateFunction | undefined;
let catenaX: ValidateFunction | undefined;

/** Checks a credential (unsigned, as JSON) against the vendored UNTP DPP 0.6.0 schema. */
export function checkUntpCredential(credential: unknown): SchemaCheck {
  if (!untp) {
    // strict: false: the schema carries annotations ajv does not know (`example`, `x-external-enumeration`).
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    untp = ajv.compile(vendoredJson("untp-dpp-0.6.0-schema.json") as object);
  }
  return check(untp, credential);
}

/** Checks a document against the vendored Catena-X generic DPP 7.0.0 schema. */
export function checkCatenaXPassport(document: unknown): SchemaCheck {
  if (!catenaX) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    catenaX = ajv.compile(fromDraft04(vendoredJson("catenax-dpp-7.0.0-schema.json")) as object);
  }
  return check(catenaX, document);
}

function check(validate: ValidateFunction, value: unknown): SchemaCheck {
  const valid = validate(value);
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

/**
 * A draft-04 schema in the draft-07 form ajv 8 reads (ajv 8 has no draft-04 mode without the ajv-draft-04 package):
 * the only draft-04 construct the Catena-X schema uses is the boolean `exclusiveMinimum`/`exclusiveMaximum` beside
 * `minimum`/`maximum`, which becomes the numeric form of draft-06 (`true`: the bound is exclusive; `false`: dropped).
 * `$schema` is dropped too (ajv would look the draft-04 meta-schema up). Anything else of draft-04 throws.
 */
export function fromDraft04(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(fromDraft04);
  if (schema === null || typeof schema !== "object") return schema;
  const source = schema as Record<string, unknown>;
  if (typeof source.id === "string") throw new Error("fromDraft04: draft-04 `id` is not translated");
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === "$schema") continue;
    if (key === "exclusiveMinimum" || key === "exclusiveMaximum") {
      if (typeof value !== "boolean") throw new Error(`fromDraft04: ${key} is not the draft-04 boolean`);
      const bound = key === "exclusiveMinimum" ? "minimum" : "maximum";
      if (value) out[key] = source[bound];
      continue;
    }
    out[key] = fromDraft04(value);
  }
  // The bound moved to exclusiveMinimum/Maximum must not also stay inclusive.
  if (source.exclusiveMinimum === true) delete out.minimum;
  if (source.exclusiveMaximum === true) delete out.maximum;
  return out;
}
