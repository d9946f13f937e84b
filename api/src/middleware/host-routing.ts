// Routing by Host: a brand's subdomain (<slug>.<BASE_DOMAIN>) or verified custom domain serves only that brand. Its
// home page is the brand's profile; its passports' pages, JSON, PDF and badge are served, another brand's UID answers
// 404 as an unknown one would (an HTML page for pages, the JSON error otherwise); shoppers' order pages and orders of
// the brand's own products are served; everything else (the v1 API, the dashboard, docs, operator routes) is the main
// site's only and answers 404 there.
// A name of ours that serves nothing (an unknown subdomain; a custom domain pending, failed or removed) answers 404
// for every path. Any other host is the main site, as before; the main host costs no lookup (domains/site-hosts.ts).
import type { Context, Middleware, Next } from "koa";
import type { AppDeps, AppState } from "../deps";
import { SiteHosts, type SiteBrand } from "../domains/site-hosts";
import { AppError } from "../errors";
import { errorPage } from "../pages/layout";
import { BRAND_ERRORS, PASSPORT_ERRORS } from "../routes/pages/router";
import { sendPage } from "./page-response";

/**
 * How a brand host refuses a path: an HTML page, the JSON error, or whichever the client prefers (/api/dpp), in the
 * words the route itself uses for something that does not exist.
 */
type Refusal = { answer: "page" | "json" | "negotiated"; notFound: string };
/** What the path names that must be the host's brand's: a product (by UID), the brand itself (by slug), or nothing. */
type Owner = "uid" | "slug" | "none";
type BrandSiteRoute = { path: RegExp; owner: Owner; refusal: Refusal };

const PASSPORT_PAGE: Refusal = { answer: "page", notFound: PASSPORT_ERRORS.notFound };
const PASSPORT_JSON: Refusal = { answer: "json", notFound: "Passport not found." };
const NO_ROUTE_JSON: Refusal = { answer: "json", notFound: "No such route." };

/**
 * What a brand host serves, matched as @koa/router matches (any letter case, an optional trailing slash); the first
 * group is the UID or slug to check. A path not listed is refused, so a new route is the main site's until added here.
 */
const BRAND_SITE_ROUTES: readonly BrandSiteRoute[] = [
  { path: /^\/scan\/([^/]+)\/?$/i, owner: "uid", refusal: PASSPORT_PAGE },
  { path: /^\/dpp-certificate\/([^/]+)\/?$/i, owner: "uid", refusal: PASSPORT_PAGE },
  { path: /^\/api\/dpp\/([^/]+)\/?$/i, owner: "uid", refusal: { ...PASSPORT_JSON, answer: "negotiated" } },
  // The passport's UNTP credential and Catena-X export (issue 16; routes/interop/router.ts).
  { path: /^\/api\/dpp\/([^/]+)\/(?:credential|catena-x)\/?$/i, owner: "uid", refusal: PASSPORT_JSON },
  { path: /^\/api\/scan\/([^/]+)\/?$/i, owner: "uid", refusal: PASSPORT_JSON },
  { path: /^\/api\/badge\/([^/]+)\/?$/i, owner: "uid", refusal: PASSPORT_JSON },
  { path: /^\/certificates\/([^/]+)\.pdf\/?$/i, owner: "uid", refusal: { answer: "json", notFound: "Certificate not found." } },
  { path: /^\/brand\/([^/]+)\/?$/i, owner: "slug", refusal: { answer: "page", notFound: BRAND_ERRORS.notFound } },
  { path: /^\/brand-assets\/([^/]+)\/[^/]+\/?$/i, owner: "slug", refusal: { answer: "json", notFound: "Logo not found." } },
  { path: /^\/embed\/badge\.js$/i, owner: "none", refusal: NO_ROUTE_JSON },
  // Buying from the scan page (issue 13): the order API it posts to, the shopper's order page and its script. The
  // order API scopes itself to the host's brand (routes/orders/router.ts): another brand's product or order is not
  // found there. The page is the same for every order id, so it tells nothing; it reads the order through the API.
  { path: /^\/api\/orders(?:\/[^/]+)?\/?$/i, owner: "none", refusal: NO_ROUTE_JSON },
  { path: /^\/orders\/[^/]+\/?$/i, owner: "none", refusal: NO_ROUTE_JSON },
  { path: /^\/assets\/[^/]+$/i, owner: "none", refusal: NO_ROUTE_JSON },
  // The Bengali web font of the pages (issue 16; routes/pages/font-assets.ts).
  { path: /^\/assets\/fonts\/[^/]+\/[^/]+$/i, owner: "none", refusal: NO_ROUTE_JSON },
  // GS1 Digital Link (issue 16): the resolver scopes its lookup to the host's brand itself (routes/gs1/router.ts).
  { path: /^\/01\/[^/]+(?:\/(?:10|21)\/[^/]+)*\/?$/, owner: "none", refusal: NO_ROUTE_JSON },
  { path: /^\/\.well-known\/gs1resolver$/, owner: "none", refusal: NO_ROUTE_JSON },
];

