// Dashboard orders, refunds, gateway keys and the cashier's Cash QR confirmation (issue 13).
import type Router from "@koa/router";
import type { AppDeps, AppState } from "../../../deps";
import { errorResponse, type OpenApiRegistry } from "../../../openapi/registry";
import { confirmCashOrder, lookupCashOrder } from "../../../orders/cash-qr";
import { gatewayKeysOverview, removeGatewayKeys, saveGatewayKeys, setSalesEnabled } from "../../../orders/gateway-keys";
import { refundOrder } from "../../../orders/refunds";
import { brandOrder, brandOrders } from "../../../orders/service";
import { actorOf } from "../../../team/service";
import { defineRoute, mountRoutes } from "../../define-route";
import { DASHBOARD_TAG, envelopeSchema, ok, pageOf } from "../base";
import { tillRoutes } from "./till-routes";
import { presentCashierLookup, presentGatewayKeys, presentOrder, presentOrderDetail } from "./presenter";
import {
  cashierBody,
  cashierConfirmSchema,
  cashierLookupSchema,
  gatewayKeysBody,
  gatewayKeysSchema,
  methodParams,
  orderDetailSchema,
  orderListQuery,
  orderListSchema,
  orderParams,
  refundBody,
  salesBody,
} from "./schemas";

const KEYS_NOTE =
  "Each method's fields and masked hints (a secret's last 4 characters; a non-secret such as a username whole); " +
  "secrets are never shown again once saved.";

