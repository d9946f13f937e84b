// The GS1 Digital Link resolver (issue 16; docs/digital-link.md): `/01/{gtin}[/10/{lot}][/21/{serial}]` sends a
// browser to the passport page (307), answers an RFC 9264 linkset to `Accept: application/linkset+json` or
// `?linkType=linkset`, and redirects to one link with `?linkType=gs1:dpp` and the like; `/.well-known/gs1resolver`
// describes the resolver. On a brand's host it resolves that brand's products only.
import type Router from "@koa/router";
import type { Context, Middleware } from "koa";
import type { AppDeps, AppState } from "../../deps";
import { AppError } from "../../errors";
import { CompressedDigitalLinkError, compressedSegment, decompressDigitalLink } from "../../gs1/compression";
import { aiValueProblem, gtinProblem, normalizeGtin, type DigitalLinkRequest } from "../../gs1/digital-link";
import { LINKSET_CONTEXT, linksetOf, linkTypeOf, resolveDigitalLink, resolverDescription, type LinkTarget, type LinkType, type Resolution } from "../../gs1/resolver";
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
  required: ["href", "title"],
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
      items: {
        type: "object",
        required: ["anchor", "itemDescription"],
        properties: { anchor: { type: "string", format: "uri" }, itemDescription: { type: "string" } },
        additionalProperties: { type: "array", items: linkTarget },
      },
    },
  },
};

