// Authenticates dashboard requests: the HttpOnly session cookie, the CSRF token on every state-changing request,
// and the route's permission against the user's role (team/roles.ts), all on the server.
import { timingSafeEqual } from "node:crypto";
import type { Context, Middleware } from "koa";
import type { Config } from "../config";
import type { AppDeps, AppState } from "../deps";
import { AppError, BrandInactiveError, ForbiddenError, UnauthorizedError } from "../errors";
import { ALLOWED_WHILE_SUSPENDED, can, type Permission } from "../team/roles";
import { sessionUser, type NewSession } from "../team/service";

export const CSRF_HEADER = "X-CSRF-Token";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The session cookie's name: with the __Host- prefix when it is Secure, so no subdomain can set or shadow it. */
export function sessionCookieName(config: Config): string {
  return config.dashboard.secureCookies ? "__Host-pr_session" : "pr_session";
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure behind TLS, expiring with the session. */
export function setSessionCookie(ctx: Context, config: Config, session: NewSession): void {
  trustConfiguredTls(ctx, config);
  ctx.cookies.set(sessionCookieName(config), session.token, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.dashboard.secureCookies,
    path: "/",
    expires: session.expiresAt,
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: Context, config: Config): void {
  trustConfiguredTls(ctx, config);
  ctx.cookies.set(sessionCookieName(config), "", { httpOnly: true, sameSite: "lax", secure: config.dashboard.secureCookies, path: "/", maxAge: 0, overwrite: true });
}

/**
 * Behind a TLS-terminating proxy that is not trusted for X-Forwarded-Proto (TRUSTED_PROXY_HOPS=0), Koa sees plain
 * HTTP and would refuse to send a Secure cookie; an https PUBLIC_BASE_URL says browsers reach us over TLS.
 */
function trustConfiguredTls(ctx: Context, config: Config): void {
  if (config.dashboard.secureCookies) ctx.cookies.secure = true;
}

/**
 * Whether the request's Origin (when the browser sent one) is this service: its public URL, or the scheme and host
 * the request was made to. (Koa 3's ctx.origin echoes the Origin header, so it cannot be the comparison.)
 */
export function sameOrigin(ctx: Context, ownOrigin: string): boolean {
  const origin = ctx.get("Origin");
  return !origin || origin === ownOrigin || origin === `${ctx.protocol}://${ctx.host}`;
}

/** A request refused for its CSRF token or origin (403 CSRF_FAILED): the page should reload its session. */
export class CsrfError extends AppError {
  constructor(message: string) {
    super(403, "CSRF_FAILED", message);
  }
}

/**
 * Requires a live session whose role holds `permission`. State-changing methods also need the session's CSRF token
 * in X-CSRF-Token and, when the browser sends Origin, this service's own origin: another site can make a browser send
 * the cookie (SameSite=Lax lets top-level POSTs through in old browsers), but it cannot read the token. A suspended
 * brand's users may read, and change only their own account (ALLOWED_WHILE_SUSPENDED): any other write is 403
 * BRAND_INACTIVE.
 */
export function requireBrandUser(deps: AppDeps, permission: Permission): Middleware<AppState> {
  const ownOrigin = new URL(deps.config.publicBaseUrl).origin;
  return async (ctx, next) => {
    const token = ctx.cookies.get(sessionCookieName(deps.config));
    if (!token || token.length > 200) throw new UnauthorizedError("Sign in to the dashboard first.");
    const user = await sessionUser(deps.db, deps.config, token);
    if (!user) throw new UnauthorizedError("Your session has ended; sign in again.");
    if (!SAFE_METHODS.has(ctx.method)) {
      if (!sameOrigin(ctx, ownOrigin)) throw new CsrfError("The request came from another site.");
      const sent = Buffer.from(ctx.get(CSRF_HEADER), "utf8");
      const expected = Buffer.from(user.csrfToken, "utf8");
      if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
        throw new CsrfError(`Missing or wrong ${CSRF_HEADER} header; reload the dashboard.`);
      }
      if (user.brand.status !== "active" && !ALLOWED_WHILE_SUSPENDED.has(permission)) throw new BrandInactiveError();
    }
    if (!can(user.role, permission)) throw new ForbiddenError(`Your role (${user.role}) may not do this.`);
    ctx.state.user = user;
    ctx.state.brand = user.brand;
    ctx.set("Cache-Control", "no-store");
    await next();
  };
}
