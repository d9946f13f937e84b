// The dashboard's sign-in, sign-out, own password, password resets and invitation links (/api/dashboard/session…).
import type Router from "@koa/router";
import type { Middleware } from "koa";
import type { AppDeps, AppState } from "../../../deps";
import { clearSessionCookie, CsrfError, sameOrigin as isSameOrigin, setSessionCookie } from "../../../middleware/brand-session";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import {
  acceptInvitation,
  changePassword,
  completePasswordReset,
  inspectInvitation,
  requestPasswordReset,
  signIn,
  signOut,
} from "../../../team/service";
import { defineRoute, mountRoutes } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentSession } from "./presenter";
import {
  acceptInvitationBody,
  changePasswordBody,
  inspectInvitationBody,
  invitationData,
  resetCompleteBody,
  resetRequestBody,
  sessionData,
  signInBody,
  signOutBody,
} from "./schemas";

export function dashboardSessionRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const mail = { db: deps.db, config: deps.config, mailer: deps.mailer };
  // The routes a signed-out browser calls: no session to carry a CSRF token yet, so they refuse other sites' origins.
  const ownOrigin = new URL(deps.config.publicBaseUrl).origin;
  const sameOrigin: Middleware<AppState> = async (ctx, next) => {
    if (!isSameOrigin(ctx, ownOrigin)) throw new CsrfError("The request came from another site.");
    ctx.set("Cache-Control", "no-store");
    await next();
  };
  const signedIn = { "200": { description: "signed in; the session cookie is set", schema: envelopeSchema(sessionData) } };

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/dashboard/session",
      operationId: "dashboardSignIn",
      tag: DASHBOARD_TAG,
      auth: "public",
      summary: "Sign in to the dashboard with email and password; sets the HttpOnly session cookie",
      description:
        "Throttled as operator logins are: after 3 failures in 15 minutes answers for that account slow down; after 10 " +
        "from one address the account is refused from that address for 15 minutes (429 RATE_LIMIT, Retry-After).",
      before: [sameOrigin],
      body: signInBody,
      bodyExample: { email: "owner@demo-brand.local", password: "…" },
      responses: {
        ...signedIn,
        "401": errorResponse("wrong email or password (UNAUTHORIZED)"),
        "403": errorResponse("sent from another site's page (CSRF_FAILED)"),
        "422": errorResponse("missing or invalid fields"),
        "429": errorResponse("too many failures; see Retry-After"),
      },
      handler: async (ctx) => {
        const session = await signIn(deps.db, deps.config, ctx.state.input.email, ctx.state.input.password, ctx.ip);
        setSessionCookie(ctx, deps.config, session);
        ok(ctx, presentSession(session.user));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/session",
      operationId: "dashboardSession",
      tag: DASHBOARD_TAG,
      auth: "session",
      // One's own session, so every role's, the cashier's included (who has no dashboard.read).
      permission: "account.own",
      summary: "The signed-in user, their brand, what their role allows, and the CSRF token",
      responses: { "200": { description: "the live session", schema: envelopeSchema(sessionData) } },
      handler: (ctx) => ok(ctx, presentSession(ctx.state.user)),
    }),
    defineRoute({
      method: "delete",
      path: "/api/dashboard/session",
      operationId: "dashboardSignOut",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "account.own",
      summary: "Sign out of this browser, or with {\"everywhere\": true} end every session of this user",
      body: signOutBody,
      bodyOptional: true,
      bodyExample: { everywhere: true },
      responses: { "204": { description: "signed out; the cookie is cleared" }, "422": errorResponse("invalid body") },
      handler: async (ctx) => {
        await signOut(deps.db, ctx.state.user, ctx.state.input.everywhere ?? false);
        clearSessionCookie(ctx, deps.config);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/password",
      operationId: "dashboardChangePassword",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "account.own",
      summary: "Change your own password (the current one is required); your other sessions end",
      body: changePasswordBody,
      responses: { "204": { description: "changed" }, "422": errorResponse("wrong current password, or the new one is too short") },
      handler: async (ctx) => {
        await changePassword(deps.db, ctx.state.user, ctx.state.input.current_password, ctx.state.input.password);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/password-resets",
      operationId: "dashboardRequestPasswordReset",
      tag: DASHBOARD_TAG,
      auth: "public",
      summary: "Email a password-reset link (valid 60 minutes) if the address has an account",
      description:
        "The answer is 202 whether or not the address has an account, after the same work, and the mail goes after the " +
        "answer, so neither the answer nor its timing tells who has an account. Throttled per client address and per " +
        "address and account (429 RATE_LIMIT, Retry-After); an account is sent at most 3 links an hour, whoever asks " +
        "(further requests are answered the same and send nothing).",
      before: [sameOrigin],
      body: resetRequestBody,
      responses: {
        "202": {
          description: "if the address has an account, a link is on its way",
          schema: envelopeSchema({ type: "object", additionalProperties: false, required: ["message"], properties: { message: { type: "string" } } }),
        },
        "422": errorResponse("invalid email"),
        "429": errorResponse("too many requests; see Retry-After"),
      },
      handler: async (ctx) => {
        const reset = await requestPasswordReset(mail, ctx.state.input.email, ctx.ip);
        ok(ctx, { message: "If the address has an account, a reset link is on its way." }, 202);
        // Sent once the answer is out, so the answer never waits for a mail server (nor shows whether there was a mail).
        ctx.res.once("close", () => {
          reset.send().catch((error: unknown) => deps.logger.error({ err: error }, "password reset mail not sent"));
        });
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/password-resets/complete",
      operationId: "dashboardCompletePasswordReset",
      tag: DASHBOARD_TAG,
      auth: "public",
      summary: "Set a new password with the token from a reset link; every session of the account ends",
      before: [sameOrigin],
      body: resetCompleteBody,
      responses: { "204": { description: "password set; sign in with it" }, "404": errorResponse("the link was used or has expired"), "422": errorResponse("password too short or too long") },
      handler: async (ctx) => {
        await completePasswordReset(deps.db, ctx.state.input.token, ctx.state.input.password);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/invitations/inspect",
      operationId: "dashboardInspectInvitation",
      tag: DASHBOARD_TAG,
      auth: "public",
      summary: "Who an invitation link is for (email, brand, role), before it is accepted",
      before: [sameOrigin],
      body: inspectInvitationBody,
      responses: { "200": { description: "the invitation", schema: envelopeSchema(invitationData) }, "404": errorResponse("the link was used or has expired"), "422": errorResponse("malformed token") },
      handler: async (ctx) => ok(ctx, await inspectInvitation(deps.db, ctx.state.input.token)),
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/invitations/accept",
      operationId: "dashboardAcceptInvitation",
      tag: DASHBOARD_TAG,
      auth: "public",
      summary: "Accept an invitation: choose a password and sign in",
      before: [sameOrigin],
      body: acceptInvitationBody,
      responses: { ...signedIn, "404": errorResponse("the link was used or has expired"), "422": errorResponse("password too short or too long") },
      handler: async (ctx) => {
        const { token, password, name } = ctx.state.input;
        const session = await acceptInvitation(deps.db, deps.config, token, password, name);
        setSessionCookie(ctx, deps.config, session);
        ok(ctx, presentSession(session.user));
      },
    }),
  ]);
}
