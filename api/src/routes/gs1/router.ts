// The GS1 Digital Link resolver (issue 16; docs/digital-link.md): `/01/{gtin}[/10/{lot}][/21/{serial}]` sends a
// browser to the passport page (307), answers an RFC 9264 linkset to `Accept: application/linkset+json` or
// `?linkType=linkset`, and redirects to one link with `?linkType=gs1:dpp` and the like; `/.well-known/gs1resolver`
// describes the resolver. On a brand's host it resolves that brand's products only.
import type Router from "@koa/router";
import type { Context, Middleware } from "koa";
import type { AppDeps, AppState } from "../../deps";
import { AppError } from "../../errors";
import { aiValueProblem, gtinProblem, normalizeGtin, type DigitalLinkRequest } from "../../gs1/digital-link";
import { linksetOf, linkTypeOf, resolveDigitalLink, resolverDescription, type Resolution } from "../../gs1/resolver";
import { brandBaseUrl } from "../../links";
import { sendPage } from "../../middleware/page-response";
import { errorPage } from "../../pages/layout";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import type { JsonSchema } from "../../validation";
import { defineRoute, mountRoutes, type Route } from "../define-route";
import { sunQuery } from "../scan/schemas";

export const LINKSET_TYPE = "application/linkset+json";

/** 400 INVALID_DIGITAL_LINK: the URI is not a valid GS1 Digital Link (the resolver standard asks for a 400). */
export class InvalidDigitalLinkError extends AppError {
  constructor(field: string, problem: string) {
    super(400, "INVALID_DIGITAL_LINK", `Not a valid GS1 Digital Link: the ${field} ${problem}.`, [{ field, problem }]);
  }
}

const linkTarget: JsonSchema = {
  type: "object",
  required: ["href"],
  properties: { href: { type: "string", format: "uri" }, type: { type: "string" }, hreflang: { type: "array", items: { type: "string" } }, title: { type: "string" } },
};

export const linksetSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["linkset"],
  properties: {
    linkset: {
      type: "array",
      minItems: 1,
      items: { type: "object", required: ["anchor"], properties: { anchor: { type: "string", format: "uri" } }, additionalProperties: { type: "array", items: linkTarget } },
    },
  },
};

const resolverDescriptionSchema: JsonSchema = {
  type: "object",
  required: ["name", "resolverRoot", "supportedPrimaryKeys", "linkTypeDefaultCanBeLinkset", "supportedLinkType"],
  properties: {
    name: { type: "string" },
    resolverRoot: { type: "string", format: "uri" },
    supportedPrimaryKeys: { type: "array", items: { type: "string" } },
    linkTypeDefaultCanBeLinkset: { type: "boolean" },
    supportedLinkType: { type: "array", items: { type: "object" } },
  },
};

const linkTypeQuery = {
  type: "object",
  properties: {
    linkType: { type: "string", maxLength: 100, description: "gs1:pip, gs1:dpp (or IANA dpp), gs1:certificationInfo, gs1:homepage, gs1:defaultLink, or linkset (all)" },
    // An NTAG 424 DNA tag written with the Digital Link: its SUN parameters go on to the passport page, which checks them.
    ...sunQuery.properties,
  },
} as const;

/** The SUN parameters a tag adds to the URL it opens (routes/scan/schemas.ts). */
const SUN_PARAMETERS = Object.keys(sunQuery.properties);

/** The forms of a Digital Link URI the resolver answers: GTIN, then optionally the lot, then optionally the serial. */
const PATHS: Array<{ path: string; operationId: string; summary: string; params: string[] }> = [
  { path: "/01/:gtin", operationId: "resolveGtin", summary: "Resolve a GS1 Digital Link of a trade item (GTIN)", params: ["gtin"] },
  { path: "/01/:gtin/21/:serial", operationId: "resolveGtinSerial", summary: "Resolve a GS1 Digital Link of one item (GTIN and serial)", params: ["gtin", "serial"] },
  { path: "/01/:gtin/10/:lot", operationId: "resolveGtinLot", summary: "Resolve a GS1 Digital Link of a batch (GTIN and lot)", params: ["gtin", "lot"] },
  { path: "/01/:gtin/10/:lot/21/:serial", operationId: "resolveGtinLotSerial", summary: "Resolve a GS1 Digital Link of one item of a batch", params: ["gtin", "lot", "serial"] },
];

const PARAM_SCHEMAS: Record<string, JsonSchema> = {
  gtin: { type: "string", description: "GTIN-8, -12, -13 or -14 with its check digit (read as its GTIN-14)" },
  lot: { type: "string", description: "AI 10, percent-encoded" },
  serial: { type: "string", description: "AI 21, percent-encoded" },
};

