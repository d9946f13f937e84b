// Settling gateway payments: a callback (bKash, Nagad) or an IPN or return (SSLCommerz) leads to the gateway's own
// completion step (`complete`), then to our independent re-read (`verify`); the reconciliation job re-reads the orders
// nothing settled. A callback is never trusted alone: it only names the order, and only the gateway's server-to-server
// answers, checked against our record, move it. One claim per order at a time, so a payment is completed once.
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import type { Logger } from "../logger";
import { GatewayError, type CallbackInput, type GatewayCredentials, type GatewayMethod, type Settlement } from "../payments/gateway";
import { gatewaySetup } from "./gateway-keys";
import { gatewayFor, gatewayOrderOf, isGatewayMethod, METHOD_LABELS } from "./gateways";
import { claimOrder, findOrder, findOrderByGatewayPayment, findOrderByReference, releaseOrder, type OrderRecord } from "./orders.repo";
import { applyTransition, type OrderState } from "./state-machine";

export type SettleDeps = { db: Knex; config: Config; logger: Logger };

/**
 * What became of a callback. unknown: it names no order of ours; ignored: the order is past the point where a
 * callback matters (a replay, or a late one); busy: another callback or the reconciliation job holds the order right
 * now; retry: the gateway did not answer, the job asks again; settled: the gateway's answer was applied.
 */
export type CallbackOutcome = { outcome: "unknown" } | { outcome: "ignored" | "busy" | "retry" | "settled"; order: OrderRecord };

/**
 * The states in which a gateway's completion may still move an order. bKash takes the money at execute, so an
 * expired order is never executed; Nagad and SSLCommerz have taken it before they call us, so a late payment to an
 * expired order is still recorded (expired → paid).
 */
function completableStates(method: GatewayMethod): readonly OrderState[] {
  return method === "bkash" ? ["pending"] : ["pending", "expired"];
}

/**
 * How long past its expiry an order whose gateway would not report the payment is still asked about before it
 * expires: bKash keeps a paymentID for 24 hours; the same day is given to Nagad and SSLCommerz, which document none.
 */
const UNCERTAIN_WINDOW_MS = 24 * 3600 * 1000;

/** How long a claim lasts: longer than the calls its holder makes (a token grant and an execute, say). */
export function claimLeaseMs(config: Pick<Config, "payments">): number {
  return 3 * config.payments.gatewayTimeoutMs + 5000;
}

/** The wait before the next look after `attempts` inconclusive ones: the job's interval, doubling up to an hour. */
export function backoffMs(config: Pick<Config, "payments">, attempts: number): number {
  return Math.min(config.payments.reconcileIntervalSeconds * 1000 * 2 ** Math.min(attempts, 12), 3_600_000);
}

/** When the reconciliation job looks at an open order again: after the back-off, never later than its expiry ahead. */
export function nextCheckAt(config: Pick<Config, "payments">, attempts: number, expiresAt: Date): Date {
  const now = Date.now();
  const at = now + backoffMs(config, attempts);
  return new Date(expiresAt.getTime() > now ? Math.min(at, expiresAt.getTime()) : at);
}

/** How often a callback looks again whether the order it names is still held by someone else. */
const CLAIM_POLL_MS = 100;

/**
 * Claims the order for a callback, waiting while the reconciliation job or another callback holds it (at most one
 * lease): the holder may be only reading the payment's status, and a bKash approval that is not executed now is
 * never executed. Ends early when the holder moved the order past completion (`current`, the order as it is now).
 */
async function claimForCallback(deps: SettleDeps, found: OrderRecord, states: readonly OrderState[]): Promise<{ order: OrderRecord } | { current: OrderRecord | undefined }> {
  const lease = claimLeaseMs(deps.config);
  const deadline = Date.now() + lease;
  for (;;) {
    const order = await claimOrder(deps.db, found, states, lease);
    if (order) return { order };
    const current = await findOrder(deps.db, found.id);
    if (!current || !states.includes(current.state) || Date.now() >= deadline) return { current };
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
  }
}

