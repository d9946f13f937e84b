// Public orders and payment gateway callbacks (issue 13): a shopper places an order and reads it with its secret;
// bKash, Nagad and SSLCommerz send the shopper's browser (or, for SSLCommerz's IPN, their server) back here.
import type Router from "@koa/router";
import type { Context, Middleware } from "koa";
import getRawBody from "raw-body";
import type { AppDeps, AppState } from "../../deps";
import { AppError, ValidationError } from "../../errors";
import { orderStatusUrl } from "../../links";
import { htmlErrors, sendPage } from "../../middleware/page-response";
import { errorResponse, type OpenApiRegistry } from "../../openapi/registry";
import { orderSecret } from "../../orders/order-secret";
import { chargeClientBudget, placeOrder, shopperOrder } from "../../orders/service";
import { handleCallback, type CallbackOutcome } from "../../orders/settlement";
import { errorPage } from "../../pages/layout";
import type { CallbackInput, GatewayMethod } from "../../payments/gateway";
import { clientKeyOf } from "../../scans/scan-recorder";
import { defineRoute, HTML, mountRoutes } from "../define-route";
import { ok } from "../v1/router-base";
import { envelopeSchema } from "../v1/router-base";
import { presentPlacedOrder, presentShopperOrder } from "./presenter";
import { callbackQuery, gatewayForm, orderBody, orderIdParams, ORDERS_TAG, orderSecretQuery, placedOrderSchema, returnParams, shopperOrderSchema } from "./schemas";

const FORM_LIMIT_BYTES = 32 * 1024;
const FORM_MAX_FIELDS = 100;

const PLACED_EXAMPLE = {
  success: true,
  data: {
    order_id: "ord_4bX9k2LmQp7RtV1wYz3aCd",
    order_secret: "q1H0Yb9d3kQ2cW8m1tZr7sPpX4uVn6eJ0aLgFhKiDoM",
    status: "pending",
    method: "bkash",
    uid: "DEMO-7K3M9Q2X",
    product_name: "Organic Oxford Shirt",
    amount: "2450.00",
    amount_minor: 245000,
    currency: "BDT",
    expires_at: "2026-03-02T12:30:00.000Z",
    status_url: "https://dpp.example/orders/ord_4bX9k2LmQp7RtV1wYz3aCd#s=q1H0Yb9d3kQ2cW8m1tZr7sPpX4uVn6eJ0aLgFhKiDoM",
    next: { type: "redirect", url: "https://tokenized.pay.bka.sh/checkout?paymentID=TR0011ABCD1234" },
  },
};

const CALLBACK_RESPONSES = {
  "303": { description: "to the shopper's order status page (/orders/{order_id}#s=…), whatever became of the payment", contentType: "text/html", schema: { type: "string" } },
  "404": HTML("the callback names no order of ours: a page saying so; nothing changed"),
  "422": HTML("a malformed query: a page saying so; nothing changed"),
};

/** Spends the client's hourly budget of `kind` before anything else runs. */
function clientBudget(deps: AppDeps, kind: "place" | "read"): Middleware<AppState> {
  return async (ctx, next) => {
    await chargeClientBudget(deps, kind, clientKeyOf(ctx.ip));
    await next();
  };
}

/** A form-encoded body (SSLCommerz posts its fields so), bounded in size and in fields. */
async function readForm(ctx: Context): Promise<Record<string, string>> {
  if (!ctx.is("application/x-www-form-urlencoded")) throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the fields as application/x-www-form-urlencoded.");
  let text: string;
  try {
    text = await getRawBody(ctx.req, { length: ctx.get("Content-Length") || undefined, limit: FORM_LIMIT_BYTES, encoding: "utf8" });
  } catch (error) {
    if ((error as { status?: number }).status === 413) throw new AppError(413, "PAYLOAD_TOO_LARGE", `The body is larger than ${FORM_LIMIT_BYTES} bytes.`);
    throw new AppError(400, "BAD_REQUEST", "The request body could not be read.");
  }
  const form: Record<string, string> = {};
  const params = new URLSearchParams(text);
  for (const [name, value] of params) {
    if (Object.keys(form).length >= FORM_MAX_FIELDS) throw new ValidationError([{ field: "body", problem: `has more than ${FORM_MAX_FIELDS} fields` }]);
    if (value.length > 2000 || name.length > 100) throw new ValidationError([{ field: name.slice(0, 100), problem: "is too long" }]);
    form[name] ??= value;
  }
  return form;
}