const resolverDescriptionSchema: JsonSchema = {
  type: "object",
  required: ["name", "resolverRoot", "supportedPrimaryKeys", "linkTypeDefaultCanBeLinkset", "supportedLinkType"],
  properties: {
    name: { type: "string" },
    resolverRoot: { type: "string", format: "uri" },
    supportedPrimaryKeys: { type: "array", items: { type: "string", description: "a primary key's AI (01: GTIN)" } },
    linkTypeDefaultCanBeLinkset: { type: "boolean" },
    supportedLinkType: {
      type: "array",
      items: {
        type: "object",
        description: "a link-type namespace and the CURIE prefix its terms are written with",
        required: ["namespace", "prefix"],
        properties: { namespace: { type: "string", format: "uri" }, prefix: { type: "string" }, terms: { type: "array", items: { type: "string" } } },
      },
    },
    jsonLdContextLocation: { type: "string", format: "uri" },
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
        "(or `dpp`, `gs1:pip`, `gs1:certificationInfo`, `gs1:homepage`) redirects to that link, chosen by `Accept` and " +
        "`Accept-Language` among several, and answers 404 when the item has none of that type. Other query parameters " +
        "pass on to the target. A lot or serial nobody registered falls back to the GTIN. Every answer has a `Link` " +
        "header naming the linkset.",
      params: { type: "object", required: params, properties: Object.fromEntries(params.map((name) => [name, PARAM_SCHEMAS[name]!])) },
      handlerChecksParams: true,
      query: linkTypeQuery,
      before: [cors, htmlErrorsForBrowsers],
      responses: {
        "200": { description: "the linkset", schema: linksetSchema, contentType: LINKSET_TYPE },
        "300": { description: "several links of the requested type fit the request equally: the linkset of those links", schema: linksetSchema, contentType: LINKSET_TYPE },
        "307": {
          description: "to the default link (the passport page), or the link of the requested type (Location); the body is a short note with the link",
          contentType: "text/html",
          schema: { type: "string" },
        },
        "400": errorResponse("not a valid Digital Link: a GTIN with a wrong check digit, a lot or serial outside GS1's character set (INVALID_DIGITAL_LINK)"),
        "404": errorResponse("no product has that GTIN, or the item has no link of the requested type (NOT_FOUND)"),
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
  for (const { path, operationId, params } of PATHS) {
    routes.push(
      defineRoute({
        method: "options",
        path,
        operationId: `${operationId}Options`,
        tag: "Public",
        auth: "public",
        summary: "What a web page may ask of a GS1 Digital Link (CORS), and its linkset",
        description: "GS1-Conformant Resolver 1.2 supports GET, HEAD and OPTIONS, with CORS. The `Link` header names the linkset when the URI names a product.",
        params: { type: "object", required: params, properties: Object.fromEntries(params.map((name) => [name, PARAM_SCHEMAS[name]!])) },
        handlerChecksParams: true,
        before: [cors],
        responses: {
          "204": { description: "the methods and headers allowed (Access-Control-Allow-*), and the linkset in `Link`" },
          "400": errorResponse("not a valid Digital Link (INVALID_DIGITAL_LINK)"),
        },
        handler: async (ctx) => {
          if (!decodes(ctx.path)) throw new InvalidDigitalLinkError("path", "has malformed percent-encoding");
          const resolution = await resolveDigitalLink(deps, digitalLinkRequest(ctx.params as Record<string, string>), ctx.state.siteBrand?.id);
          if (resolution) ctx.set("Link", linkHeader(requestedPath(ctx), resolution).join(", "));
          ctx.status = 204;
        },
      }),
    );
  }
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
  ctx.vary("Accept");
  ctx.vary("Accept-Language");
  ctx.set("Cache-Control", "no-cache");
  const links = linkHeader(requestedPath(ctx), resolution);
  const requested = linkTypeParam === undefined ? undefined : linkTypeOf(linkTypeParam);
  // Without a link type, a client that prefers the linkset (or JSON) to a page gets it; `*/*` is a browser's.
  const preferred = ctx.accepts("text/html", LINKSET_TYPE, "application/json");
  if (requested === "linkset" || (linkTypeParam === undefined && (preferred === LINKSET_TYPE || preferred === "application/json"))) {
    // GS1's JSON-LD context turns the linkset into JSON-LD (resolver standard 1.2, section 2.10).
    links.push(`<${LINKSET_CONTEXT}>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"`);
    ctx.set("Link", links.join(", "));
    ctx.type = LINKSET_TYPE;
    ctx.body = JSON.stringify(linksetOf(resolution));
    return;
  }
  // One Link header, its links comma-separated: a client that keeps one header of a name still sees them all.
  ctx.set("Link", links.join(", "));
  let targets: LinkTarget[] = [resolution.defaultLink];
  if (linkTypeParam !== undefined) {
    // A type this resolver does not know, or one the item has no link of (gs1:dpp before the passport is minted):
    // the resolver standard's 404, not the default link.
    targets = requested ? (resolution.links.get(requested) ?? []) : [];
    if (targets.length === 0) throw new AppError(404, "NOT_FOUND", `This item has no link of type ${linkTypeParam}.`);
  }
  const chosen = negotiate(ctx, targets);
  if (chosen.length > 1) {
    // Several links of the type fit what the client asked for equally: GS1's 300 Multiple Choices, with the choices.
    ctx.status = 300;
    ctx.type = LINKSET_TYPE;
    ctx.body = JSON.stringify(linksetOf(resolution, { type: requested as LinkType, targets: chosen }));
    return;
  }
  ctx.redirect(withQuery(chosen[0]!.href, ctx.querystring, chosen[0]!.href === resolution.passportPage));
  ctx.status = 307;
}

/** The path the client asked for: a compressed link's, not the uncompressed one it is answered as. */
function requestedPath(ctx: Context): string {
  return ctx.originalUrl.split("?", 1)[0]!;
}

/** The links every answer carries: the linkset, and the canonical URI when it was asked for in another form. */
function linkHeader(path: string, resolution: Resolution): string[] {
  const links = [`<${resolution.anchor}?linkType=linkset>; rel="linkset"; type="${LINKSET_TYPE}"`];
  // Asked in another form (a GTIN-13, a lot or serial encoded otherwise, a compressed link): the resolver standard's
  // pointer to the canonical, uncompressed URI.
  if (path.replace(/\/$/, "") !== new URL(resolution.anchor).pathname) links.push(`<${resolution.anchor}>; rel="owl:sameAs"`);
  return links;
}

/**
 * The targets that fit the request best: by media type when `Accept` prefers one of theirs, then by language. More
 * than one only when the client named that media type (or language) itself and several share it; a client that said
 * nothing in particular (any type, any language) gets the resolver's first choice.
 */
function negotiate(ctx: Context, targets: LinkTarget[]): LinkTarget[] {
  let pool = targets;
  let named = false;
  const types = [...new Set(pool.flatMap((target) => (target.type ? [target.type] : [])))];
  const type = types.length > 1 ? ctx.accepts(types) : false;
  if (typeof type === "string") {
    pool = pool.filter((target) => target.type === type);
    named = (ctx.accepts() as string[]).includes(type);
  }
  const languages = [...new Set(pool.flatMap((target) => target.hreflang ?? []))];
  const language = languages.length > 1 ? ctx.acceptsLanguages(languages) : false;
  if (typeof language === "string" && (ctx.acceptsLanguages() as string[]).includes(language)) {
    const inLanguage = pool.filter((target) => target.hreflang?.includes(language));
    if (inLanguage.length < pool.length) named = inLanguage.length > 1;
    pool = inLanguage;
  }
  return named && pool.length > 1 ? pool : pool.slice(0, 1);
}

/**
 * The target with the request's query string on it (the resolver standard: key=value pairs pass on), but for
 * `linkType`, which was for the resolver. A tag's SUN parameters (picc_data, cmac, enc) go on to the passport page
 * only: its MAC covers none of the URL (docs/nfc-tags.md), so the page verifies the tap as if the tag had opened it.
 */
function withQuery(href: string, querystring: string, toPassportPage: boolean): string {
  const url = new URL(href);
  for (const [name, value] of new URLSearchParams(querystring)) {
    if (name === "linkType" || (!toPassportPage && SUN_PARAMETERS.includes(name))) continue;
    url.searchParams.append(name, value);
  }
  return url.toString();
}

/**
 * A GET or HEAD under /01/ that no resolver route takes (a segment too many, an AI this resolver does not read): the
 * resolver standard's 400 for a URI it cannot parse, not a 404. Mounted after every router (app.ts).
 */
export const refuseUnknownDigitalLinkPaths: Middleware<AppState> = (ctx, next) => {
  if (!ctx.path.startsWith("/01/") || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
  return cors(ctx, () =>
    htmlErrorsForBrowsers(ctx, () => {
      throw new InvalidDigitalLinkError("path", "is not /01/{gtin}, optionally followed by /10/{lot}, then optionally by /21/{serial}");
    }),
  );
};

/**
 * A compressed GS1 Digital Link (`/DBFRJxlqTtBy4v2mmmo`, GS1 Digital Link standard compression) is answered as its
 * uncompressed URI: path and query are rewritten before host routing and the routers see them, so every answer
 * (redirect, linkset, 404, 400, OPTIONS) is the uncompressed URI's, with the owl:sameAs link to it the resolver standard
 * asks for. The pairs it carries come before the request's own query. A compressed path that cannot be read is a 400.
 * Mounted before hostRouting (app.ts), so a brand's host serves its compressed links too.
 */
export const expandCompressedDigitalLinks: Middleware<AppState> = (ctx, next) => {
  const segment = compressedSegment(ctx.path);
  if (segment === undefined) return next();
  let uncompressed;
  try {
    uncompressed = decompressDigitalLink(segment);
  } catch (error) {
    if (!(error instanceof CompressedDigitalLinkError)) throw error;
    const problem = `is a compressed GS1 Digital Link that cannot be read: it ${error.message}`;
    return cors(ctx, () =>
      htmlErrorsForBrowsers(ctx, () => {
        throw new InvalidDigitalLinkError("path", problem);
      }),
    );
  }
  const query = new URLSearchParams(uncompressed.query);
  for (const [name, value] of new URLSearchParams(ctx.querystring)) query.append(name, value);
  ctx.path = uncompressed.path;
  ctx.querystring = query.toString();
  return next();
};

/** GS1 resolvers SHALL support CORS: any page may read a linkset (nothing here is private). */
const cors: Middleware<AppState> = async (ctx, next) => {
  ctx.set("Access-Control-Allow-Origin", "*");
  ctx.set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
  ctx.set("Access-Control-Allow-Headers", "Accept, Accept-Language");
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
