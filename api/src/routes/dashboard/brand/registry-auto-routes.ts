// The brand's automatic registration at the EU registry (docs/registry.md): read by every role that reads the brand's
// settings, turned on or off (audited) by those who may change the economic operator id beside it.
import type { AppDeps } from "../../../deps";
import type { JsonSchema } from "../../../validation";
import { automaticRegistrationOf, registrationJobOf, setAutomaticRegistration } from "../../../registry/registration";
import { actorOf } from "../../../team/service";
import { defineRoute, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";

const PATH = "/api/dashboard/registry-auto";

const ENABLED_DESCRIPTION =
  "true: every passport the brand issues, every new version of one, and every change of a registered header field (the economic operator id, a factory's GLN or Open Supply Hub id) is registered at the EU registry by itself";

const registryAutoBody = {
  type: "object",
  additionalProperties: false,
  required: ["enabled"],
  properties: { enabled: { type: "boolean", description: ENABLED_DESCRIPTION } },
} as const;

const registryAutoSchema: JsonSchema = registryAutoBody;

export function registryAutoRoutes(deps: AppDeps): Route[] {
  const { db } = deps;
  const response = (description: string) => ({ description, schema: envelopeSchema(registryAutoSchema) });
  return [
    defineRoute({
      method: "get",
      path: PATH,
      operationId: "dashboardRegistryAuto",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "Whether the brand's passports are registered at the EU registry automatically",
      responses: { "200": response("on or off") },
      handler: async (ctx) => ok(ctx, { enabled: await automaticRegistrationOf(db, ctx.state.brand.id) }),
    }),
    defineRoute({
      method: "put",
      path: PATH,
      operationId: "dashboardSetRegistryAuto",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "branding.write",
      summary: "Turn automatic registration at the EU registry on or off",
      description: "A change is recorded in the audit log (registry.automatic_on / registry.automatic_off).",
      body: registryAutoBody,
      bodyExample: { enabled: true },
      responses: { "200": response("the setting as saved") },
      handler: async (ctx) => {
        const { enabled } = ctx.state.input;
        await setAutomaticRegistration(db, ctx.state.brand, actorOf(ctx.state.user), enabled);
        if (enabled) registrationJobOf(deps).wake();
        ok(ctx, { enabled: await automaticRegistrationOf(db, ctx.state.brand.id) });
      },
    }),
  ];
}
