// Serves the dashboard single-page app under /dashboard: the same index.html for each of its screens (the app routes
// in the browser) and its hashed, immutable files, all from this origin, under a strict Content-Security-Policy.
import type Router from "@koa/router";
import type { Context } from "koa";
import type { AppDeps, AppState } from "../../../deps";
import { NotFoundError, ServiceUnavailableError } from "../../../errors";
import { htmlErrors } from "../../../middleware/page-response";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { defineRoute, HTML, mountRoutes, NOT_MODIFIED } from "../../define-route";
import { sendAsset } from "../../docs/assets";
import { DASHBOARD_ASSET_MEDIA_TYPES, DashboardBuild } from "./assets";

/** The first segment of every screen's path; anything else under /dashboard is a 404. */
export const DASHBOARD_SCREENS = [
  "sign-in",
  "forgot-password",
  "reset-password",
  "accept-invite",
  "products",
  "imports",
  "scans",
  "taps",
  "branding",
  "webhooks",
  "api-keys",
  "team",
  "audit",
  "access",
  "usage",
  "account",
  "orders",
  "gateway-keys",
  "cashier",
  "domain",
] as const;

/**
 * Scripts only from this origin (no inline script, no eval); styles from this origin plus inline style attributes
 * (the brand editor's live preview renders the scan page, which carries its brand colours inline); images from here
 * and from data:/blob: (a logo being chosen); frames only for that same-origin preview; no plugin, no framing of the
 * dashboard by another site.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "frame-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SCREEN_SET: ReadonlySet<string> = new Set(DASHBOARD_SCREENS);

const IMMUTABLE = "public, max-age=31536000, immutable";

export function dashboardAppRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const build = new DashboardBuild(deps.config.dashboard.distDir);
  const pageErrors = htmlErrors(deps.logger, { notFound: "There is no such dashboard page.", invalid: "This address is not valid." });

  const sendIndex = async (ctx: Context) => {
    // Any path under /dashboard that is not a screen is a plain 404 page, whatever it looks like.
    const { screen, id } = ctx.params as { screen?: string; id?: string };
    if (screen !== undefined && !SCREEN_SET.has(screen)) throw new NotFoundError("page");
    if (id !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new NotFoundError("page");
    if (!build.built) throw new ServiceUnavailableError("The dashboard is not built: run `npm run build`.", 60);
    ctx.set("Content-Security-Policy", CSP);
    ctx.set("X-Frame-Options", "DENY");
    ctx.set("Referrer-Policy", "same-origin");
    // The page names the current build's hashed files, so browsers ask again each time (a 304 when unchanged).
    sendAsset(ctx, await build.indexHtml(), "no-cache");
  };
  const screens = { type: "string", enum: [...DASHBOARD_SCREENS], description: "a screen of the app" } as const;

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/dashboard",
      operationId: "getDashboard",
      tag: "Pages",
      auth: "public",
      summary: "The brand dashboard (a single-page app; it signs in against /api/dashboard/session)",
      before: [pageErrors],
      responses: { "200": HTML("the app's page"), "304": NOT_MODIFIED, "503": errorResponse("the dashboard was not built") },
      handler: sendIndex,
    }),
    defineRoute({
      method: "get",
      path: "/dashboard/assets/:file",
      operationId: "getDashboardAsset",
      tag: "Pages",
      auth: "public",
      summary: "The dashboard's built files (named by their content hash; cached a year, immutable)",
      params: { type: "object", required: ["file"], properties: { file: { type: "string", pattern: "^[A-Za-z0-9_.-]{1,100}$" } } },
      handlerChecksParams: true,
      responses: {
        "200": { description: "JavaScript, CSS, an image or a font (gzip when accepted)", contentType: DASHBOARD_ASSET_MEDIA_TYPES, schema: { type: "string", format: "binary" } },
        "304": NOT_MODIFIED,
        "404": errorResponse("not a file of this build"),
      },
      handler: async (ctx) => {
        const asset = build.asset(ctx.params.file);
        if (!asset) throw new NotFoundError("file");
        sendAsset(ctx, await asset, IMMUTABLE);
      },
    }),
    defineRoute({
      method: "get",
      path: "/dashboard/:screen",
      operationId: "getDashboardScreen",
      tag: "Pages",
      auth: "public",
      summary: "A screen of the dashboard (the same page as /dashboard; the app shows the screen)",
      before: [pageErrors],
      params: { type: "object", required: ["screen"], properties: { screen: screens } },
      handlerChecksParams: true,
      responses: { "200": HTML("the app's page"), "304": NOT_MODIFIED, "404": HTML("no such screen") },
      handler: sendIndex,
    }),
    defineRoute({
      method: "get",
      path: "/dashboard/:screen/:id",
      operationId: "getDashboardItemScreen",
      tag: "Pages",
      auth: "public",
      summary: "A screen of one item (a product, an import, a webhook) in the dashboard",
      before: [pageErrors],
      params: {
        type: "object",
        required: ["screen", "id"],
        properties: { screen: screens, id: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$", description: "the item (a product UID, an import id…)" } },
      },
      handlerChecksParams: true,
      responses: { "200": HTML("the app's page"), "304": NOT_MODIFIED, "404": HTML("no such screen") },
      handler: sendIndex,
    }),
  ]);
}
