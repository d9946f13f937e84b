// The embeddable badge (spec 4.14): the script GET /embed/badge.js, its data GET /api/badge/:uid (CORS, short
// caching) and a demo host page GET /embed/demo.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type Router from "@koa/router";
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../../deps";
import { sendWithEtag } from "../../middleware/etag";
import { htmlErrors, sendPage } from "../../middleware/page-response";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { badgeDemoPage } from "../../pages/badge-demo";
import { badgeRecord } from "../../passports/badge-record";
import { defineRoute, HTML, mountRoutes, NOT_MODIFIED } from "../define-route";
import { presentBadge } from "./presenter";
import { badgeSchema, demoQuery, uidParam } from "./schemas";

/** Read once: the script is static, so its ETag is too. */
const SCRIPT = readFileSync(path.join(__dirname, "..", "..", "assets", "badge.client.js"), "utf8");
const SCRIPT_ETAG = `"${createHash("sha256").update(SCRIPT).digest("base64url").slice(0, 27)}"`;
/** Browsers refetch the script at most hourly; a deployment reaches every shop within the hour. */
const SCRIPT_MAX_AGE = 3600;
/** The badge data may lag a new certification by this much, which a product page can live with. */
const BADGE_MAX_AGE = 60;

/** Any shop may embed the badge: the data is public, and no credentials are ever sent or accepted. */
const corsOpen: Middleware<AppState> = async (ctx, next) => {
  ctx.set("Access-Control-Allow-Origin", "*");
  ctx.set("Cross-Origin-Resource-Policy", "cross-origin");
  ctx.set("X-Content-Type-Options", "nosniff");
  await next();
};

export function badgeRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/embed/badge.js",
      operationId: "getBadgeScript",
      tag: "Pages",
      auth: "public",
      summary: "The embeddable badge script: include once in the page head, then place <div class=\"service-badge\" data-uid=\"UID\"></div>",
      description:
        "Dependency-free; renders each badge (carbon rating disc, label, kg CO2e, certified mark, certificate link) in a " +
        "Shadow DOM from GET /api/badge/{uid} on the script's own origin, including badges added later. ETag, cached an hour.",
      before: [corsOpen],
      responses: {
        "200": { description: "the script", contentType: "application/javascript", schema: { type: "string" }, example: "(function () { … })();" },
        "304": NOT_MODIFIED,
      },
      handler: (ctx) => {
        ctx.set("ETag", SCRIPT_ETAG);
        ctx.set("Cache-Control", `public, max-age=${SCRIPT_MAX_AGE}`);
        ctx.type = "application/javascript; charset=utf-8";
        const held = ctx.get("If-None-Match");
        if (held && held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === SCRIPT_ETAG)) {
          ctx.status = 304;
          return;
        }
        ctx.body = SCRIPT;
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/badge/:uid",
      operationId: "getBadge",
      tag: "Pages",
      auth: "public",
      summary: "The badge's data: carbon rating and label, kg CO2e, certification, certificate URL (CORS: any origin)",
      description:
        "Labels: A \"Low impact\" (at most 2 kg CO2e), B \"Moderate\" (at most 5), C \"High\" (at most 10), D \"Very high\" " +
        "(more than 10). `certified` is true once the passport is minted and indexed at the confirmation depth. Cached 60 s, weak ETag.",
      params: uidParam,
      before: [corsOpen],
      responses: {
        "200": {
          description: "badge data",
          schema: badgeSchema,
          example: {
            uid: "DEMO-7K3M9Q2X",
            carbon_rating: "A",
            carbon_label: "Low impact",
            carbon_kg: 1.59,
            certified: true,
            certificate_url: `${deps.config.publicBaseUrl}/dpp-certificate/DEMO-7K3M9Q2X`,
          },
        },
        "304": NOT_MODIFIED,
        "404": errorResponse("no passport for that UID"),
        "422": errorResponse("not a UID"),
      },
      handler: async (ctx) => {
        const record = await badgeRecord(deps, ctx.params.uid);
        sendWithEtag(ctx, presentBadge(record), BADGE_MAX_AGE);
      },
    }),
    defineRoute({
      method: "get",
      path: "/embed/demo",
      operationId: "getBadgeDemoPage",
      tag: "Pages",
      auth: "public",
      summary: "Demo host page that embeds the badge for ?uid=UID (a form when no UID is given)",
      query: demoQuery,
      before: [
        htmlErrors(deps.logger, {
          notFound: "There is no such page.",
          invalid: "The uid parameter must be a product UID such as DEMO-7K3M9Q2X.",
        }),
      ],
      responses: {
        "200": HTML("HTML page"),
        "422": HTML("uid is not a UID (HTML page)"),
      },
      handler: (ctx) => {
        // An empty field of the demo form is no UID, not a malformed one.
        const uid = ctx.query.uid ? ctx.query.uid.toUpperCase() : undefined;
        sendPage(ctx, badgeDemoPage({ uid, baseUrl: deps.config.publicBaseUrl }), "no-store");
      },
    }),
  ]);
}
