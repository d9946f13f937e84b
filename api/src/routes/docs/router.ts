// The service's front door: the landing page GET /, and the API reference GET /docs with its script and Swagger UI's
// files, all from our own origin.
import { readFileSync } from "node:fs";
import path from "node:path";
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { NotFoundError } from "../../errors";
import { htmlErrors, sendPage } from "../../middleware/page-response";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { apiReferencePage, OPENAPI_DOCUMENT_PATH } from "../../pages/api-reference";
import { landingPage } from "../../pages/landing";
import { showcasePassport } from "../../passports/showcase";
import { sendAsset, staticAsset, SWAGGER_UI_FILE_NAMES, SwaggerUiAssets, type StaticAsset } from "./assets";

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
  const router = new Router<AppState>();
  const swaggerUi = new SwaggerUiAssets();
  let init: Promise<StaticAsset> | undefined;

  router.get(
    "/",
    htmlErrors(deps.logger, { notFound: "There is no such page.", invalid: "This address is not valid." }),
    async (ctx) => {
      const demo = await showcasePassport(deps);
      sendPage(ctx, landingPage({ demo }), `public, max-age=${LANDING_MAX_AGE}`);
    },
  );

  router.get("/docs", (ctx) => {
    const page = apiReferencePage({
      script: swaggerUi.url("swagger-ui-bundle.js"),
      stylesheet: swaggerUi.url("swagger-ui.css"),
      icon: swaggerUi.url("favicon-32x32.png"),
      init: INIT_PATH,
    });
    sendPage(ctx, page, SHORT);
  });

  router.get(INIT_PATH, async (ctx) => {
    init ??= staticAsset("application/javascript; charset=utf-8", INIT_SCRIPT);
    sendAsset(ctx, await init, SHORT);
  });

  router.get("/docs/assets/:version/:file", async (ctx) => {
    const asset = swaggerUi.get(ctx.params.version!, ctx.params.file!);
    if (!asset) throw new NotFoundError("file");
    sendAsset(ctx, await asset, IMMUTABLE);
  });

  const htmlPage = (description: string) => ({ description, contentType: "text/html", example: "<!doctype html>…" });
  openapi.add({
    method: "get",
    path: "/",
    tag: "Pages",
    summary: "Landing page: what the service is, with links to the API reference, a demo passport, the statistics and readiness",
    description: `The demo passport is the newest minted passport of an active brand, if any. Cached ${LANDING_MAX_AGE} s.`,
    responses: { "200": htmlPage("HTML page") },
  });
  openapi.add({
    method: "get",
    path: "/docs",
    tag: "Pages",
    summary: "API reference: this document rendered by Swagger UI, every file served from this origin",
    responses: { "200": htmlPage("HTML page") },
  });
  openapi.add({
    method: "get",
    path: INIT_PATH,
    tag: "Pages",
    summary: `The API reference's script: starts Swagger UI on ${OPENAPI_DOCUMENT_PATH}`,
    responses: {
      "200": { description: "the script", contentType: "application/javascript", example: "window.ui = SwaggerUIBundle({ … });" },
      "304": { description: "not modified since the ETag the caller holds" },
    },
  });
  openapi.add({
    method: "get",
    path: "/docs/assets/:version/:file",
    tag: "Pages",
    summary: "Swagger UI's files for the API reference, under the version of swagger-ui-dist (cached a year, immutable)",
    parameters: [
      { name: "version", in: "path", required: true, schema: { type: "string", const: swaggerUi.version }, description: "swagger-ui-dist version" },
      {
        name: "file",
        in: "path",
        required: true,
        schema: { type: "string", enum: SWAGGER_UI_FILE_NAMES },
      },
    ],
    responses: {
      "200": { description: "the file (gzip when accepted)" },
      "304": { description: "not modified since the ETag the caller holds" },
      "404": errorResponse("not a file of the reference"),
    },
  });
  return router;
}
