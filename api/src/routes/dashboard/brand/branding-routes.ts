// The brand editor's routes: branding read and saved, logo upload and removal, the live preview of the scan page,
// and the public address the uploaded logo is served at.
import getRawBody from "raw-body";
import type { Context } from "koa";
import { draftBranding, editorBranding, updateBranding } from "../../../brands/brand-editor";
import { logoAsset, LOGO_MAX_BYTES, removeLogo, uploadLogo } from "../../../brands/logo";
import { previewSubject } from "../../../brands/preview";
import type { AppDeps } from "../../../deps";
import { AppError, NotFoundError, ValidationError } from "../../../errors";
import { errorResponse } from "../../../openapi/registry";
import { scanPage } from "../../../pages/scan";
import { actorOf } from "../../../team/service";
import { defineRoute, HTML, NOT_MODIFIED, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentBranding } from "./presenter";
import { brandingBody, brandingSchema, logoAssetParams, logoBody } from "./schemas";

const LOGO_TYPES = ["image/png", "image/webp"] as const;
const IMMUTABLE = "public, max-age=31536000, immutable";
const BRANDING_422 = errorResponse("VALIDATION_ERROR, details per field: HEX #RRGGBB, tagline ≤ 120, about ≤ 500, social links https only");

/** The uploaded file, at most LOGO_MAX_BYTES; a 413 with the logo's detail past that, before reading it all. */
async function readLogoBody(ctx: Context): Promise<Buffer> {
  if (!ctx.is(...LOGO_TYPES)) {
    throw new ValidationError([{ field: "logo", problem: "must be a PNG or WebP image" }], "Send the image file as the body, with Content-Type image/png or image/webp.");
  }
  const length = Number(ctx.get("Content-Length") || 0);
  try {
    return await getRawBody(ctx.req, { length: length || undefined, limit: LOGO_MAX_BYTES });
  } catch (error) {
    if ((error as { status?: number }).status === 413) {
      // Read on (and drop) what the client is still sending, so it gets this answer rather than a reset connection.
      ctx.req.resume();
      throw new AppError(413, "PAYLOAD_TOO_LARGE", "The logo is larger than 2 MB.", [{ field: "logo", problem: `must be at most ${LOGO_MAX_BYTES / (1024 * 1024)} MB` }]);
    }
    throw new AppError(400, "BAD_REQUEST", "The request body could not be read.");
  }
}

