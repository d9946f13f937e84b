// The order state machine: the one table of allowed transitions, and the one function that applies a transition
// (a conditional UPDATE, a row in app.order_transitions and the transition's events, in the caller's transaction).
import type { Actor } from "../audit/service";
import type { Knex } from "../db/knex";
import { emitOrderPaid, emitOrderVerified, type OrderFact } from "../webhooks/emitters";
import { insertTransition, updateOrderState, type OrderColumns, type OrderRecord } from "./orders.repo";

export const ORDER_STATES = ["created", "pending", "paid", "verified", "failed", "cancelled", "expired", "refund_pending", "refund_unknown", "refunded"] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/**
 * Every transition allowed, from each state. `paid`: the gateway's own completion said the money was received (or the
 * cashier confirmed cash); `verified`: our independent re-read at the gateway matched the order. `expired → paid`:
 * a gateway that takes the shopper's money before it tells us (Nagad, SSLCommerz) reported a payment made after the
 * order expired; the money is the brand's, so the order is paid after all (orders/settlement.ts). `refund_pending →
 * verified`: the gateway refused a full refund after first accepting it (orders/refunds.ts). `refund_unknown`: a
 * refund's answer was lost (a time-out, a 5xx), so whether the gateway refunded is not known; its amount stays
 * reserved and nothing else is refunded until the reconciliation job learns from the gateway that it was made
 * (refunded, refund_pending, or verified for a part) or not (verified, the amount refundable again).
 */
export const TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = Object.freeze({
  created: ["pending", "failed", "expired"],
  pending: ["paid", "failed", "cancelled", "expired"],
  paid: ["verified"],
  verified: ["refund_pending", "refund_unknown", "refunded"],
  refund_pending: ["refunded", "verified"],
  refund_unknown: ["refunded", "refund_pending", "verified"],
  expired: ["paid"],
  failed: [],
  cancelled: [],
  refunded: [],
});

export function canTransition(from: OrderState, to: OrderState): boolean {
  return TRANSITIONS[from].includes(to);
}

export type TransitionChange = {
  /** Why, in a sentence for the dashboard's history ("bKash execute: Completed"). */
  reason: string;
  /** Who: "shopper", "gateway:bkash", "reconciliation", or a dashboard user's email. */
  actor: string;
  /** Columns written with the state (gateway ids, failure reason, next check). */
  set?: OrderColumns;
};

/**
 * Moves `order` from its state to `to` if it is still in that state: the UPDATE is conditional on the state read, so
 * of two callbacks racing one applies the transition and the other gets undefined (and changes nothing). Entering
 * `paid` enqueues order.paid and entering `verified` order.verified, in the same transaction.
 */
export async function applyTransition(trx: Knex, order: OrderRecord, to: OrderState, change: TransitionChange): Promise<OrderRecord | undefined> {
  if (!canTransition(order.state, to)) throw new Error(`order ${order.id}: no transition ${order.state} → ${to}`);
  const updated = await updateOrderState(trx, order, to, change.set ?? {});
  if (!updated) return undefined;
  await insertTransition(trx, { orderId: order.id, from: order.state, to, reason: change.reason, actor: change.actor });
  if (to === "paid") await emitOrderPaid(trx, orderFact(updated, updated.paidAt!));
  if (to === "verified") await emitOrderVerified(trx, orderFact(updated, updated.verifiedAt!));
  return updated;
}

function orderFact(order: OrderRecord, at: Date): OrderFact {
  return {
    brandId: order.brandId,
    orderId: order.id,
    uid: order.uid,
    amountMinor: order.amountMinor,
    currency: order.currency,
    paymentMethod: order.method,
    gatewayTrxId: order.gatewayTrxId,
    at,
  };
}

/** How a dashboard user or a system actor is named in an order's history. */
export function actorName(actor: Actor): string {
  return "userId" in actor ? actor.email : actor.system;
}