/** Handles one gateway callback, IPN or browser return: finds the order it names, completes and verifies it. */
export async function handleCallback(deps: SettleDeps, method: GatewayMethod, input: CallbackInput): Promise<CallbackOutcome> {
  const gateway = gatewayFor(deps.config, method);
  let key: ReturnType<typeof gateway.callbackKey>;
  try {
    key = gateway.callbackKey(input);
  } catch {
    key = null;
  }
  const found = key?.gatewayPaymentId
    ? await findOrderByGatewayPayment(deps.db, method, key.gatewayPaymentId)
    : key?.reference
      ? await findOrderByReference(deps.db, method, key.reference)
      : undefined;
  if (!found) {
    deps.logger.warn({ method, key }, "payment callback names no order of ours: ignored");
    return { outcome: "unknown" };
  }
  if (!completableStates(method).includes(found.state)) {
    deps.logger.info({ method, orderId: found.id, state: found.state }, "payment callback for an order past completion: nothing changed");
    return { outcome: "ignored", order: found };
  }
  const claim = await claimForCallback(deps, found, completableStates(method));
  if ("current" in claim) {
    if (claim.current && !completableStates(method).includes(claim.current.state)) return { outcome: "ignored", order: claim.current };
    deps.logger.warn({ method, orderId: found.id }, "payment callback while the order stayed held elsewhere: the reconciliation job settles it");
    return { outcome: "busy", order: claim.current ?? found };
  }
  const order = claim.order;
  const setup = await gatewaySetup(deps, order.brandId, method);
  if (!setup) {
    await releaseOrder(deps.db, order.id, nextCheckAt(deps.config, order.checkAttempts, order.expiresAt));
    deps.logger.warn({ method, orderId: order.id }, "payment callback for a brand whose gateway keys are gone: nothing changed");
    return { outcome: "ignored", order };
  }
  if (method === "bkash" && order.expiresAt.getTime() <= Date.now()) {
    const expired = await transition(deps.db, order, "expired", { reason: "the shopper approved after the order expired: not executed, nothing charged", actor: `gateway:${method}` });
    return { outcome: "settled", order: expired };
  }
  let settlement: Settlement;
  try {
    settlement = await gateway.complete(gatewayOrderOf(order), input, setup.credentials);
  } catch (error) {
    await releaseOrder(deps.db, order.id, nextCheckAt(deps.config, 0, order.expiresAt));
    if (!(error instanceof GatewayError)) throw error;
    deps.logger.warn({ method, orderId: order.id, code: error.code, err: error.message }, "gateway completion failed: the reconciliation job asks again");
    return { outcome: "retry", order: (await findOrder(deps.db, order.id))! };
  }
  const settled = await applySettlement(deps, order, settlement, `${METHOD_LABELS[method]} completion`);
  if (settled.state !== "paid") return { outcome: "settled", order: settled };
  return { outcome: "settled", order: await verifyPaid(deps, settled, setup.credentials) };
}

/**
 * Looks at one open order the reconciliation job claimed: a pending gateway payment is re-read with `verify` (and so
 * paid and verified, failed, or expired once its time is up), a paid one is verified, a Cash QR or an order that
 * never left `created` expires on time. Whatever is inconclusive is released for a later look.
 */
export async function checkOrder(deps: SettleDeps, order: OrderRecord): Promise<OrderRecord> {
  const expired = order.expiresAt.getTime() <= Date.now();
  if (order.state === "created" || (order.state === "pending" && !isGatewayMethod(order.method))) {
    if (expired) return transition(deps.db, order, "expired", { reason: "not paid before the order expired", actor: "reconciliation" });
    await releaseOrder(deps.db, order.id, order.expiresAt);
    return order;
  }
  if (!isGatewayMethod(order.method)) {
    await releaseOrder(deps.db, order.id, null);
    return order;
  }
  const method = order.method;
  const setup = await gatewaySetup(deps, order.brandId, method);
  if (!setup) {
    deps.logger.warn({ orderId: order.id, method }, "reconciliation: the brand's gateway keys are gone; the order cannot be checked");
    if (order.state === "pending" && expired) return transition(deps.db, order, "expired", { reason: "not paid before the order expired (gateway keys removed)", actor: "reconciliation" });
    await releaseOrder(deps.db, order.id, nextCheckAt(deps.config, order.checkAttempts + 1, order.expiresAt));
    return order;
  }
  if (order.state === "paid") return verifyPaid(deps, order, setup.credentials);

  let settlement: Settlement;
  try {
    settlement = await gatewayFor(deps.config, method).verify(gatewayOrderOf(order), setup.credentials);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    // Not expired for want of an answer: the shopper may have paid, and only the gateway knows.
    deps.logger.info({ orderId: order.id, method, code: error.code }, "reconciliation: the gateway did not answer; asking again later");
    await releaseOrder(deps.db, order.id, nextCheckAt(deps.config, order.checkAttempts + 1, order.expiresAt));
    return order;
  }
  if (settlement.outcome === "paid") {
    // The status query is itself the independent re-read: paid and verified by the one answer.
    const paid = await applySettlement(deps, order, settlement, `${METHOD_LABELS[method]} status query`);
    return paid.state === "paid" ? transition(deps.db, paid, "verified", { reason: `${METHOD_LABELS[method]} status query matched the order`, actor: "reconciliation" }) : paid;
  }
  if (settlement.outcome === "pending" && expired) {
    // An answer that is not an answer (a refused query) past the expiry: the payment may have completed, so the
    // order waits, asked again with back-off, for as long as the gateway keeps a payment open.
    if (settlement.uncertain && order.expiresAt.getTime() + UNCERTAIN_WINDOW_MS > Date.now()) {
      deps.logger.warn({ orderId: order.id, method, reason: settlement.reason }, "reconciliation: the gateway would not say whether an expired order was paid; asking again later");
    } else {
      if (settlement.uncertain) deps.logger.error({ orderId: order.id, method, reason: settlement.reason }, "reconciliation: the gateway never said whether the order was paid; expired, check its merchant portal");
      return transition(deps.db, order, "expired", { reason: `not paid before the order expired (${settlement.reason})`, actor: "reconciliation" });
    }
  }
  return applySettlement(deps, order, settlement, `${METHOD_LABELS[method]} status query`);
}