export function dashboardOrdersRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "get",
      path: "/api/dashboard/orders",
      operationId: "dashboardOrders",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "The brand's orders, newest first, filtered by status, method or a search",
      query: orderListQuery,
      responses: {
        "200": { description: "a page of orders", schema: envelopeSchema(orderListSchema) },
        "422": errorResponse("an unknown filter or a malformed parameter, named in details"),
      },
      handler: async (ctx) => {
        const page = pageOf(ctx.query);
        const { orders, total } = await brandOrders(deps.db, ctx.state.brand.id, { state: ctx.query.status, method: ctx.query.method, q: ctx.query.q, limit: page.perPage, offset: page.offset });
        ok(ctx, { orders: orders.map(presentOrder), page: page.page, per_page: page.perPage, total });
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/orders/:order_id",
      operationId: "dashboardOrder",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "dashboard.read",
      summary: "One order: its state history, its refunds, and how much of it can still be refunded",
      params: orderParams,
      responses: {
        "200": { description: "the order", schema: envelopeSchema(orderDetailSchema) },
        "404": errorResponse("no such order in this brand"),
        "422": errorResponse("a malformed order id"),
      },
      handler: async (ctx) => ok(ctx, presentOrderDetail(await brandOrder(deps, ctx.state.brand.id, ctx.params.order_id))),
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/orders/:order_id/refund",
      operationId: "dashboardRefundOrder",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "orders.refund",
      summary: "Refund a verified order, in full or in part, through its gateway (Cash QR: cash handed back, recorded)",
      description:
        "bKash and SSLCommerz refund through their APIs; Nagad has none (409 NOT_REFUNDABLE: refund from its merchant " +
        "portal). Refunding all that is left makes the order refunded (refund_pending while the gateway settles it); a " +
        "part leaves it verified. Audited.",
      params: orderParams,
      body: refundBody,
      bodyExample: { amount_minor: 50000, reason: "Returned: wrong size" },
      responses: {
        "200": { description: "the order after the refund", schema: envelopeSchema(orderDetailSchema) },
        "404": errorResponse("no such order in this brand"),
        "409": errorResponse("NOT_REFUNDABLE: not verified, already refunded, a method without refunds, or the gateway refused; the message says why"),
        "422": errorResponse("a malformed field, or more than is left to refund"),
        "502": errorResponse("GATEWAY_UNAVAILABLE: the gateway did not answer; no refund was recorded"),
      },
      handler: async (ctx) => {
        const brandId = ctx.state.brand.id;
        const { amount_minor: amountMinor, reason } = ctx.state.input;
        await refundOrder(deps, brandId, actorOf(ctx.state.user), ctx.params.order_id, { amountMinor, reason });
        ok(ctx, presentOrderDetail(await brandOrder(deps, brandId, ctx.params.order_id)));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/dashboard/gateway-keys",
      operationId: "dashboardGatewayKeys",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "payments.manage",
      summary: "Gateway Keys: whether the brand sells, and each payment method (plan, keys set, switched on)",
      description: KEYS_NOTE,
      responses: { "200": { description: "the brand's payment setup", schema: envelopeSchema(gatewayKeysSchema) } },
      handler: async (ctx) => ok(ctx, presentGatewayKeys(await gatewayKeysOverview(deps, ctx.state.brand.id))),
    }),
    defineRoute({
      method: "put",
      path: "/api/dashboard/gateway-keys/:method",
      operationId: "dashboardSaveGatewayKeys",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "payments.manage",
      summary: "Save a gateway's keys (checked with the gateway first) and switch the method on or off",
      description:
        "The keys are tried with a cheap authenticated call to the gateway (bKash: a token grant) before anything is " +
        "kept; refused keys answer 422 GATEWAY_KEYS_REJECTED with the gateway's reason. Kept AES-256-GCM encrypted. " +
        "Without `credentials`, only switches a configured method. cash_qr takes no credentials. Audited without values. " +
        KEYS_NOTE,
      params: methodParams,
      body: gatewayKeysBody,
      bodyExample: { credentials: { username: "merchant-user", password: "merchant-password", app_key: "app-key-from-bkash", app_secret: "app-secret-from-bkash" }, enabled: true },
      responses: {
        "200": { description: "the brand's payment setup after the change", schema: envelopeSchema(gatewayKeysSchema) },
        "403": errorResponse("PLAN_FEATURE: the brand's plan does not include the method; or the role may not manage payments"),
        "422": errorResponse("VALIDATION_ERROR: a missing, unknown or too long field; GATEWAY_KEYS_REJECTED: the gateway refused the keys"),
        "502": errorResponse("GATEWAY_UNAVAILABLE: the gateway could not be reached to check the keys; nothing was saved"),
      },
      handler: async (ctx) => {
        const { credentials, enabled } = ctx.state.input;
        const overview = await saveGatewayKeys(deps, ctx.state.brand.id, actorOf(ctx.state.user), ctx.params.method, { credentials: credentials && { ...credentials }, enabled });
        ok(ctx, presentGatewayKeys(overview));
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/dashboard/gateway-keys/:method",
      operationId: "dashboardRemoveGatewayKeys",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "payments.manage",
      summary: "Remove a gateway's keys: the method is no longer offered",
      params: methodParams,
      responses: {
        "200": { description: "the brand's payment setup after the change", schema: envelopeSchema(gatewayKeysSchema) },
        "404": errorResponse("the method has no keys"),
        "422": errorResponse("not a payment method"),
      },
      handler: async (ctx) => ok(ctx, presentGatewayKeys(await removeGatewayKeys(deps, ctx.state.brand.id, actorOf(ctx.state.user), ctx.params.method))),
    }),
    defineRoute({
      method: "put",
      path: "/api/dashboard/sales",
      operationId: "dashboardSetSales",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "payments.manage",
      summary: "Turn selling on the brand's scan pages on or off",
      body: salesBody,
      bodyExample: { enabled: true },
      responses: {
        "200": { description: "the brand's payment setup after the change", schema: envelopeSchema(gatewayKeysSchema) },
        "422": errorResponse("`enabled` missing or not a boolean"),
      },
      handler: async (ctx) => ok(ctx, presentGatewayKeys(await setSalesEnabled(deps, ctx.state.brand.id, actorOf(ctx.state.user), ctx.state.input.enabled))),
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/cashier/lookup",
      operationId: "dashboardCashierLookup",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "orders.confirm",
      summary: "The order a Cash QR opens: product and amount, for the cashier to check before taking the cash",
      body: cashierBody,
      responses: {
        "200": { description: "the order", schema: envelopeSchema(cashierLookupSchema) },
        "404": errorResponse("no Cash QR order with this id and token"),
        "422": errorResponse("a malformed order id or token"),
      },
      handler: async (ctx) => {
        const { order, brandMatches } = await lookupCashOrder(deps.db, ctx.state.brand.id, ctx.state.input.order_id, ctx.state.input.token);
        ok(ctx, presentCashierLookup(order, brandMatches));
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/dashboard/cashier/confirm",
      operationId: "dashboardCashierConfirm",
      tag: DASHBOARD_TAG,
      auth: "session",
      permission: "orders.confirm",
      summary: "Confirm the cash was received: the order becomes paid and verified (order.paid, order.verified)",
      description: "Idempotent: confirming again answers the order with already_confirmed true and changes nothing. Audited with the cashier.",
      body: cashierBody,
      responses: {
        "200": { description: "the order, verified", schema: envelopeSchema(cashierConfirmSchema) },
        "404": errorResponse("no Cash QR order of this brand with this id and token"),
        "409": errorResponse("the order expired, was cancelled or failed: it cannot be confirmed"),
        "422": errorResponse("a malformed order id or token"),
      },
      handler: async (ctx) => {
        const { order, alreadyConfirmed } = await confirmCashOrder(deps.db, ctx.state.brand.id, actorOf(ctx.state.user), ctx.state.input.order_id, ctx.state.input.token);
        ok(ctx, { ...presentOrder(order), already_confirmed: alreadyConfirmed });
      },
    }),
    ...tillRoutes(deps),
  ]);
}
