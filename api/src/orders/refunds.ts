// Refunds from the dashboard: full or partial, through the gateway's refund API (bKash, SSLCommerz), or recorded as
// cash handed back at the till (Cash QR). The amount is reserved on the order before the gateway is asked, so two
// refunds at once can never together exceed what was paid; a refund whose answer is lost keeps it reserved (the
// order is refund_unknown) until the gateway says whether it was made. Nagad has no refund API: its orders are not
// refundable.
import { recordAudit, type Actor } from "../audit/service";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { NotFoundError, ValidationError } from "../errors";
import type { Logger } from "../logger";
import { formatAmount } from "../payments/amounts";
import { GatewayError, type LostRefund } from "../payments/gateway";
import { gatewaySetup } from "./gateway-keys";
import { gatewayFor, gatewayOrderOf, GatewayUnavailableError, isGatewayMethod, METHOD_LABELS, NotRefundableError } from "./gateways";
import { findOrder, knownRefundIds, markRefundUnknown, rescheduleRefund, reserveRefund, settleRefund, unsettledRefunds, type DueRefund, type OrderRecord } from "./orders.repo";
import { backoffMs } from "./settlement";
import { actorName, applyTransition } from "./state-machine";

export type Refundability = { refundable: true; refundableMinor: number } | { refundable: false; refundableMinor: 0; reason: string };

/** Whether the order can be refunded now, and how much of it. */
export function refundability(config: Pick<Config, "payments">, order: OrderRecord): Refundability {
  const no = (reason: string): Refundability => ({ refundable: false, refundableMinor: 0, reason });
  if (isGatewayMethod(order.method) && !gatewayFor(config, order.method).refundSupported) {
    return no(`${METHOD_LABELS[order.method]} offers no refund through its API: refund the shopper from its merchant portal.`);
  }
  if (order.state === "refund_unknown") {
    const label = METHOD_LABELS[order.method];
    return no(`${label} did not answer a refund, so whether it was made is not known yet; nothing else can be refunded until ${label} says (checked automatically).`);
  }
  if (order.state !== "verified") return no(`Only a verified payment can be refunded; this order is ${order.state}.`);
  const left = order.amountMinor - order.refundedMinor;
  return left > 0 ? { refundable: true, refundableMinor: left } : no("The whole amount has been refunded already.");
}

/**
 * Refunds `amountMinor` (all that is left when not given) of a verified order. A refund of everything that is left
 * moves the order to refunded, or refund_pending while the gateway settles it; a partial one leaves it verified.
 * Audited. A gateway that refuses: 409, nothing refunded. One whose answer is lost (a time-out, a 5xx, garbage) may
 * have refunded: 502, and the order is refund_unknown with the amount still reserved, so no second refund can pay it
 * again, until the reconciliation job learns from the gateway what became of it (settleUnknownRefund).
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
      if (error instanceof GatewayError && error.retryable) {
        await holdUnknownRefund(deps, order, refundId, { actor, amount, reason: request.reason, error });
        const label = METHOD_LABELS[order.method];
        throw new GatewayUnavailableError(
          order.method,
          `${error.message}. Whether ${label} refunded is not known yet: the ${formatAmount(amount)} ${order.currency} stay reserved and the order cannot be refunded again until ${label} says (checked automatically).`,
        );
      }
      await deps.db.transaction((trx) => settleRefund(trx, refundId, { state: "failed" }));
      if (!(error instanceof GatewayError)) throw error;
      deps.logger.warn({ orderId, method: order.method, code: error.code, err: error.message }, "refund refused by the gateway");
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
 * A refund whose answer was lost: recorded as unknown (its amount stays reserved), the order moved to refund_unknown,
 * audited, and due for the reconciliation job's question to the gateway after the first back-off.
 */
