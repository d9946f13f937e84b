// What orders need to know about payment methods: the process's gateway clients (one set per configuration, so a
// bKash token cached by one request serves the next), each method's label, the order's view for a gateway, and the
// stable errors of the order API.
import type { Config } from "../config";
import { AppError } from "../errors";
import { paymentGateways, type GatewayMethod, type GatewayOrder, type PaymentGateway } from "../payments/gateway";
import type { PaymentMethod } from "../plans/catalogue";
import type { OrderRecord } from "./orders.repo";

/** How the scan page and the dashboard name each method. */
export const METHOD_LABELS: Readonly<Record<PaymentMethod, string>> = Object.freeze({
  bkash: "bKash",
  nagad: "Nagad",
  sslcommerz: "Card (SSLCommerz)",
  cash_qr: "Cash QR",
});

const registries = new WeakMap<Config["payments"], Record<GatewayMethod, PaymentGateway>>();

/** The gateway client of `method`, made once per configuration. */
export function gatewayFor(config: Pick<Config, "payments">, method: GatewayMethod): PaymentGateway {
  let registry = registries.get(config.payments);
  if (!registry) {
    registry = paymentGateways(config.payments);
    registries.set(config.payments, registry);
  }
  return registry[method];
}

export function isGatewayMethod(method: PaymentMethod): method is GatewayMethod {
  return method !== "cash_qr";
}

/** The order as a gateway client sees it. */
export function gatewayOrderOf(order: OrderRecord): GatewayOrder {
  return {
    orderId: order.id,
    reference: order.reference,
    amountMinor: order.amountMinor,
    currency: order.currency,
    productName: order.productName,
    uid: order.uid,
    customer: order.contact,
    clientIp: order.clientIp ?? "127.0.0.1",
    gatewayPaymentId: order.gatewayPaymentId,
    gatewayTrxId: order.gatewayTrxId,
  };
}

/** 409: the brand does not sell (sales off, suspended) or the product has no price. */
export class SalesDisabledError extends AppError {
  constructor(message: string) {
    super(409, "SALES_DISABLED", message);
  }
}

/** 409: the method is not configured, switched off, outside the brand's plan, or does not take the currency. */
export class MethodUnavailableError extends AppError {
  constructor(method: PaymentMethod, problem: string) {
    super(409, "METHOD_UNAVAILABLE", `${METHOD_LABELS[method]} is not available for this product: ${problem}.`, [{ field: "method", problem }]);
  }
}

/** 502: the gateway could not be reached, timed out or answered with an error; nothing was charged. */
export class GatewayUnavailableError extends AppError {
  constructor(method: PaymentMethod, message: string) {
    super(502, "GATEWAY_UNAVAILABLE", `${METHOD_LABELS[method]} did not answer as expected: ${message}`);
  }
}

/** 409: the order cannot be refunded (its state, its method, or nothing left to refund). */
export class NotRefundableError extends AppError {
  constructor(message: string) {
    super(409, "NOT_REFUNDABLE", message);
  }
}

/** 422: the gateway refused the credentials when we tried them; nothing was saved. */
export class GatewayKeysRejectedError extends AppError {
  constructor(method: PaymentMethod, reason: string) {
    super(422, "GATEWAY_KEYS_REJECTED", `${METHOD_LABELS[method]} refused these keys: ${reason}`);
  }
}

