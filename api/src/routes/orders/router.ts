// Public orders and payment gateway callbacks (issue 13).
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import type { OpenApiRegistry } from "../../openapi/registry";
import { mountRoutes } from "../define-route";

export function ordersRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, []);
}
