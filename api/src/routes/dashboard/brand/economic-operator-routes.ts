// The brand's economic operator id (EORI or GLN), read by every role that reads the brand's settings and set by those
// who may change them; passports name the brand by it (EN 18223 `economicOperatorId`).
import { economicOperatorOf, setEconomicOperatorId } from "../../../brands/economic-operator";
import type { AppDeps } from "../../../deps";
import { errorResponse } from "../../../openapi/registry";
import { actorOf } from "../../../team/service";
import { defineRoute, type Route } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok } from "../base";
import { presentEconomicOperator } from "./presenter";
import { economicOperatorBody, economicOperatorSchema } from "./schemas";

const PATH = "/api/dashboard/economic-operator";

export function economicOperatorRoutes(deps: AppDeps): Route[] {
  const { db } = deps;
  const response = (description: string) => ({ description, schema: envelopeSchema(economicOperatorSchema) });
  return [
    defineRoute({
      method: "get",
      path: PATH,
      operationId: "dashboardEconomicOperator",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The brand's economic operator id (EORI or GLN) that its passports name",
      responses: { "200": response("the identifier, or null") },
      handler: async (ctx) => ok(ctx, presentEconomicOperator(await economicOperatorOf(db, ctx.state.brand.id))),
    }),
    defineRoute({
      method: "put",
      path: PATH,
      operationId: "dashboardSetEconomicOperator",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "branding.write",
      summary: "Set the brand's economic operator id: an EORI (e.g. DE123456789012345) or a GLN; empty or null clears it",
      description: "Stored upper case without spaces. A change is recorded in the audit log with the value it replaced.",
      body: economicOperatorBody,
      bodyExample: { economic_operator_id: "DE123456789012345" },
      responses: {
        "200": response("the identifier as saved"),
        "422": errorResponse("VALIDATION_ERROR, details field economic_operator_id: not an EORI or a GLN, an unknown country code, or a GLN's wrong check digit"),
      },
      handler: async (ctx) => {
        const saved = await setEconomicOperatorId(db, ctx.state.brand, actorOf(ctx.state.user), ctx.state.input.economic_operator_id);
        ok(ctx, presentEconomicOperator(saved));
      },
    }),
  ];
}
