// The shopper's order status page GET /orders/{order_id} and the script of the pages that take payment
// GET /assets/orders.js (the scan page's purchase section and that status page).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { AppDeps } from "../../deps";
import { htmlErrors, sendPage } from "../../middleware/page-response";
import { ORDER_ID_PATTERN } from "../../orders/order-secret";
import { availableMethods } from "../../orders/service";
import { orderStatusPage } from "../../pages/order-status";
import { ORDERS_SCRIPT_PATH, type PurchaseOffer } from "../../pages/purchase";
import type { PassportPage } from "../../passports/passport-page";
import { defineRoute, HTML, NOT_MODIFIED, type Route } from "../define-route";
import { sendAsset, staticAsset, type StaticAsset } from "../docs/assets";
import { requestLanguage } from "./language";

/** Read once: the script is static; it is compressed on its first request. */
const ORDERS_SCRIPT = readFileSync(path.join(__dirname, "..", "..", "assets", "orders.client.js"));
/** The script keeps its URL across deployments: short, and revalidated with the ETag. */
const SCRIPT_CACHE = "public, max-age=300";

const orderIdParam = {
  type: "object",
  required: ["order_id"],
  additionalProperties: false,
  properties: { order_id: { type: "string", pattern: ORDER_ID_PATTERN, maxLength: 26, description: "the order's id, as POST /api/orders answered it" } },
} as const;

/** What the scan page offers for the product: its price and the ways to pay; undefined when the brand does not sell it. */
export async function purchaseOffer(deps: AppDeps, view: PassportPage): Promise<PurchaseOffer | undefined> {
  const product = view.passport.product;
  const methods = await availableMethods(deps, product.brand_id, product);
  return methods.length > 0 ? { uid: view.record.uid, price: product.price, currency: product.currency, methods } : undefined;
}

export function orderPageRoutes(deps: AppDeps): Route[] {
  let script: Promise<StaticAsset> | undefined;
  return [
    defineRoute({
      method: "get",
      path: "/orders/:order_id",
      operationId: "getOrderPage",
      tag: "Pages",
      auth: "public",
      summary: "The shopper's order status page: product, amount, state in words and, once paid, a receipt",
      description:
        "Where a payment gateway sends the shopper's browser back, as /orders/{order_id}#s=<order_secret>. The fragment " +
        "never reaches the server: the page's script keeps the secret in the tab's sessionStorage, removes it from the " +
        "address and reads the order with GET /api/orders/{order_id} and the X-Order-Secret header until it settles. " +
        "The server renders the same page for every well-formed order id, so the page tells nobody whether an order " +
        "exists; without a secret it says so. Cache-Control: no-store.",
      params: orderIdParam,
      before: [
        htmlErrors(deps.logger, {
          notFound: "There is no such page.",
          invalid: "An order address ends in an order number such as ord_4bX9k2LmQp7RtV1wYz3aCd; this one does not.",
        }),
      ],
      responses: { "200": HTML("HTML page"), "422": HTML("not an order id (HTML page)") },
      handler: (ctx) => {
        sendPage(ctx, orderStatusPage(ctx.params.order_id, requestLanguage(ctx)), "no-store");
      },
    }),
    defineRoute({
      method: "get",
      path: ORDERS_SCRIPT_PATH,
      operationId: "getOrdersScript",
      tag: "Pages",
      auth: "public",
      summary: "The script of the scan page's purchase section and of the order status page",
      responses: {
        "200": { description: "the script (gzip when accepted)", contentType: "application/javascript", schema: { type: "string" }, example: "(function () { … })();" },
        "304": NOT_MODIFIED,
      },
      handler: async (ctx) => {
        script ??= staticAsset("application/javascript; charset=utf-8", ORDERS_SCRIPT);
        sendAsset(ctx, await script, SCRIPT_CACHE);
      },
    }),
  ];
}
