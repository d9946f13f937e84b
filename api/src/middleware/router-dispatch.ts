// Mounts the app's routers as one middleware that enters only the routers with a route for the request's path.
import type Router from "@koa/router";
import type { Context, Middleware, Next } from "koa";
import type { AppState } from "../deps";

/**
 * A router with its two middleware; `alwaysEntered` when it chooses by more than the path (a host, its own path).
 * `starts` are the lower-case literal beginnings of its layers' paths, read again when a route is added.
 */
type Mounted = {
  router: Router<AppState>;
  routes: Middleware<AppState>;
  allowedMethods: Middleware<AppState>;
  alwaysEntered: boolean;
  starts?: { layers: number; starts: string[] | undefined };
};

/**
 * The same answers as `app.use(router.routes()); app.use(router.allowedMethods({ throw: true }))` for each router in
 * turn, without entering the routers whose layers do not match the path. Entering one costs a request more than the
 * match: @koa/router reads ctx.host, emits its not-found event and chains two middleware, and a request for the 13th
 * router paid that twelve times before its own route ran.
 *
 * Skipping them changes nothing: a router whose layers do not match the path adds no layer to ctx.matched, runs no
 * middleware, and its allowedMethods answers from ctx.matched, which the routers that do match fill in the same way
 * (the first allowedMethods to see a 404 answers 405 or OPTIONS from the same list). A method no router implements
 * (TRACE, PROPFIND…) goes through every router as before, so the first allowedMethods still refuses it.
 */
export function dispatchRouters(routers: Array<Router<AppState>>): Middleware<AppState> {
  const mounted: Mounted[] = routers.map((router) => ({
    router,
    routes: router.routes() as unknown as Middleware<AppState>,
    allowedMethods: router.allowedMethods({ throw: true }) as unknown as Middleware<AppState>,
    alwaysEntered: router.opts.host !== undefined || router.opts.routerPath !== undefined,
  }));
  // Methods every router implements; any other is left to the full chain, whose allowedMethods answers it.
  const everywhere = new Set(routers[0]?.methods.filter((method) => routers.every((router) => router.methods.includes(method))));

  return (ctx, next) => {
    if (!everywhere.has(ctx.method)) return enter(ctx, next, mounted, 0, false, undefined);
    const path = ctx.path;
    return enter(ctx, next, mounted, 0, true, PRINTABLE_ASCII.test(path) ? path.toLowerCase() : undefined);
  };
}

/**
 * Runs the routers from `start` on: each that may match, with its allowedMethods after it, then the rest. Matched
 * lazily, one router at a time, so a route that answers (and does not call next) ends the search. Without
 * `skipping`, every router is entered. A module function, not a closure per request.
 */
function enter(ctx: Context, next: Next, mounted: Mounted[], start: number, skipping: boolean, lowerPath: string | undefined): Promise<void> {
  for (let i = start; i < mounted.length; i++) {
    const entry = mounted[i]!;
    if (skipping && !entry.alwaysEntered && !mayMatch(entry, ctx.path, ctx.method, lowerPath)) continue;
    return entry.routes(ctx, () => entry.allowedMethods(ctx, () => enter(ctx, next, mounted, i + 1, skipping, lowerPath))) as Promise<void>;
  }
  return next();
}

type LayerLike = { path: string | RegExp; opts: { pathAsRegExp?: boolean } };
const PATTERN_SYNTAX = /[:*(){}\\?+]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Whether a layer of the router matches the path: its regular expressions decide, and run only when the path begins
 * with a layer's literal part, compared in lower case as the router compares by default. Without `lowerPath` (a
 * path of more than printable ASCII), or when a layer's path is a regular expression, they run directly.
 */
function mayMatch(entry: Mounted, path: string, method: string, lowerPath: string | undefined): boolean {
  const stack = entry.router.stack as unknown as LayerLike[];
  if (entry.starts?.layers !== stack.length) entry.starts = { layers: stack.length, starts: literalStarts(stack) };
  const starts = entry.starts.starts;
  if (starts && lowerPath !== undefined) {
    let found = false;
    for (const start of starts) if ((found = lowerPath.startsWith(start))) break;
    if (!found) return false;
  }
  return entry.router.match(path, method).path.length > 0;
}

function literalStarts(stack: LayerLike[]): string[] | undefined {
  const starts: string[] = [];
  for (const layer of stack) {
    if (typeof layer.path !== "string" || layer.opts.pathAsRegExp) return undefined;
    const special = layer.path.search(PATTERN_SYNTAX);
    starts.push((special === -1 ? layer.path : layer.path.slice(0, special)).toLowerCase());
  }
  return starts;
}
