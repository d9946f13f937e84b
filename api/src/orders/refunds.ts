// Refunds from the dashboard: full or partial, through the gateway's refund API (bKash, SSLCommerz), or recorded as
// cash handed back at the till (Cash QR). The amount is reserved on the order before the gateway is asked, so two
// refunds at once can never together exceed what was paid. Nagad has no refund API: its orders are not refundable.
import { recordAudit, type Actor } from "../audit/service";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { NotFoundError, ValidationError } from "../errors";
import type { Logger } from "../logger";
import { formatAmount } from "../payments/amounts";
import { GatewayError } from "../payments/gateway";
import { gatewaySetup } from "./gateway-keys";
import { gatewayFor, gatewayOrderOf, GatewayUnavailableError, isGatewayMethod, METHOD_LABELS, NotRefundableError } from "./gateways";
import { findOrder, rescheduleRefund, reserveRefund, settleRefund, unsettledRefunds, type DueRefund, type OrderRecord } from "./orders.repo";
import { backoffMs } from "./settlement";
import { actorName, applyTransition } from "./state-machine";

export type Refundability = { refundable: true; refundableMinor: number } | { refundable: false; refundableMinor: 0; reason: string };

/** Whether the order can be refunded now, and how much of it. */
export function refundability(config: Pick<Config, "payments">, order: OrderRecord): Refundability {
  const no = (reason: string): Refundability => ({ refundable: false, refundableMinor: 0, reason });
  if (isGatewayMethod(order.method) && !gatewayFor(config, order.method).refundSupported) {
    return no(`${METHOD_LABELS[order.method]} offers no refund through its API: refund the shopper from its merchant portal.`);
  }
  if (order.state !== "verified") return no(`Only a verified payment can be refunded; this order is ${order.state}.`);
  const left = order.amountMinor - order.refundedMinor;
  return left > 0 ? { refundable: true, refundableMinor: left } : no("The whole amount has been refunded already.");
}

/**
 * Refunds `amountMinor` (all that is left when not given) of a verified order. A refund of everything that is left
 * moves the order to refunded, or refund_pending while the gateway settles it; a partial one leaves it verified.
 * Audited. A gateway that does not answer: 502 and nothing recorded as refunded; one that refuses: 409.
 */
export async function refundOrder(
  deps: { db: Knex; config: Config; logger: Logger },
  brandId: number,
  actor: Actor,
  orderId: string,
  request: { amountMinor?: number; reason: string },
): Promise<OrderRecord> {
  const order = await findOrder(deps.db, orderId, brandId);
  if (!order) throw new NotFoundError("Order");
  const can = refundability(deps.config, order);
  if (!can.refundable) throw new NotRefundableError(can.reason);
  const amount = request.amountMinor ?? can.refundableMinor;
  if (amount > can.refundableMinor) {
    throw new ValidationError([{ field: "amount_minor", problem: `must be at most ${can.refundableMinor} (${formatAmount(can.refundableMinor)} ${order.currency} is left to refund)` }]);
  }
  const refundId = await deps.db.transaction((trx) => reserveRefund(trx, order.id, amount, request.reason, actorName(actor)));
  if (refundId === undefined) throw new NotRefundableError("The order changed meanwhile (another refund?); reload it and try again.");

  let result: { refundId: string; state: "refunded" | "pending" };
  if (!isGatewayMethod(order.method)) {
    result = { refundId: `cash-${refundId}`, state: "refunded" };
  } else {
    const setup = await gatewaySetup(deps, brandId, order.method);
    try {
      if (!setup) throw new GatewayError(order.method, "NO_KEYS", "the brand's gateway keys were removed", false);
      result = await gatewayFor(deps.config, order.method).refund(gatewayOrderOf(order), amount, request.reason, setup.credentials);
    } catch (error) {
      await deps.db.transaction((trx) => settleRefund(trx, refundId, { state: "failed" }));
      if (!(error instanceof GatewayError)) throw error;
      deps.logger.warn({ orderId, method: order.method, code: error.code, err: error.message }, "refund failed at the gateway");
      // A timeout leaves it unknown whether the gateway refunded: say so rather than invite a second refund.
      if (error.retryable) throw new GatewayUnavailableError(order.method, `${error.message}. No refund was recorded; check the gateway's merchant portal before trying again.`);
      throw new NotRefundableError(`${METHOD_LABELS[order.method]} refused the refund: ${error.message}`);
    }
  }

  return deps.db.transaction(async (trx) => {
    await settleRefund(trx, refundId, { state: result.state, gatewayRefundId: result.refundId, nextCheckAt: new Date(Date.now() + backoffMs(deps.config, 0)) });
    const current = (await findOrder(trx, order.id))!;
    const whole = current.refundedMinor >= current.amountMinor;
    const after = whole
      ? await applyTransition(trx, current, result.state === "refunded" ? "refunded" : "refund_pending", {
          reason: `refunded ${formatAmount(amount)} ${order.currency}${result.state === "pending" ? " (the gateway is settling it)" : ""}: ${request.reason}`,
          actor: actorName(actor),
        })
      : undefined;
    await recordAudit(trx, brandId, actor, {
      action: "order.refunded",
      target: order.id,
      details: { amount: formatAmount(amount), currency: order.currency, state: result.state, reason: request.reason },
    });
    return after ?? (await findOrder(trx, order.id))!;
  });
}

/**
 * Asks the gateway where a pending refund stands (reconciliation job): refunded (the order becomes refunded once its
 * last refund settles), failed (the amount is refundable again; a full refund's order is verified again), or pending.
 */
export async function checkRefund(deps: { db: Knex; config: Config; logger: Logger }, refund: DueRefund): Promise<void> {
  const order = (await findOrder(deps.db, refund.orderId))!;
  const later = () => rescheduleRefund(deps.db, refund.id, new Date(Date.now() + backoffMs(deps.config, refund.checkAttempts)));
  const gateway = isGatewayMethod(order.method) ? gatewayFor(deps.config, order.method) : undefined;
  const setup = gateway && (await gatewaySetup(deps, order.brandId, gateway.method));
  if (!gateway?.refundStatus || !setup || refund.gatewayRefundId === null) {
    deps.logger.warn({ orderId: order.id, refundId: refund.id }, "a pending refund cannot be checked (no refund status API or no keys)");
    return later();
  }
  let state: "refunded" | "pending" | "failed";
  try {
    state = await gateway.refundStatus(gatewayOrderOf(order), refund.gatewayRefundId, setup.credentials);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.logger.info({ orderId: order.id, refundId: refund.id, code: error.code }, "refund status: the gateway did not answer; asking again later");
    return later();
  }
  if (state === "pending") return later();
  await deps.db.transaction(async (trx) => {
    await settleRefund(trx, refund.id, { state });
    const current = (await findOrder(trx, order.id))!;
    if (current.state !== "refund_pending") return;
    if (state === "failed") await applyTransition(trx, current, "verified", { reason: `${METHOD_LABELS[order.method]} refused the refund after all`, actor: "reconciliation" });
    else if ((await unsettledRefunds(trx, order.id)) === 0) await applyTransition(trx, current, "refunded", { reason: `${METHOD_LABELS[order.method]} settled the refund`, actor: "reconciliation" });
  });
  if (state === "failed") deps.logger.warn({ orderId: order.id, refundId: refund.id }, "the gateway refused a refund it had accepted");
}
