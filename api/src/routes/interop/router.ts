// Issue 16: the passport as the EU market reads it: the UNTP credential by content negotiation on the passport URL,
// the service's did:web document and the Catena-X export. (Scaffold: filled in by the interop work.)
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import type { OpenApiRegistry } from "../../openapi/registry";

export function interopRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  void deps;
  void openapi;
  return new Router<AppState>();
}
