// The embeddable badge (spec 4.14): the script GET /embed/badge.js, its data GET /api/badge/:uid (CORS, short
// caching) and a demo host page GET /embed/demo.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import Router from "@koa/router";
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../../deps";
import { ValidationError } from "../../errors";
import { sendWithEtag } from "../../middleware/etag";
import { validateParams } from "../../middleware/validate-params";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { badgeDemoPage } from "../../pages/badge-demo";
import { htmlErrors, sendPage } from "../../middleware/page-response";
import { compile, toDetails } from "../../validation";
import { UID_PATTERN } from "../dpp/schemas";
import { presentBadge } from "./presenter";
import { badgeSchema, demoQuery, uidParam } from "./schemas";
import { badgeRecord } from "../../passports/badge-record";

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
  const router = new Router<AppState>();
  const checkDemoQuery = compile<{ uid?: string }>(demoQuery);

  router.get("/embed/badge.js", corsOpen, (ctx) => {
    ctx.set("ETag", SCRIPT_ETAG);
    ctx.set("Cache-Control", `public, max-age=${SCRIPT_MAX_AGE}`);
    ctx.type = "application/javascript; charset=utf-8";
    const held = ctx.get("If-None-Match");
    if (held && held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === SCRIPT_ETAG)) {
      ctx.status = 304;
      return;
    }
    ctx.body = SCRIPT;
  });

  router.get("/api/badge/:uid", corsOpen, validateParams(uidParam), async (ctx) => {
    const record = await badgeRecord(deps, ctx.params.uid!);
    sendWithEtag(ctx, presentBadge(deps.config, record), BADGE_MAX_AGE);
  });

  router.get(
    "/embed/demo",
    htmlErrors(deps.logger, {
      notFound: "There is no such page.",
      invalid: "The uid parameter must be a product UID such as DEMO-7K3M9Q2X.",
    }),
    (ctx) => {
      const query: Record<string, unknown> = { ...ctx.query };
      // An empty field of the demo form is no UID, not a malformed one.
      if (query.uid === "") delete query.uid;
      if (!checkDemoQuery(query)) throw new ValidationError(toDetails(checkDemoQuery.errors, "query"));
      const uid = query.uid?.toUpperCase();
      sendPage(ctx, badgeDemoPage({ uid, baseUrl: deps.config.publicBaseUrl }), "no-store");
    },
  );

  openapi.add({
    method: "get",
    path: "/embed/badge.js",
    tag: "Pages",
    summary: "The embeddable badge script: include once in the page head, then place <div class=\"service-badge\" data-uid=\"UID\"></div>",
    description:
      "Dependency-free; renders each badge (carbon rating disc, label, kg CO2e, certified mark, certificate link) in a " +
      "Shadow DOM from GET /api/badge/{uid} on the script's own origin, including badges added later. ETag, cached an hour.",
    responses: {
      "200": { description: "the script", contentType: "application/javascript", example: "(function () { … })();" },
      "304": { description: "not modified since the ETag the caller holds" },
    },
  });
  openapi.add({
    method: "get",
    path: "/api/badge/:uid",
    tag: "Pages",
    summary: "The badge's data: carbon rating and label, kg CO2e, certification, certificate URL (CORS: any origin)",
    description:
      "Labels: A \"Low impact\" (at most 2 kg CO2e), B \"Moderate\" (at most 5), C \"High\" (at most 10), D \"Very high\" " +
      "(more than 10). `certified` is true once the passport is minted and indexed at the confirmation depth. Cached 60 s, weak ETag.",
    parameters: [{ name: "uid", in: "path", required: true, schema: { type: "string", pattern: UID_PATTERN } }],
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
      "304": { description: "not modified since the ETag the caller holds" },
      "404": errorResponse("no passport for that UID"),
      "422": errorResponse("not a UID"),
    },
  });
  openapi.add({
    method: "get",
    path: "/embed/demo",
    tag: "Pages",
    summary: "Demo host page that embeds the badge for ?uid=UID (a form when no UID is given)",
    parameters: [{ name: "uid", in: "query", required: false, schema: { type: "string", pattern: UID_PATTERN } }],
    responses: {
      "200": { description: "HTML page", contentType: "text/html", example: "<!doctype html>…" },
      "422": { description: "uid is not a UID (HTML page)", contentType: "text/html", example: "<!doctype html>…" },
    },
  });
  return router;
}
