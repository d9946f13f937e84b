// The dashboard's team screen: members and invitations, roles, removal; and the brand's audit log.
import type Router from "@koa/router";
import { auditLog } from "../../../audit/service";
import type { AppDeps, AppState } from "../../../deps";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { actorOf, changeRole, inviteMember, listTeam, removeMember } from "../../../team/service";
import { defineRoute, mountRoutes } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentAudit, presentMember } from "./presenter";
import { auditQuery, auditSchema, invitationSchema, inviteBody, memberParams, memberSchema, roleBody } from "./schemas";

export function dashboardTeamRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const mail = { db: deps.db, config: deps.config, mailer: deps.mailer };
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/dashboard/team",
      operationId: "dashboardTeam",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "team.manage",
      summary: "The brand's team: members and pending invitations, with their roles",
      responses: { "200": { description: "the team", schema: envelopeSchema({ type: "array", items: memberSchema }) } },
      handler: async (ctx) => ok(ctx, (await listTeam(deps.db, ctx.state.brand.id)).map(presentMember)),
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/team/invitations",
      operationId: "dashboardInvite",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "team.manage",
      summary: "Invite someone by email with a role; the link (valid 72 hours) is emailed to them",
      description: "Inviting a pending address again sends a new link and cancels the old one. Only an owner may invite an owner.",
      body: inviteBody,
      bodyExample: { email: "cashier@example.com", role: "cashier" },
      responses: {
        "201": { description: "invited", schema: envelopeSchema(invitationSchema) },
        "409": errorResponse("the address already has an account (CONFLICT)"),
        "422": errorResponse("invalid email or role"),
        "503": errorResponse("no mail transport is configured"),
      },
      handler: async (ctx) => {
        const user = ctx.state.user;
        const invitation = await inviteMember(mail, { id: user.brand.id, name: user.brand.name }, actorOf(user), ctx.state.input);
        ok(ctx, { member: presentMember(invitation.user), expires_at: invitation.expiresAt.toISOString(), delivery: "email" }, 201);
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/dashboard/team/:id",
      operationId: "dashboardChangeRole",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "team.manage",
      summary: "Change a member's role (applies to their next request)",
      params: memberParams,
      body: roleBody,
      responses: {
        "200": { description: "the member", schema: envelopeSchema(memberSchema) },
        "404": errorResponse("no such member in this brand"),
        "409": errorResponse("the brand would be left without an owner"),
        "422": errorResponse("invalid role"),
      },
      handler: async (ctx) => ok(ctx, presentMember(await changeRole(deps.db, ctx.state.user, Number(ctx.params.id), ctx.state.input.role))),
    }),
    defineRoute({
      method: "delete",
      path: "/api/dashboard/team/:id",
      operationId: "dashboardRemoveMember",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "team.manage",
      summary: "Remove a member or cancel an invitation; their sessions end at once",
      params: memberParams,
      responses: { "204": { description: "removed" }, "404": errorResponse("no such member in this brand"), "409": errorResponse("the brand would be left without an owner") },
      handler: async (ctx) => {
        await removeMember(deps.db, ctx.state.user, Number(ctx.params.id));
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/audit",
      operationId: "dashboardAuditLog",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "team.manage",
      summary: "Who changed what: keys, branding, webhooks, issuance, products and the team, newest first",
      query: auditQuery,
      responses: { "200": { description: "a page of entries", schema: envelopeSchema(auditSchema) } },
      handler: async (ctx) => {
        const { before, limit, action } = ctx.query;
        ok(ctx, presentAudit(await auditLog(deps.db, ctx.state.brand.id, { before, limit: Number(limit ?? 50), action })));
      },
    }),
  ]);
}