export function gs1Router(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const routes: Route[] = PATHS.map(({ path, operationId, summary, params }) =>
    defineRoute({
      method: "get",
      path,
      operationId,
      tag: "Public",
      auth: "public",
      summary,
      description:
        "GS1-Conformant Resolver 1.2. A browser is redirected (307) to the passport page on the brand's address. " +
        "`Accept: application/linkset+json` or `?linkType=linkset` answers the RFC 9264 linkset; `?linkType=gs1:dpp` " +
        "(or `dpp`, `gs1:pip`, `gs1:certificationInfo`, `gs1:homepage`) redirects to that link, and to the default link " +
        "when the item has none of that type. Every answer has a `Link` header naming the linkset.",
      params: { type: "object", required: params, properties: Object.fromEntries(params.map((name) => [name, PARAM_SCHEMAS[name]!])) },
      handlerChecksParams: true,
      query: linkTypeQuery,
      before: [cors, htmlErrorsForBrowsers],
      responses: {
        "200": { description: "the linkset", schema: linksetSchema, contentType: LINKSET_TYPE },
        "307": {
          description: "to the default link (the passport page), or the link of the requested type (Location); the body is a short note with the link",
          contentType: "text/html",
          schema: { type: "string" },
        },
        "400": errorResponse("not a valid Digital Link: a GTIN with a wrong check digit, a lot or serial outside GS1's character set (INVALID_DIGITAL_LINK)"),
        "404": errorResponse("no product has that GTIN (and lot and serial)"),
      },
      handler: async (ctx) => {
        // The router leaves a value it cannot decode as it came ("%E0" stays "%E0", which set 82 allows): refuse it here.
        if (!decodes(ctx.path)) throw new InvalidDigitalLinkError("path", "has malformed percent-encoding");
        const request = digitalLinkRequest(ctx.params as Record<string, string>);
        const resolution = await resolveDigitalLink(deps, request, ctx.state.siteBrand?.id);
        if (!resolution) throw new AppError(404, "NOT_FOUND", "No product has this GS1 Digital Link.");
        answer(ctx, resolution, typeof ctx.query.linkType === "string" ? ctx.query.linkType : undefined);
      },
    }),
  );
  routes.push(
    defineRoute({
      method: "get",
      path: "/.well-known/gs1resolver",
      operationId: "gs1ResolverDescription",
      tag: "Public",
      auth: "public",
      summary: "The GS1 resolver description (GS1-Conformant Resolver 1.2)",
      before: [cors],
      responses: {
        "200": { description: "the resolver description", schema: resolverDescriptionSchema },
        "404": errorResponse("a host of ours that serves nothing (an unknown brand subdomain, a pending custom domain)"),
      },
      handler: (ctx) => {
        const root = ctx.state.siteBrand ? brandBaseUrl(deps.config, { slug: ctx.state.siteBrand.slug, customDomain: ctx.state.siteBrand.via === "custom_domain" ? ctx.state.siteBrand.host : null }) : deps.config.publicBaseUrl;
        ctx.set("Cache-Control", "public, max-age=3600");
        ctx.body = resolverDescription(root);
      },
    }),
  );
  return mountRoutes(deps, openapi, routes);
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The GTIN (as GTIN-14), lot and serial of the path, each checked; 400 for the first that is not valid. */
function digitalLinkRequest(params: Record<string, string>): DigitalLinkRequest {
  const gtinIssue = gtinProblem(params.gtin ?? "");
  if (gtinIssue) throw new InvalidDigitalLinkError("gtin", gtinIssue);
  const request: DigitalLinkRequest = { gtin: normalizeGtin(params.gtin!)! };
  for (const field of ["lot", "serial"] as const) {
    const value = params[field];
    if (value === undefined) continue;
    const issue = aiValueProblem(value);
    if (issue) throw new InvalidDigitalLinkError(field, issue);
    request[field] = value;
  }
  return request;
}

/** A redirect to one link, or the linkset; every answer names the linkset in its Link header. */
function answer(ctx: Context, resolution: Resolution, linkTypeParam: string | undefined): void {
  const linksetUrl = `${resolution.anchor}?linkType=linkset`;
  ctx.vary("Accept");
  ctx.set("Cache-Control", "no-cache");
  ctx.append("Link", `<${linksetUrl}>; rel="linkset"; type="${LINKSET_TYPE}"`);
  // Asked in another form (a GTIN-13, a lot or serial encoded otherwise): the resolver standard's pointer to the canonical URI.
  if (ctx.path !== new URL(resolution.anchor).pathname) ctx.append("Link", `<${resolution.anchor}>; rel="owl:sameAs"`);
  const requested = linkTypeParam === undefined ? undefined : linkTypeOf(linkTypeParam);
  // Without a link type, a client that prefers the linkset (or JSON) to a page gets it; `*/*` is a browser's.
  const preferred = ctx.accepts("text/html", LINKSET_TYPE, "application/json");
  if (requested === "linkset" || (linkTypeParam === undefined && (preferred === LINKSET_TYPE || preferred === "application/json"))) {
    ctx.type = LINKSET_TYPE;
    ctx.body = JSON.stringify(linksetOf(resolution));
    return;
  }
  // A link type the item does not have (or one this resolver does not know) goes to the default link, as the
  // resolver standard says; so does no link type at all.
  const target = (requested ? resolution.links.get(requested)?.[0] : undefined) ?? resolution.defaultLink;
  ctx.redirect(target === resolution.links.get("pip")?.[0] ? withSunParameters(target.href, ctx.query) : target.href);
  ctx.status = 307;
}

/**
 * The passport page with the tap's SUN parameters (picc_data, cmac, enc) when a tag sent them: its MAC covers none of
 * the URL (docs/nfc-tags.md), so the page verifies the tap as if the tag had opened it directly.
 */
function withSunParameters(href: string, query: Record<string, string | string[] | undefined>): string {
  const url = new URL(href);
  for (const name of SUN_PARAMETERS) {
    const value = query[name];
    if (typeof value === "string") url.searchParams.set(name, value);
  }
  return url.toString();
}

/** GS1 resolvers SHALL support CORS: any page may read a linkset (nothing here is private). */
const cors: Middleware<AppState> = async (ctx, next) => {
  ctx.set("Access-Control-Allow-Origin", "*");
  ctx.set("Access-Control-Expose-Headers", "Link, Location");
  await next();
};

/** A person who scanned a code sees an HTML page for an unknown or malformed link; programs get the JSON error. */
const htmlErrorsForBrowsers: Middleware<AppState> = async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500 || ctx.accepts("application/json", "text/html") !== "text/html") throw error;
    const heading = error.status === 404 ? "Not found" : "This code's address is not valid";
    sendPage(ctx, errorPage(error.status, heading, error.message), "no-store");
  }
};
