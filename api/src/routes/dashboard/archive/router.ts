// GET /api/dashboard/archive: the brand's own passports as a self-verifying archive (.tar.gz; docs/archive.md),
// streamed as it is written.
import type Router from "@koa/router";
import { archiveName, passportArchive } from "../../../archive/archive";
import type { AppDeps, AppState } from "../../../deps";
import type { OpenApiRegistry } from "../../../openapi/registry";
import { defineRoute, mountRoutes } from "../../define-route";
import { DASHBOARD_TAG } from "../base";

export function dashboardArchiveRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/dashboard/archive",
      operationId: "dashboardArchive",
      tag: DASHBOARD_TAG,
      auth: "session",
      // Everything in it is public already (each passport's record, credential and anchor): any role may keep a copy.
      permission: "dashboard.read",
      summary: "Download the brand's passports as a self-verifying archive (.tar.gz)",
      description:
        "Every minted passport of the brand: its content exactly as hashed, its chain anchor, its public record and its " +
        "signed UNTP credential, the service's did.json, and verify/verify.js, which checks all of it against any node " +
        "of the chain without this service (README.txt inside says how). Streamed as it is written.",
      responses: { "200": { description: "the archive", contentType: "application/gzip", schema: { type: "string", format: "binary" } } },
      handler: (ctx) => {
        const root = archiveName(ctx.state.brand.slug, new Date());
        ctx.type = "application/gzip";
        ctx.set("Content-Disposition", `attachment; filename="${root}.tar.gz"`);
        ctx.set("Cache-Control", "no-store");
        ctx.body = passportArchive(deps, { brandId: ctx.state.brand.id }, { root });
      },
    }),
  ]);
}