/** The query as strings: a name sent twice keeps its first value (the schema bounds each). */
function queryOf(ctx: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(ctx.query).map(([name, value]) => [name, Array.isArray(value) ? value[0] ?? "" : value ?? ""]));
}

export function ordersRouter(deps: AppDeps, openapi: OpenApiRegistry): Router<AppState> {
  const { config } = deps;
  const pageErrors = htmlErrors(deps.logger, {
    notFound: "This payment does not match an order of ours.",
    invalid: "The payment gateway sent us back an address we cannot read. If you paid, contact the shop with the transaction number your gateway gave you.",
  });

  /** The shopper's browser after a gateway: to the order's status page, or a page saying no order matches. */
  const backToShopper = (ctx: Context, result: CallbackOutcome) => {
    ctx.set("Cache-Control", "no-store");
    if (result.outcome === "unknown") {
      sendPage(
        ctx,
        errorPage(404, "We could not find this payment", "This payment does not match an order of ours, so nothing was recorded. If money was taken, contact the shop with the transaction number your payment service gave you."),
        "no-store",
      );
      return;
    }
    ctx.redirect(orderStatusUrl(config, result.order.id, orderSecret(config, result.order.id)));
    ctx.status = 303;
  };
  const browserCallback = (method: GatewayMethod) => async (ctx: Context) => backToShopper(ctx, await handleCallback(deps, method, { query: queryOf(ctx) }));

  return mountRoutes(deps, openapi, [
    defineRoute({
      method: "post",
      path: "/api/orders",
      operationId: "placeOrder",
      tag: ORDERS_TAG,
      auth: "public",
      summary: "Buy a product from its scan page: place an order and learn the next step (the gateway's page, or a Cash QR)",
      description:
        "The amount is the product's price now (never taken from the request), in the product's currency. bKash and " +
        "Nagad take BDT only; SSLCommerz BDT, USD, EUR and GBP; Cash QR any currency. The method must be one the brand " +
        "has set up and switched on and its plan includes (Starter: bKash, Nagad, Cash QR; Growth and Enterprise: all " +
        "four). `order_secret` is shown once: it lets the shopper read the order. An unpaid order expires after " +
        "ORDER_TTL_MINUTES (30 by default). At most ORDERS_PER_CLIENT_HOUR orders an hour from one address.",
      before: [clientBudget(deps, "place")],
      body: orderBody,
      bodyExample: { uid: "DEMO-7K3M9Q2X", method: "bkash" },
      responses: {
        "201": { description: "the order, placed", schema: envelopeSchema(placedOrderSchema), example: PLACED_EXAMPLE },
        "404": errorResponse("no product with that UID"),
        "409": errorResponse(
          "SALES_DISABLED: the brand does not sell on its scan pages, or the product has no price; METHOD_UNAVAILABLE: the " +
            "method is not set up, switched off, not in the brand's plan, or does not take the currency (details say which)",
        ),
        "422": errorResponse("a missing or malformed field, named in details"),
        "429": errorResponse("RATE_LIMIT: too many orders from this address this hour; Retry-After says when to retry"),
        "502": errorResponse("GATEWAY_UNAVAILABLE: the gateway failed to start the payment; the order is failed and nothing was charged"),
      },
      handler: async (ctx) => {
        const { uid, method, contact } = ctx.state.input;
        const placed = await placeOrder(deps, { uid, method, contact: contact && { ...contact }, clientIp: ctx.ip, siteBrandId: ctx.state.siteBrand?.id });
        ctx.set("Cache-Control", "no-store");
        ok(ctx, await presentPlacedOrder(config, placed), 201);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/orders/:order_id",
      operationId: "getOrder",
      tag: ORDERS_TAG,
      auth: "public",
      summary: "Read an order with its secret: its state, and a sentence for the shopper",
      description:
        "Send the order secret as X-Order-Secret (or as `s` in the query). A wrong or missing secret answers 404, like an " +
        "order that does not exist. At most ORDER_READS_PER_CLIENT_HOUR reads an hour from one address. Cache-Control: no-store.",
      before: [clientBudget(deps, "read")],
      params: orderIdParams,
      query: orderSecretQuery,
      headers: [{ name: "X-Order-Secret", schema: { type: "string", maxLength: 64 }, description: "the order_secret POST /api/orders answered" }],
      responses: {
        "200": { description: "the order", schema: envelopeSchema(shopperOrderSchema) },
        "404": errorResponse("no such order, or not its secret"),
        "422": errorResponse("a malformed order id or query"),
        "429": errorResponse("RATE_LIMIT: too many reads from this address this hour"),
      },
      handler: async (ctx) => {
        const order = await shopperOrder(deps, ctx.params.order_id, ctx.get("X-Order-Secret") || ctx.query.s, ctx.state.siteBrand?.id);
        ctx.set("Cache-Control", "no-store");
        ok(ctx, presentShopperOrder(order));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/payments/bkash/callback",
      operationId: "bkashCallback",
      tag: ORDERS_TAG,
      auth: "public",
      summary: "bKash sends the shopper back here (callbackURL): the payment is executed at bKash, then verified",
      description:
        "The query only names the payment: the order is found by paymentID, and only bKash's own execute and status " +
        "answers, checked against the order (amount, currency, invoice number), move it. A replayed or late callback " +
        "changes nothing; an expired order is never executed.",
      query: callbackQuery({ paymentID: "bKash's payment id", status: "success, failure or cancel" }),
      before: [pageErrors],
      responses: CALLBACK_RESPONSES,
      handler: browserCallback("bkash"),
    }),
    defineRoute({
      method: "get",
      path: "/api/payments/nagad/callback",
      operationId: "nagadCallback",
      tag: ORDERS_TAG,
      auth: "public",
      summary: "Nagad sends the shopper back here (merchantCallbackURL): the payment is verified with Nagad",
      description: "The order is found by payment_ref_id; only Nagad's verify answer, checked against the order, moves it.",
      query: callbackQuery({ payment_ref_id: "Nagad's payment reference", order_id: "our merchant reference", status: "Nagad's status", status_code: "Nagad's status code", merchant: "the merchant id", message: "Nagad's message" }),
      before: [pageErrors],
      responses: CALLBACK_RESPONSES,
      handler: browserCallback("nagad"),
    }),
    defineRoute({
      method: "post",
      path: "/api/payments/sslcommerz/ipn",
      operationId: "sslcommerzIpn",
      tag: ORDERS_TAG,
      auth: "public",
      summary: "SSLCommerz's instant payment notification (server to server): verify_sign checked, then the validation API",
      description: "Form-encoded. Answers 200 once handled (a replay changes nothing), 404 when tran_id is no order of ours.",
      rawBody: ["application/x-www-form-urlencoded"],
      body: gatewayForm,
      responses: {
        "200": { description: "handled", contentType: "text/plain", schema: { type: "string" }, example: "OK" },
        "404": { description: "no order of ours has this tran_id; nothing changed", contentType: "text/plain", schema: { type: "string" }, example: "unknown transaction" },
        "413": errorResponse("a body over 32 KB"),
        "415": errorResponse("not form-encoded"),
        "422": errorResponse("too many or too long fields"),
      },
      handler: async (ctx) => {
        const form = await readForm(ctx);
        const result = await handleCallback(deps, "sslcommerz", { query: queryOf(ctx), form });
        ctx.type = "text/plain; charset=utf-8";
        ctx.status = result.outcome === "unknown" ? 404 : 200;
        ctx.body = result.outcome === "unknown" ? "unknown transaction" : "OK";
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/payments/sslcommerz/return/:outcome",
      operationId: "sslcommerzReturn",
      tag: ORDERS_TAG,
      auth: "public",
      summary: "SSLCommerz sends the shopper's browser back here (success_url, fail_url, cancel_url) with the payment's fields",
      description: "Handled like the IPN (whichever arrives first settles the order), then the browser goes to the order's page.",
      params: returnParams,
      rawBody: ["application/x-www-form-urlencoded"],
      body: gatewayForm,
      before: [pageErrors],
      responses: { ...CALLBACK_RESPONSES, "415": HTML("not form-encoded (a page)") },
      handler: async (ctx) => backToShopper(ctx, await handleCallback(deps, "sslcommerz", { query: queryOf(ctx), form: await readForm(ctx) } satisfies CallbackInput)),
    }),
  ]);
}
