// Orders for shoppers and the dashboard: placing an order of one product by one method (the price from our record,
// the plan, the method's keys and currency, the expiry), its first step at the gateway or its Cash QR; what a shopper
// may read of it with its secret; which methods the scan page offers; the brand's list and an order's history.
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { NotFoundError, RateLimitError } from "../errors";
import { cashierConfirmUrl, paymentCallbackUrl } from "../links";
import type { Logger } from "../logger";
import { parseAmount } from "../payments/amounts";
import { GatewayError, type StartResult } from "../payments/gateway";
import { PAYMENT_METHODS, planFeatures, type PaymentMethod } from "../plans/catalogue";
import { findProductByUid } from "../products/products.repo";
import { enabledMethods, gatewaySetup } from "./gateway-keys";
import { gatewayFor, gatewayOrderOf, GatewayUnavailableError, isGatewayMethod, METHOD_LABELS, MethodUnavailableError, SalesDisabledError } from "./gateways";
import { isOrderSecret, newCashToken, newOrderId, newReference, orderSecret } from "./order-secret";
import {
  findBrandSales,
  findOrder,
  insertOrder,
  insertTransition,
  listOrders,
  listRefunds,
  listTransitions,
  spendClientBudget,
  type BrandSales,
  type OrderContact,
  type OrderFilter,
  type OrderRecord,
  type RefundRow,
  type TransitionRow,
} from "./orders.repo";
import { nextCheckAt } from "./settlement";
import { refundability, type Refundability } from "./refunds";
import { applyTransition } from "./state-machine";

export type { OrderRecord };

export type OrderDeps = { db: Knex; config: Config; logger: Logger };

/** What the shopper does next: follow the gateway's page, or show the Cash QR (its URL; the route draws it). */
export type NextStep = { type: "redirect"; url: string } | { type: "cash_qr"; confirmUrl: string };

export type PlacedOrder = { order: OrderRecord; secret: string; next: NextStep };

/**
 * `siteBrandId`: the brand whose own host (subdomain or custom domain) the order is placed on; there, another brand's
 * product is not found, as on its scan pages.
 */
export type OrderRequest = { uid: string; method: PaymentMethod; contact?: OrderContact; clientIp: string; siteBrandId?: number };

/** The methods a brand offers for a product on its scan page, in a fixed order; none when it does not sell it. */
export async function availableMethods(deps: { db: Knex; config: Pick<Config, "payments"> }, brandId: number, product: { price: string; currency: string }): Promise<Array<{ method: PaymentMethod; label: string }>> {
  const brand = await findBrandSales(deps.db, brandId);
  if (!brand || salesProblem(brand, product) !== undefined) return [];
  const enabled = await enabledMethods(deps.db, brandId);
  return PAYMENT_METHODS.filter((method) => methodProblem(deps.config, brand, enabled, method, product.currency) === undefined).map((method) => ({ method, label: METHOD_LABELS[method] }));
}

/**
 * Places an order and takes its first step: a gateway payment created (the shopper is sent to its page), or a Cash
 * QR shown. The amount is the product's price now, in minor units; nothing of it comes from the request. A gateway
 * that fails at the start leaves the order failed with the reason and answers 502: the shopper may try again.
 */
export async function placeOrder(deps: OrderDeps, request: OrderRequest): Promise<PlacedOrder> {
  const product = await findProductByUid(deps.db, request.uid);
  if (!product || (request.siteBrandId !== undefined && product.brand_id !== request.siteBrandId)) throw new NotFoundError("Product");
  const brand = await findBrandSales(deps.db, product.brand_id);
  const notSelling = brand ? salesProblem(brand, product) : "the brand does not exist";
  if (!brand || notSelling) throw new SalesDisabledError(`This product cannot be bought here: ${notSelling}.`);
  const problem = methodProblem(deps.config, brand, await enabledMethods(deps.db, product.brand_id), request.method, product.currency);
  if (problem) throw new MethodUnavailableError(request.method, problem);
  const setup = isGatewayMethod(request.method) ? await gatewaySetup(deps, product.brand_id, request.method) : undefined;
  // Removed or switched off since the line above read it.
  if (isGatewayMethod(request.method) && !setup?.enabled) throw new MethodUnavailableError(request.method, "the brand has not set it up");

  const id = newOrderId();
  const expiresAt = new Date(Date.now() + deps.config.payments.orderTtlMinutes * 60_000);
  const cash = request.method === "cash_qr" ? newCashToken() : undefined;
  let order = await deps.db.transaction(async (trx) => {
    const created = await insertOrder(trx, {
      id,
      brandId: product.brand_id,
      productId: product.id,
      productName: product.name,
      uid: product.uid,
      method: request.method,
      amountMinor: parseAmount(product.price)!,
      currency: product.currency,
      reference: newReference(),
      contact: request.contact ?? {},
      clientIp: request.clientIp,
      cashQrTokenHash: cash?.hash ?? null,
      expiresAt,
      // Should the process stop before the order leaves `created`, the reconciliation job expires it on time.
      nextCheckAt: expiresAt,
    });
    await insertTransition(trx, { orderId: id, from: null, to: "created", reason: `order placed, to pay by ${METHOD_LABELS[request.method]}`, actor: "shopper" });
    if (!cash) return created;
    return (await applyTransition(trx, created, "pending", { reason: "Cash QR shown to the shopper", actor: "shopper", set: { nextCheckAt: expiresAt } }))!;
  });
  const secret = orderSecret(deps.config, id);
  const method = request.method;
  if (!isGatewayMethod(method)) return { order, secret, next: { type: "cash_qr", confirmUrl: cashierConfirmUrl(deps.config, id, cash!.token) } };

  let started: StartResult;
  try {
    started = await gatewayFor(deps.config, method).start(gatewayOrderOf(order), paymentCallbackUrl(deps.config, method), setup!.credentials);
  } catch (error) {
    const reason = error instanceof GatewayError ? error.message : "the gateway client failed";
    await deps.db.transaction((trx) => applyTransition(trx, order, "failed", { reason: `payment not started: ${reason}`, actor: `gateway:${method}`, set: { failureReason: reason } }));
    if (error instanceof GatewayError) {
      deps.logger.warn({ orderId: id, method, code: error.code, err: error.message }, "payment gateway failed at the start: order failed");
      throw new GatewayUnavailableError(method, `${error.message}. Nothing was charged; please try again.`);
    }
    throw error;
  }
  order =
    (await deps.db.transaction((trx) =>
      applyTransition(trx, order, "pending", {
        reason: `payment created at ${METHOD_LABELS[method]}; the shopper was sent to its page`,
        actor: `gateway:${method}`,
        set: { gatewayPaymentId: started.gatewayPaymentId, nextCheckAt: nextCheckAt(deps.config, 0, expiresAt) },
      }),
    )) ?? order;
  return { order, secret, next: { type: "redirect", url: started.redirectUrl } };
}

