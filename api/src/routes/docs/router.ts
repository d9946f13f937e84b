// The service's front door: the OpenAPI document GET /api/openapi.json, the landing page GET /, and the API reference
// GET /docs with its script and Swagger UI's files, all from our own origin.
import { readFileSync } from "node:fs";
import path from "node:path";
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { NotFoundError } from "../../errors";
import { htmlErrors, sendPage } from "../../middleware/page-response";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { apiReferencePage, OPENAPI_DOCUMENT_PATH } from "../../pages/api-reference";
import { landingPage } from "../../pages/landing";
import { showcasePassport } from "../../passports/showcase";
import { defineRoute, HTML, mountRoutes, NOT_MODIFIED } from "../define-route";
import { sendAsset, staticAsset, SWAGGER_UI_FILE_NAMES, SWAGGER_UI_MEDIA_TYPES, SwaggerUiAssets, type StaticAsset } from "./assets";

/** The outline of an OpenAPI 3.1 document; its own schema (spec.openapis.org) says the rest. */
const openApiDocumentSchema = {
  type: "object",
  required: ["openapi", "info", "paths"],
  properties: {
    openapi: { type: "string", pattern: "^3\\.1\\.[0-9]+$" },
    info: { type: "object", additionalProperties: true, description: "an OpenAPI 3.1 Info Object" },
    paths: { type: "object", additionalProperties: true, description: "an OpenAPI 3.1 Paths Object" },
    components: { type: "object", additionalProperties: true, description: "an OpenAPI 3.1 Components Object" },
  },
};

/** Versioned URLs never change content, so browsers keep them a year without asking again. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Our own script and the page keep their URLs across deployments: short, and revalidated with the ETag. */
const SHORT = "public, max-age=300";
/** The landing page names the newest demo passport; a minute late is fine. */
const LANDING_MAX_AGE = 60;

const INIT_PATH = "/docs/init.js";
/** Read once: the script is static; it is compressed on its first request. */
const INIT_SCRIPT = readFileSync(path.join(__dirname, "..", "..", "assets", "api-reference.client.js"));

export function docsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const swaggerUi = new SwaggerUiAssets();
  let init: Promise<StaticAsset> | undefined;

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: OPENAPI_DOCUMENT_PATH,
      operationId: "getOpenApiDocument",
      tag: "Operations",
      auth: "public",
      summary: "This OpenAPI 3.1 document",
      responses: { "200": { description: "the document", schema: openApiDocumentSchema } },
      handler: (ctx) => {
        ctx.body = openapi.document(deps.config.publicBaseUrl);
      },
    }),
    defineRoute({
      method: "get",
      path: "/",
      operationId: "getLandingPage",
      tag: "Pages",
      auth: "public",
      summary: "Landing page: what the service is, with links to the API reference, a demo passport, the statistics and readiness",
      description: `The demo passport is the newest minted passport of an active brand, if any. Cached ${LANDING_MAX_AGE} s.`,
      before: [htmlErrors(deps.logger, { notFound: "There is no such page.", invalid: "This address is not valid." })],
      responses: { "200": HTML("HTML page") },
      handler: async (ctx) => {
        const demo = await showcasePassport(deps);
        sendPage(ctx, landingPage({ demo }), `public, max-age=${LANDING_MAX_AGE}`);
      },
    }),
    defineRoute({
      method: "get",
      path: "/docs",
      operationId: "getApiReferencePage",
      tag: "Pages",
      auth: "public",
      summary: "API reference: this document rendered by Swagger UI, every file served from this origin",
      responses: { "200": HTML("HTML page") },
      handler: (ctx) => {
        const page = apiReferencePage({
          script: swaggerUi.url("swagger-ui-bundle.js"),
          stylesheet: swaggerUi.url("swagger-ui.css"),
          icon: swaggerUi.url("favicon-32x32.png"),
          init: INIT_PATH,
        });
        sendPage(ctx, page, SHORT);
      },
    }),
    defineRoute({
      method: "get",
      path: INIT_PATH,
      operationId: "getApiReferenceScript",
      tag: "Pages",
      auth: "public",
      summary: `The API reference's script: starts Swagger UI on ${OPENAPI_DOCUMENT_PATH}`,
      responses: {
        "200": { description: "the script (gzip when accepted)", contentType: "application/javascript", schema: { type: "string" }, example: "window.ui = SwaggerUIBundle({ … });" },
        "304": NOT_MODIFIED,
      },
      handler: async (ctx) => {
        init ??= staticAsset("application/javascript; charset=utf-8", INIT_SCRIPT);
        sendAsset(ctx, await init, SHORT);
      },
    }),
    defineRoute({
      method: "get",
      path: "/docs/assets/:version/:file",
      operationId: "getApiReferenceAsset",
      tag: "Pages",
      auth: "public",
      summary: "Swagger UI's files for the API reference, under the version of swagger-ui-dist (cached a year, immutable)",
      params: {
        type: "object",
        required: ["version", "file"],
        properties: {
          version: { type: "string", const: swaggerUi.version, description: "swagger-ui-dist version" },
          file: { type: "string", enum: SWAGGER_UI_FILE_NAMES },
        },
      },
      // Anything outside the list is a plain 404, whatever it looks like (traversal attempts included).
      handlerChecksParams: true,
      responses: {
        "200": { description: "the file: JavaScript, CSS or PNG by its name (gzip when accepted)", contentType: SWAGGER_UI_MEDIA_TYPES, schema: { type: "string", format: "binary" } },
        "304": NOT_MODIFIED,
        "404": errorResponse("not a file of the reference"),
      },
      handler: async (ctx) => {
        const asset = swaggerUi.get(ctx.params.version, ctx.params.file);
        if (!asset) throw new NotFoundError("file");
        sendAsset(ctx, await asset, IMMUTABLE);
      },
    }),
  ]);
}