async function holdUnknownRefund(
  deps: { db: Knex; config: Config; logger: Logger },
  order: OrderRecord,
  refundId: number,
  refund: { actor: Actor; amount: number; reason: string; error: GatewayError },
): Promise<void> {
  const label = METHOD_LABELS[order.method];
  deps.logger.warn({ orderId: order.id, method: order.method, code: refund.error.code, err: refund.error.message }, "refund answer lost: refund_unknown until the gateway says");
  await deps.db.transaction(async (trx) => {
    if (!(await markRefundUnknown(trx, refundId, new Date(Date.now() + backoffMs(deps.config, 0))))) return;
    const current = (await findOrder(trx, order.id))!;
    if (current.state === "verified") {
      await applyTransition(trx, current, "refund_unknown", {
        reason: `refund of ${formatAmount(refund.amount)} ${order.currency}: ${label} did not answer (${refund.error.message}); asking ${label} whether it was made`,
        actor: actorName(refund.actor),
      });
    }
    await recordAudit(trx, order.brandId, refund.actor, {
      action: "order.refund_unknown",
      target: order.id,
      details: { amount: formatAmount(refund.amount), currency: order.currency, reason: refund.reason, error: refund.error.message },
    });
  });
}

/**
 * Asks the gateway where a pending refund stands (reconciliation job): refunded (the order becomes refunded once its
 * last refund settles), failed (the amount is refundable again; a full refund's order is verified again), or pending.
 */
export async function checkRefund(deps: { db: Knex; config: Config; logger: Logger }, refund: DueRefund): Promise<void> {
  if (refund.state === "unknown") return settleUnknownRefund(deps, refund);
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

/**
 * Settles a refund whose answer was lost (reconciliation job) by asking the gateway's own record: made, it is recorded
 * as the gateway answered it (the order refunded, refund_pending, or verified again for a part); not made, its amount
 * is refundable again and the order verified. While the gateway does not answer, will not say, or cannot be asked
 * (SSLCommerz finds a refund only by the id it answered), it stays unknown and reserved, asked again with back-off:
 * never released as failed on a guess.
 */
export async function settleUnknownRefund(deps: { db: Knex; config: Config; logger: Logger }, refund: DueRefund): Promise<void> {
  const order = (await findOrder(deps.db, refund.orderId))!;
  const later = () => rescheduleRefund(deps.db, refund.id, new Date(Date.now() + backoffMs(deps.config, refund.checkAttempts)));
  const gateway = isGatewayMethod(order.method) ? gatewayFor(deps.config, order.method) : undefined;
  const setup = gateway && (await gatewaySetup(deps, order.brandId, gateway.method));
  if (!gateway?.findRefund || !setup) {
    deps.logger.error({ orderId: order.id, refundId: refund.id, method: order.method }, "a refund whose answer was lost cannot be looked up at the gateway: it stays refund_unknown; check the merchant portal");
    return later();
  }
  let found: LostRefund;
  try {
    found = await gateway.findRefund(gatewayOrderOf(order), refund.amountMinor, await knownRefundIds(deps.db, order.id), setup.credentials);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.logger.info({ orderId: order.id, refundId: refund.id, code: error.code }, "lost refund: the gateway did not answer; asking again later");
    return later();
  }
  if (found.outcome === "unknown") {
    deps.logger.warn({ orderId: order.id, refundId: refund.id, reason: found.reason }, "lost refund: the gateway would not say whether it was made; asking again later");
    return later();
  }
  const label = METHOD_LABELS[order.method];
  const amount = `${formatAmount(refund.amountMinor)} ${order.currency}`;
  await deps.db.transaction(async (trx) => {
    if (found.outcome === "not_made") {
      await settleRefund(trx, refund.id, { state: "failed" });
    } else {
      await settleRefund(trx, refund.id, { state: found.state, gatewayRefundId: found.refundId, nextCheckAt: new Date(Date.now() + backoffMs(deps.config, 0)) });
    }
    const current = (await findOrder(trx, order.id))!;
    if (current.state !== "refund_unknown") return;
    const whole = current.refundedMinor >= current.amountMinor;
    const to = found.outcome === "not_made" || !whole ? "verified" : found.state === "refunded" && (await unsettledRefunds(trx, order.id)) === 0 ? "refunded" : "refund_pending";
    const reason =
      found.outcome === "not_made"
        ? `${label} made no refund of ${amount} (${found.reason}): refundable again`
        : `${label} made the refund of ${amount} whose answer was lost (${found.refundId})`;
    await applyTransition(trx, current, to, { reason, actor: "reconciliation" });
    await recordAudit(trx, order.brandId, { system: "reconciliation" }, {
      action: found.outcome === "not_made" ? "order.refund_not_made" : "order.refunded",
      target: order.id,
      details: { amount: formatAmount(refund.amountMinor), currency: order.currency, ...(found.outcome === "made" ? { state: found.state, gateway_refund_id: found.refundId } : { reason: found.reason }) },
    });
  });
}
