// The vendored Catena-X generic DPP 7.0.0 schema (draft-04, SAMM-generated) as OpenAPI 3.1 component schemas, so the
// document declares GET /api/dpp/{uid}/catena-x by the very schema the export is tested against.
import type { JsonSchema } from "../validation";
import { vendoredJson } from "./contexts";

/** What the document's component names of the model start with (the model's own names, `Text`, would clash). */
const PREFIX = "CatenaX";
/** The component of the whole document. */
export const CATENA_X_PASSPORT_COMPONENT = `${PREFIX}DigitalProductPassport`;

/**
 * The model's schemas, each under `CatenaX<name>` with its references renamed to match, and the document itself under
 * CATENA_X_PASSPORT_COMPONENT; in JSON Schema 2020-12 (fromDraft04), without the SAMM URN annotations.
 */
export function catenaXComponents(): Record<string, JsonSchema> {
  const { components, $schema: _draft, "x-samm-aspect-model-urn": _urn, ...root } = vendoredJson("catenax-dpp-7.0.0-schema.json") as {
    components: { schemas: Record<string, unknown> };
    $schema: string;
    "x-samm-aspect-model-urn": string;
  } & Record<string, unknown>;
  const schemas: Record<string, JsonSchema> = { [CATENA_X_PASSPORT_COMPONENT]: forOpenApi(root) };
  for (const [name, schema] of Object.entries(components.schemas)) schemas[`${PREFIX}${name}`] = forOpenApi(schema);
  return schemas;
}

function forOpenApi(schema: unknown): JsonSchema {
  return renamed(fromDraft04(schema)) as JsonSchema;
}

/** `#/components/schemas/X` → `#/components/schemas/CatenaXX`; the URN annotations left out. */
function renamed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(renamed);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "x-samm-aspect-model-urn") continue;
    out[key] = key === "$ref" && typeof value === "string" ? value.replace("#/components/schemas/", `#/components/schemas/${PREFIX}`) : renamed(value);
  }
  return out;
}

/**
 * A draft-04 schema in the form JSON Schema 2020-12 (and ajv 8) reads (ajv 8 has no draft-04 mode without the
 * ajv-draft-04 package): the only draft-04 construct the Catena-X schema uses is the boolean
 * `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum`, which becomes the numeric form of draft-06
 * (`true`: the bound is exclusive; `false`: dropped). `$schema` is dropped too (ajv would look the draft-04
 * meta-schema up). Anything else of draft-04 throws.
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