/**
 * Applies what the gateway said to a claimed order: paid (with its transaction id), failed, cancelled, a mismatch of
 * amount, currency or reference (failed, never paid), or not yet (released for a later look).
 */
async function applySettlement(deps: SettleDeps, order: OrderRecord, settlement: Settlement, step: string): Promise<OrderRecord> {
  const actor = `gateway:${order.method}`;
  switch (settlement.outcome) {
    case "paid":
      return transition(deps.db, order, "paid", {
        reason: `${step}: ${settlement.detail}`,
        actor,
        set: {
          gatewayPaymentId: settlement.gatewayPaymentId ?? order.gatewayPaymentId,
          gatewayTrxId: settlement.gatewayTrxId,
          // Verified right after this; should that fail, the reconciliation job tries from here.
          nextCheckAt: nextCheckAt(deps.config, 0, order.expiresAt),
        },
      });
    case "mismatch":
      deps.logger.warn({ orderId: order.id, method: order.method, reason: settlement.reason }, "gateway reported a payment that does not match the order: not paid");
      if (order.state !== "pending") break;
      return transition(deps.db, order, "failed", { reason: `${step}: does not match the order: ${settlement.reason}`, actor, set: { failureReason: settlement.reason } });
    case "failed":
    case "cancelled":
      if (order.state !== "pending") break;
      return transition(deps.db, order, settlement.outcome, { reason: `${step}: ${settlement.reason}`, actor, set: { failureReason: settlement.reason } });
    case "pending":
      break;
  }
  await releaseOrder(deps.db, order.id, order.state === "expired" ? null : nextCheckAt(deps.config, order.checkAttempts + 1, order.expiresAt));
  return (await findOrder(deps.db, order.id))!;
}

/**
 * Our independent re-read of a paid order at the gateway: verified when it matches, else left paid (a timeout, a 503,
 * an answer that is not yet final) for the reconciliation job to try again. A re-read that contradicts the gateway's
 * own completion is logged as an error for a person to look at; the order stays paid.
 */
async function verifyPaid(deps: SettleDeps, order: OrderRecord, credentials: GatewayCredentials): Promise<OrderRecord> {
  const method = order.method as GatewayMethod;
  let settlement: Settlement;
  try {
    settlement = await gatewayFor(deps.config, method).verify(gatewayOrderOf(order), credentials);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    deps.logger.info({ orderId: order.id, method, code: error.code }, "verification at the gateway failed: the order stays paid until it answers");
    await releaseOrder(deps.db, order.id, nextCheckAt(deps.config, order.checkAttempts + 1, order.expiresAt));
    return (await findOrder(deps.db, order.id))!;
  }
  if (settlement.outcome === "paid" && (order.gatewayTrxId === null || settlement.gatewayTrxId === order.gatewayTrxId)) {
    return transition(deps.db, order, "verified", { reason: `${METHOD_LABELS[method]} re-read matched the order: ${settlement.detail}`, actor: "gateway:" + method });
  }
  const said = settlement.outcome === "paid" ? `transaction ${settlement.gatewayTrxId}, not ${order.gatewayTrxId}` : settlement.reason;
  if (settlement.outcome === "pending") deps.logger.info({ orderId: order.id, method, said }, "verification: the gateway has not settled the payment yet");
  else deps.logger.error({ orderId: order.id, method, outcome: settlement.outcome, said }, "verification contradicts the gateway's completion: the order stays paid");
  await releaseOrder(deps.db, order.id, nextCheckAt(deps.config, order.checkAttempts + 1, order.expiresAt));
  return (await findOrder(deps.db, order.id))!;
}

/** One transition in its own transaction; when another writer moved the order first, the order as it is now. */
async function transition(db: Knex, order: OrderRecord, to: OrderState, change: Parameters<typeof applyTransition>[3]): Promise<OrderRecord> {
  const moved = await db.transaction((trx) => applyTransition(trx, order, to, change));
  return moved ?? (await findOrder(db, order.id))!;
}
