// Issue 16: the GS1 Digital Link resolver (/01/{gtin}/21/{serial}, linksets, /.well-known/gs1resolver).
// (Scaffold: filled in by the GS1 work.)
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import type { OpenApiRegistry } from "../../openapi/registry";

export function gs1Router(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  void deps;
  void openapi;
  return new Router<AppState>();
}