/** Longer than any UID (routes/dpp/schemas.ts): such a path is the route's 422 to give, not worth a lookup. */
const UID_MAX = 43;

export function hostRouting(deps: AppDeps): Middleware<AppState> {
  const sites = new SiteHosts(deps);
  // Not an async function: the main host, almost every request, passes straight on without a promise of its own.
  return (ctx, next) => {
    const kind = sites.classify(ctx.hostname);
    if (kind.kind === "main") return next();
    return sites.resolve(kind).then((host) => {
      if (host.site === "main") return next();
      if (host.site === "none") return refuse(ctx, pageOrJson(ctx, "Nothing is served at this address."));
      ctx.state.siteBrand = host.brand;
      return serveBrandSite(sites, ctx, next, host.brand);
    });
  };
}

/** An HTML page for a browser asking for a page, the JSON error otherwise. */
function pageOrJson(ctx: Context, notFound: string): Refusal {
  const html = !ctx.path.startsWith("/api/") && ctx.accepts("application/json", "text/html") === "text/html";
  return html ? { answer: "page", notFound } : NO_ROUTE_JSON;
}

async function serveBrandSite(sites: SiteHosts, ctx: Context, next: Next, brand: SiteBrand): Promise<void> {
  if (ctx.path === "/" && (ctx.method === "GET" || ctx.method === "HEAD")) {
    // The brand's home page is its profile; the access log shows the path it was served as.
    ctx.path = `/brand/${brand.slug}`;
    return next();
  }
  const route = BRAND_SITE_ROUTES.find((candidate) => candidate.path.test(ctx.path));
  if (!route) return refuse(ctx, pageOrJson(ctx, `This address serves ${brand.name}'s product passports and profile; there is no such page here.`));
  if (route.owner === "none") return next();
  const named = decoded(route.path.exec(ctx.path)![1]!);
  if (named === undefined) return refuse(ctx, route.refusal);
  if (route.owner === "slug") return named.toLowerCase() === brand.slug ? next() : refuse(ctx, route.refusal);
  if (named.length <= UID_MAX) {
    const owner = await sites.brandOfProduct(named);
    if (owner !== undefined && owner !== brand.id) return refuse(ctx, route.refusal);
  }
  return next();
}

/** A path segment as the router decodes it; undefined when it is not valid percent-encoding. */
function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** 404, in the words the route uses for what does not exist: nothing says that it exists on another address. */
function refuse(ctx: Context, refusal: Refusal): void {
  if (refusal.answer === "negotiated") ctx.vary("Accept");
  const page = refusal.answer === "page" || (refusal.answer === "negotiated" && ctx.accepts("application/json", "text/html") === "text/html");
  if (!page) throw new AppError(404, "NOT_FOUND", refusal.notFound);
  sendPage(ctx, errorPage(404, "Not found", refusal.answer === "negotiated" ? PASSPORT_ERRORS.notFound : refusal.notFound), "no-store");
}
