// The OpenAPI document against the routes the app mounts: every route is documented, nothing documented is missing,
// and every example in the document is valid against its own schema.
import { expect } from "chai";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { buildRouters } from "../../api/src/app";
import { createProvider } from "../../api/src/chain/provider";
import type { AppDeps } from "../../api/src/deps";
import { createLogger } from "../../api/src/logger";
import { OpenApiRegistry } from "../../api/src/openapi/registry";
import { freePort } from "../../scripts/lib/processes";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

type Media = { schema?: Record<string, unknown>; example?: unknown };
type DocOperation = {
  operationId?: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};
type OpenApiDocument = { paths: Record<string, Record<string, DocOperation>>; components: Record<string, unknown> };

/** `/api/dpp/:uid` as the document writes it: `/api/dpp/{uid}`. */
const documented = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}");

describe("OpenAPI document and mounted routes", () => {
  let api: InProcessApi;
  let doc: OpenApiDocument;
  let mounted: string[];

  before(async () => {
    // Nothing needs the chain: the routes and the document are what is compared.
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("openapi_routes"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    doc = (await json(await fetch(`${api.url}/api/openapi.json`))) as OpenApiDocument;
    const provider = createProvider(api.config.rpcUrl, api.config.chainId);
    const deps: AppDeps = { ...api.deps, provider, logger: createLogger("silent") };
    // The same routers the app mounts, built by the same function; their stacks are what Koa dispatches on.
    const routers = buildRouters(deps, new OpenApiRegistry());
    provider.destroy();
    mounted = routers.flatMap((router) =>
      router.stack.flatMap((layer) =>
        // GET routes answer HEAD too; HEAD is not an operation of its own.
        layer.methods.filter((method) => method !== "HEAD").map((method) => `${method} ${documented(String(layer.path))}`),
      ),
    );
  });
  after(() => api?.close());

  it("documents every mounted route, and mounts every documented one", () => {
    const inDocument = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(mounted.length).to.be.greaterThan(30);
    expect(mounted.filter((route) => !inDocument.includes(route)), "mounted but not documented").to.deep.equal([]);
    expect(inDocument.filter((route) => !mounted.includes(route)), "documented but not mounted").to.deep.equal([]);
    expect(new Set(mounted).size, "a route mounted twice").to.equal(mounted.length);
  });

  it("names every operation once, and gives every response with a body a schema", () => {
    const operations = Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ route: `${method} ${path}`, op })));
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.filter((id) => typeof id !== "string" || !/^[a-z][A-Za-z0-9]*$/.test(id)), "operationIds not in camelCase").to.deep.equal([]);
    expect(new Set(ids).size).to.equal(ids.length);
    const withoutSchema = operations.flatMap(({ route, op }) =>
      Object.entries(op.responses).flatMap(([status, response]) =>
        Object.entries(response.content ?? {}).filter(([, media]) => media.schema === undefined).map(([type]) => `${route} ${status} ${type}`),
      ),
    );
    expect(withoutSchema).to.deep.equal([]);
    // Bodiless answers only: no content is the schema of a 204 or a 304.
    const bodiless = operations.flatMap(({ route, op }) =>
      Object.entries(op.responses).filter(([, response]) => response.content === undefined).map(([status]) => `${route} ${status}`),
    );
    expect(bodiless.filter((entry) => !/ (?:204|304)$/.test(entry)), "responses with neither content nor a bodiless status").to.deep.equal([]);
  });

  it("has only examples that are valid against their own schemas", () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addFormat("binary", true);
    // The document's components, so `#/components/schemas/Error` resolves as it does in the document.
    ajv.addSchema({ $id: "openapi-components", components: doc.components });
    const withComponents = (schema: unknown): unknown =>
      JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/components/', '"$ref":"openapi-components#/components/'));

    const examples = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).flatMap(([method, op]) => [
        ...Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => ({ where: `${method} ${path} request ${type}`, media })),
        ...Object.entries(op.responses).flatMap(([status, response]) =>
          Object.entries(response.content ?? {}).map(([type, media]) => ({ where: `${method} ${path} ${status} ${type}`, media })),
        ),
      ]),
    );
    const checked = examples.filter(({ media }) => media.schema !== undefined && media.example !== undefined);
    expect(checked.length).to.be.greaterThan(30);
    const invalid = checked.flatMap(({ where, media }) => {
      const validate = ajv.compile(withComponents(media.schema) as object);
      return validate(media.example) ? [] : [`${where}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).to.deep.equal([]);
  });
});