/**
 * Spends one unit of a client's hourly budget of the public order API (`place`: orders placed, `read`: status
 * reads); 429 with Retry-After once it is spent. `clientKey` is the address as the scan counter keys it.
 */
export async function chargeClientBudget(deps: { db: Knex; config: Pick<Config, "payments"> }, kind: "place" | "read", clientKey: string): Promise<void> {
  const limit = kind === "place" ? deps.config.payments.ordersPerClientHour : deps.config.payments.orderReadsPerClientHour;
  if (await spendClientBudget(deps.db, `order-${kind}:${clientKey}`, limit)) return;
  const secondsToHour = 3600 - Math.floor(Date.now() / 1000) % 3600;
  throw new RateLimitError(secondsToHour, kind === "place" ? `At most ${limit} orders an hour from one address.` : `At most ${limit} order reads an hour from one address.`);
}

/** An order as its shopper may read it: the secret must match, else it is "not found" (its existence is not told). */
export async function shopperOrder(
  deps: { db: Knex; config: Pick<Config, "secretsKey"> },
  id: string,
  secret: string | undefined,
  siteBrandId?: number,
): Promise<OrderRecord> {
  const valid = secret !== undefined && isOrderSecret(deps.config, id, secret);
  const order = valid ? await findOrder(deps.db, id, siteBrandId) : undefined;
  if (!order) throw new NotFoundError("Order");
  return order;
}

export function brandOrders(db: Knex, brandId: number, filter: OrderFilter): Promise<{ orders: OrderRecord[]; total: number }> {
  return listOrders(db, brandId, filter);
}

export type OrderDetail = { order: OrderRecord; transitions: TransitionRow[]; refunds: RefundRow[]; refund: Refundability };

/** One of the brand's orders with its history and refunds, and what may still be refunded. */
export async function brandOrder(deps: { db: Knex; config: Pick<Config, "payments"> }, brandId: number, id: string): Promise<OrderDetail> {
  const order = await findOrder(deps.db, id, brandId);
  if (!order) throw new NotFoundError("Order");
  const [transitions, refunds] = await Promise.all([listTransitions(deps.db, id), listRefunds(deps.db, id)]);
  return { order, transitions, refunds, refund: refundability(deps.config, order) };
}

/** Why a brand does not sell a product at all, or undefined when it does. */
function salesProblem(brand: BrandSales, product: { price: string }): string | undefined {
  if (brand.status !== "active") return "the brand's account is suspended";
  if (!brand.salesEnabled) return "the brand does not sell on its scan pages";
  if (!((parseAmount(product.price) ?? 0) > 0)) return "the product has no price";
  return undefined;
}

/** Why the brand cannot take `method` for a product in `currency`, or undefined when it can. */
function methodProblem(config: Pick<Config, "payments">, brand: BrandSales, enabled: Set<PaymentMethod>, method: PaymentMethod, currency: string): string | undefined {
  if (!planFeatures(brand.plan).paymentMethods.includes(method)) return `the brand's ${brand.plan} plan does not include it`;
  if (!enabled.has(method)) return "the brand has not set it up";
  if (isGatewayMethod(method) && !gatewayFor(config, method).currencies.includes(currency)) return `it does not take ${currency}`;
  return undefined;
}
