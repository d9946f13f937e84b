// GET /api/scan/{uid}: the verdict of a tap as JSON, for integrators (an app that reads the tag itself, a kiosk):
// the same check, the same replay rule and the same scan counting as the scan page it stands in for.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { passportPage } from "../../passports/passport-page";
import { clientKeyOf } from "../../scans/scan-recorder";
import { checkTap, UNVERIFIED_TAP } from "../../tags/verification";
import { defineRoute, mountRoutes } from "../define-route";
import { clientRegionOf } from "./client-region";
import { presentScanVerdict } from "./presenter";
import { SCAN_VERDICT_EXAMPLE, scanVerdictSchema, sunQuery, uidParam } from "./schemas";

export function scanRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const scans = deps.scanRecorder;
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/scan/:uid",
      operationId: "getScanVerdict",
      tag: "Public",
      auth: "public",
      summary: "Verify an NFC tap: the verdict of the SUN parameters (picc_data, cmac) a tag put in the product's scan URL",
      description:
        "Send the query of the URL the tag opened. Verdicts: authentic (signature of a tag bound to this product, counter " +
        "above the last accepted: accepted now, so the same URL again is replayed), replayed, invalid (malformed, or no " +
        "tag's signature), unknown_tag (the product has no signing tag), not_bound (another of the brand's tags), " +
        "unverified (no SUN parameters). A GET is a tap like opening the scan page: it counts as a scan by the same rules " +
        "and consumes the counter; HEAD checks nothing. Cache-Control: no-store. Table and key scheme: docs/nfc-tags.md.",
      params: uidParam,
      query: sunQuery,
      responses: {
        "200": { description: "the verdict", schema: scanVerdictSchema, example: SCAN_VERDICT_EXAMPLE },
        "404": errorResponse("no product with that UID"),
        "422": errorResponse("a malformed UID, an unknown query parameter, a repeated one, or one longer than its bound"),
      },
      handler: async (ctx) => {
        const view = await passportPage(deps, ctx.params.uid);
        const region = clientRegionOf(ctx, deps.config);
        // HEAD (a link checker) must not consume a tap the shopper's GET is about to make.
        const live = ctx.method === "GET";
        const tap = live ? await checkTap(deps, { id: view.passport.product.id, brandId: view.passport.product.brand_id }, ctx.query, { key: clientKeyOf(ctx.ip), region }) : UNVERIFIED_TAP;
        if (live) scans.offer(clientKeyOf(ctx.ip), view, { verdict: tap.verdict, region });
        ctx.set("Cache-Control", "no-store");
        ctx.body = presentScanVerdict(view, tap);
      },
    }),
  ]);
}
