// The dashboard's products, imports, scans and the overview (/api/dashboard/…).
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import type { OpenApiRegistry } from "../../../openapi/registry";
import { mountRoutes } from "../../define-route";
import { importRoutes } from "./imports-routes";
import { insightRoutes } from "./insights-routes";
import { productRoutes } from "./products-routes";

export function dashboardProductsRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  // Imports first: /imports/template.csv must be matched before /imports/:id.
  return mountRoutes(deps, openapi, [...importRoutes(deps), ...productRoutes(deps), ...insightRoutes(deps)]);
}