export function brandingRoutes(deps: AppDeps): Route[] {
  const { db, config } = deps;
  return [
    defineRoute({
      method: "get",
      path: "/api/dashboard/branding",
      operationId: "dashboardBranding",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The brand's white-label settings, with the WCAG AA contrast of its colours",
      responses: { "200": { description: "the branding", schema: envelopeSchema(brandingSchema) } },
      handler: async (ctx) => ok(ctx, presentBranding(config, await editorBranding(db, ctx.state.brand))),
    }),
    defineRoute({
      method: "put",
      path: "/api/dashboard/branding",
      operationId: "dashboardUpdateBranding",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "branding.write",
      summary: "Change colours, tagline, about text or social links (a field left out stays; null clears it)",
      description: "Colours below 4.5:1 against white text or the page background are saved, with a warning in `contrast`.",
      body: brandingBody,
      bodyExample: { primary_color: "#0B3D2E", tagline: "Made to last", social: { instagram: "https://instagram.com/demo" } },
      responses: { "200": { description: "the branding as saved", schema: envelopeSchema(brandingSchema) }, "422": BRANDING_422 },
      handler: async (ctx) => {
        const user = ctx.state.user;
        ok(ctx, presentBranding(config, await updateBranding(db, ctx.state.brand, actorOf(user), ctx.state.input)));
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/dashboard/branding/logo",
      operationId: "dashboardUploadLogo",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "branding.write",
      summary: "Upload the logo: the PNG or WebP file itself as the body (at least 512×512 px, transparent background, at most 2 MB)",
      description:
        "The file is checked by its content, whatever its Content-Type: a real PNG or WebP, 512 to 4096 px a side, with an " +
        "alpha channel and a transparent background, meaning at least half of the pixels of its outer 2% border ring are " +
        "fully transparent (a fully opaque image, or a logo on a white or coloured square, is refused). It is stored " +
        "re-encoded (at most 1024 px a side, metadata dropped) and shown on the pages at 44 px height.",
      body: logoBody,
      rawBody: LOGO_TYPES,
      responses: {
        "200": { description: "the branding, with the new logo_url", schema: envelopeSchema(brandingSchema) },
        "413": errorResponse("PAYLOAD_TOO_LARGE: the file is larger than 2 MB (details field logo)"),
        "422": errorResponse(
          "VALIDATION_ERROR, details field logo: must be a PNG or WebP image | must be at least 512×512 px (got W×H) | must have a transparent background",
        ),
      },
      handler: async (ctx) => {
        const bytes = await readLogoBody(ctx);
        await uploadLogo(db, ctx.state.brand, actorOf(ctx.state.user), bytes);
        ok(ctx, presentBranding(config, await editorBranding(db, ctx.state.brand)));
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/dashboard/branding/logo",
      operationId: "dashboardRemoveLogo",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "branding.write",
      summary: "Remove the logo from the brand's pages",
      responses: { "200": { description: "the branding, without a logo", schema: envelopeSchema(brandingSchema) } },
      handler: async (ctx) => {
        await removeLogo(db, ctx.state.brand, actorOf(ctx.state.user));
        ok(ctx, presentBranding(config, await editorBranding(db, ctx.state.brand)));
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/branding/preview",
      operationId: "dashboardPreviewBranding",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The scan page of the brand's newest product (or a sample) in unsaved branding, as HTML for an <iframe srcdoc>",
      description: "Takes the body of PUT /api/dashboard/branding and checks it the same way (422 alike); nothing is saved.",
      body: brandingBody,
      bodyOptional: true,
      bodyExample: { primary_color: "#7A1F5C", tagline: "Draft tagline" },
      responses: { "200": HTML("the scan page rendered with the draft"), "422": BRANDING_422 },
      handler: async (ctx) => {
        const brand = ctx.state.brand;
        const draft = await draftBranding(db, brand, ctx.state.input);
        const subject = await previewSubject(deps, { slug: brand.slug, name: draft.name }, draft.previewUid);
        const page = scanPage({ record: subject.record, brand: { slug: brand.slug, name: draft.name, branding: draft.branding }, pageUrl: subject.pageUrl, pdfUrl: subject.pdfUrl });
        for (const [name, value] of Object.entries(page.headers)) ctx.set(name, value);
        ctx.set("Cache-Control", "no-store");
        ctx.type = "text/html; charset=utf-8";
        ctx.body = page.html;
      },
    }),
    defineRoute({
      method: "get",
      path: "/brand-assets/:slug/:file",
      operationId: "getBrandLogo",
      tag: "Pages",
      auth: "public",
      summary: "A brand's uploaded logo; its address changes with its content, so it may be cached for good",
      params: logoAssetParams,
      handlerChecksParams: true,
      responses: {
        "200": { description: "the image", contentType: "image/png", schema: { type: "string", contentMediaType: "image/png" } },
        "304": NOT_MODIFIED,
        "404": errorResponse("no such logo, or no longer the brand's logo"),
      },
      handler: async (ctx) => {
        const logo = await logoAsset(db, ctx.params.slug, ctx.params.file);
        if (!logo) throw new NotFoundError("Logo");
        const etag = `"${logo.contentHash}"`;
        ctx.set("Cache-Control", IMMUTABLE);
        ctx.set("ETag", etag);
        ctx.set("X-Content-Type-Options", "nosniff");
        ctx.set("Content-Security-Policy", "default-src 'none'; sandbox");
        if (ctx.get("If-None-Match").split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
          ctx.status = 304;
          return;
        }
        ctx.type = logo.mediaType;
        ctx.body = logo.bytes;
      },
    }),
  ];
}
