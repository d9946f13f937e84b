// POST /api/login (spec 4.5): a bearer token for factory-write operations; POST /api/logout revokes it.
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../deps";
import { login, logout } from "../../auth/login";
import { UnauthorizedError } from "../../errors";
import { operatorToken } from "../../middleware/operator-auth";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { defineRoute, mountRoutes } from "../define-route";
import { loginBody, loginResponse, logoutBody } from "./schemas";

const TAG = "Factory operations";

export function authRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/login",
      operationId: "login",
      tag: TAG,
      auth: "public",
      summary: "Log in as a factory operator or admin; returns a bearer token valid for one hour",
      description:
        "Send the token as `Authorization: Bearer <token>` to the factory-write operations. After 3 failures in 15 " +
        "minutes answers to that account are slowed down (at most 2 s); after 10 from one client address that account " +
        "is refused from that address for 15 minutes (429 RATE_LIMIT with Retry-After), while other addresses can still " +
        "log in. One client address is slowed after 20 failures and refused after 100. Attempts are counted before the " +
        "password is checked, so parallel attempts cannot pass these limits.",
      body: loginBody,
      bodyExample: { email: "operator@demo-factory.local", password: "…" },
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
      handler: async (ctx) => {
        const { email, password } = ctx.state.input;
        ctx.set("Cache-Control", "no-store");
        ctx.body = await login(deps.db, email, password, ctx.ip);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/logout",
      operationId: "logout",
      tag: TAG,
      auth: "operator",
      summary: "Log out: revoke this bearer token, or with {\"all\": true} every session of the operator",
      description: "The body is optional. After 204 the token (or, with `all`, every token of the operator) answers 401.",
      body: logoutBody,
      bodyOptional: true,
      bodyExample: { all: true },
      responses: {
        "204": { description: "logged out; the token no longer works" },
        "401": errorResponse("missing, unknown, expired or already revoked token (UNAUTHORIZED)"),
        "422": errorResponse("invalid body"),
      },
      handler: async (ctx) => {
        // requireOperator has read a live token; it can only be gone now if a parallel logout revoked it first.
        if (!(await logout(deps.db, operatorToken(ctx.get("Authorization"))!, ctx.state.input.all))) {
          throw new UnauthorizedError("The token is unknown or expired; log in again.");
        }
        ctx.set("Cache-Control", "no-store");
        ctx.status = 204;
      },
    }),
  ]);
}
