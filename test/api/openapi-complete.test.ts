// The served OpenAPI document is complete enough for any client generator: it walks every schema of the document
// (components, parameters, request bodies, responses, following each $ref) and lists every gap by JSON pointer.
//
// The rules:
// - every array schema says what its items are (`items`, or `prefixItems`);
// - every object schema says what its members are (`properties`, `patternProperties`, or a stated
//   `additionalProperties`), or is composed of schemas that do (`allOf`, `anyOf`, `oneOf`);
// - every `$ref` points at something in the document;
// - every parameter has a schema;
// - every body (request or response, any status) names a concrete media type (not a range such as `*/*`) and gives
//   its schema: a JSON body (`application/json`, `…+json`) the schema of its JSON, any other (PDF, HTML, CSV, a JWT, a
//   font) a string schema, `format: binary` for bytes;
// - every 2xx response but 204 and 205 has a body, so a 2xx JSON body always has a schema; 204, 205 and 304 have
//   none. A redirect (3xx) needs only its description, and its body when it sends one.
import { expect } from "chai";
import { freePort } from "../../scripts/lib/processes";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

type Node = Record<string, unknown>;

/** RFC 6901: `~` and `/` escaped in one reference token. */
const token = (key: string | number) => String(key).replace(/~/g, "~0").replace(/\//g, "~1");

/** The value a local `#/…` pointer names, or undefined. */
function resolve(document: Node, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Node)[key] : undefined), document);
}

const isObject = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value);
const isJson = (mediaType: string) => /^application\/(?:.+\+)?json(?:;|$)/.test(mediaType);

/** Every gap of the document, each as "<JSON pointer>: <what is missing>". */
function gapsOf(document: Node): string[] {
  const gaps: string[] = [];
  const walked = new Set<unknown>();

  const schema = (node: unknown, pointer: string): void => {
    if (typeof node === "boolean") return;
    if (!isObject(node)) return void gaps.push(`${pointer}: not a schema`);
    if (typeof node.$ref === "string") {
      const target = resolve(document, node.$ref);
      if (target === undefined) gaps.push(`${pointer}: $ref ${node.$ref} names nothing`);
      // The target is checked once, where it is defined, so a recursive schema ends.
      else if (!walked.has(target)) {
        walked.add(target);
        schema(target, node.$ref.slice(1));
      }
    }
    const types = ([] as unknown[]).concat(node.type ?? []);
    const composed = ["allOf", "anyOf", "oneOf"].some((key) => Array.isArray(node[key]));
    if (types.includes("array") && !("items" in node) && !("prefixItems" in node)) gaps.push(`${pointer}: array without items`);
    if (types.includes("object") && !composed && !["properties", "patternProperties", "additionalProperties"].some((key) => key in node)) {
      gaps.push(`${pointer}: object without properties or additionalProperties`);
    }
    for (const key of ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"]) {
      if (key in node && typeof node[key] !== "boolean") schema(node[key], `${pointer}/${key}`);
    }
    for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
      if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((member, index) => schema(member, `${pointer}/${key}/${index}`));
    }
    for (const key of ["properties", "patternProperties", "$defs", "dependentSchemas"]) {
      if (isObject(node[key])) for (const [name, member] of Object.entries(node[key])) schema(member, `${pointer}/${key}/${token(name)}`);
    }
  };

  const content = (media: unknown, pointer: string): void => {
    if (!isObject(media)) return;
    for (const [mediaType, entry] of Object.entries(media)) {
      const at = `${pointer}/${token(mediaType)}`;
      if (mediaType.includes("*")) gaps.push(`${at}: a media type range, not a media type`);
      if (!isObject(entry) || entry.schema === undefined) gaps.push(`${at}: ${isJson(mediaType) ? "JSON body" : "body"} without a schema`);
      else schema(entry.schema, `${at}/schema`);
    }
  };

  const components = isObject(document.components) ? document.components : {};
  for (const [name, member] of Object.entries(isObject(components.schemas) ? components.schemas : {})) {
    if (walked.has(member)) continue;
    walked.add(member);
    schema(member, `/components/schemas/${token(name)}`);
  }
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    for (const [method, operation] of Object.entries(isObject(item) ? item : {})) {
      if (!isObject(operation)) continue;
      const at = `/paths/${token(path)}/${method}`;
      ((operation.parameters as unknown[] | undefined) ?? []).forEach((parameter, index) => {
        const where = `${at}/parameters/${index}`;
        if (!isObject(parameter) || parameter.schema === undefined) gaps.push(`${where}: parameter without a schema`);
        else schema(parameter.schema, `${where}/schema`);
      });
      if (isObject(operation.requestBody)) content(operation.requestBody.content, `${at}/requestBody/content`);
      for (const [status, response] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
        const where = `${at}/responses/${status}`;
        if (!isObject(response)) continue;
        const bodiless = ["204", "205", "304"].includes(status);
        if (bodiless && response.content !== undefined) gaps.push(`${where}: a ${status} has no body, but content is declared`);
        if (!bodiless && status.startsWith("2") && !isObject(response.content)) gaps.push(`${where}: a 2xx response without a body`);
        content(response.content, `${where}/content`);
      }
    }
  }
  return gaps;
}

describe("OpenAPI document: complete enough for any client generator", () => {
  let api: InProcessApi;
  let document: Node;

  before(async function () {
    this.timeout(120_000);
    // The document does not depend on the chain: nothing listens on this RPC port.
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("openapi_complete"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    document = (await json(await fetch(`${api.url}/api/openapi.json`))) as Node;
  });
  after(() => api?.close());

  it("has no gap: arrays with items, objects with members, every body with a media type and a schema", () => {
    const gaps = gapsOf(document);
    expect(gaps.length, `${gaps.length} gaps:\n  ${gaps.join("\n  ")}`).to.equal(0);
  });

  it("finds each kind of gap it looks for, by JSON pointer", () => {
    const broken: Node = {
      components: { schemas: { Loop: { type: "object", properties: { next: { $ref: "#/components/schemas/Loop" }, tags: { type: "array" } } } } },
      paths: {
        "/a/{id}": {
          get: {
            parameters: [{ name: "id", in: "path" }],
            responses: {
              "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { map: { type: "object" }, ref: { $ref: "#/components/schemas/Gone" } } } } } },
              "201": { description: "no body" },
              "204": { description: "none", content: { "text/plain": { schema: { type: "string" } } } },
              "206": { description: "some", content: { "*/*": { schema: { type: "string" } }, "application/pdf": {} } },
            },
          },
        },
      },
    };
    expect(gapsOf(broken)).to.deep.equal([
      "/components/schemas/Loop/properties/tags: array without items",
      "/paths/~1a~1{id}/get/parameters/0: parameter without a schema",
      "/paths/~1a~1{id}/get/responses/200/content/application~1json/schema/properties/map: object without properties or additionalProperties",
      "/paths/~1a~1{id}/get/responses/200/content/application~1json/schema/properties/ref: $ref #/components/schemas/Gone names nothing",
      "/paths/~1a~1{id}/get/responses/201: a 2xx response without a body",
      "/paths/~1a~1{id}/get/responses/204: a 204 has no body, but content is declared",
      "/paths/~1a~1{id}/get/responses/206/content/*~1*: a media type range, not a media type",
      "/paths/~1a~1{id}/get/responses/206/content/application~1pdf: body without a schema",
    ]);
  });
});
