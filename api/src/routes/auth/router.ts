// POST /api/login (spec 4.5): a bearer token for factory-write operations.
import Router from "@koa/router";
import type { AppDeps, AppState } from "../../app";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { validateBody } from "../../validation";
import { loginBody, loginResponse } from "./schemas";
import { login } from "./service";

export function authRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const router = new Router<AppState>();

  router.post("/api/login", validateBody(loginBody), async (ctx) => {
    const { email, password } = ctx.state.input as { email: string; password: string };
    ctx.set("Cache-Control", "no-store");
    ctx.body = await login(deps.db, email, password, ctx.ip);
  });

  openapi.add({
    method: "post",
    path: "/api/login",
    tag: "Factory operations",
    summary: "Log in as a factory operator or admin; returns a bearer token valid for one hour",
    description:
      "Send the token as `Authorization: Bearer <token>` to the factory-write operations. After 3 failures in 15 " +
      "minutes answers to that account are slowed down; after 10 it is refused for 15 minutes (429 RATE_LIMIT with " +
      "Retry-After). One client address is slowed after 20 failures and refused after 100.",
    requestBody: { schema: loginBody, example: { email: "operator@demo-factory.local", password: "…" } },
    responses: {
      "200": {
        description: "logged in",
        schema: loginResponse,
        example: { token: "prs_…", token_type: "Bearer", expires_in: 3600, expires_at: "2026-11-22T10:00:00.000Z", operator: { email: "operator@demo-factory.local", role: "operator", factory_id: 1001 } },
      },
      "401": errorResponse("wrong email or password (UNAUTHORIZED)"),
      "422": errorResponse("missing or invalid fields"),
      "429": errorResponse("too many failures; see Retry-After"),
    },
  });
  return router;
}
