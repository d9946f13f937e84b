// The back-up operator's routes (docs/backup.md): on a primary, the changes feed its back-up reads with the key it was
// issued; on a back-up, the progress of replication. The copies themselves are served by the EN 18222 routes.
import type Router from "@koa/router";
import { changesFeed, checkFeedKey } from "../../backup/feed";
import { replicationStatus } from "../../backup/status";
import type { AppDeps, AppState } from "../../deps";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { defineRoute, mountRoutes } from "../define-route";
import { changesQuery, changesSchema, statusSchema } from "./schemas";

export function backupRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/backup/v1/changes",
      operationId: "listBackupChanges",
      tag: "Internal",
      auth: "public",
      summary: "The passports that changed since an instant, for this deployment's back-up operator (its feed key as bearer)",
      description: "Each passport once, at its latest change (minted, a version anchored, a lifecycle status changed), oldest first. The back-up reads each through the EN 18222 API.",
      headers: [{ name: "Authorization", required: true, schema: { type: "string", maxLength: 300 }, description: "Bearer <BACKUP_FEED_KEY>" }],
      before: [
        async (ctx, next) => {
          checkFeedKey(deps.config.backup.feedKey, ctx.get("authorization") || undefined);
          await next();
        },
      ],
      query: changesQuery,
      responses: {
        "200": { description: "one page of changes", schema: changesSchema },
        "401": errorResponse("no feed key, or another (UNAUTHORIZED)"),
        "404": errorResponse("this deployment has no BACKUP_FEED_KEY (NOT_FOUND)"),
        "422": errorResponse("a malformed instant, cursor or limit (VALIDATION_ERROR)"),
      },
      handler: async (ctx) => {
        ctx.set("Cache-Control", "no-store");
        ctx.body = await changesFeed(deps.db, new Date(ctx.query.since), ctx.query.cursor, Number(ctx.query.limit ?? 500));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/backup/v1/status",
      operationId: "getBackupStatus",
      tag: "Operations",
      auth: "public",
      summary: "A back-up's replication: per primary, the passports and versions held, refusals, the last run and the lag",
      responses: { "200": { description: "the replication's progress", schema: statusSchema } },
      handler: async (ctx) => {
        ctx.set("Cache-Control", "no-store");
        ctx.body = await replicationStatus(deps);
      },
    }),
  ]);
}
