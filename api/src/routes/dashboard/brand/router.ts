// The dashboard's brand editor, logo, economic operator id, webhooks, API keys, plan and usage (/api/dashboard/…), and
// the public address of uploaded logos (/brand-assets/…).
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import type { OpenApiRegistry } from "../../../openapi/registry";
import { mountRoutes } from "../../define-route";
import { accountRoutes } from "./account-routes";
import { brandingRoutes } from "./branding-routes";
import { economicOperatorRoutes } from "./economic-operator-routes";
import { registryAutoRoutes } from "./registry-auto-routes";
import { webhookRoutes } from "./webhook-routes";

export function dashboardBrandRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [...brandingRoutes(deps), ...economicOperatorRoutes(deps), ...registryAutoRoutes(deps), ...webhookRoutes(deps), ...accountRoutes(deps)]);
}
