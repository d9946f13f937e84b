// Caddy's on-demand TLS ask endpoint (issue 14).
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import type { OpenApiRegistry } from "../../openapi/registry";
import { mountRoutes } from "../define-route";

export function tlsAskRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, []);
}
