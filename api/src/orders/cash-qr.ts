// Cash QR at the till: the shopper shows the order's QR code (a cashier screen URL with a one-time token), a cashier of
// the brand scans it, sees the product and the amount, takes the cash and confirms. Confirmation makes the order paid
// and verified in one transaction (the cashier's word is the verification), is idempotent, and is audited.
import { recordAudit, type Actor } from "../audit/service";
import type { Knex } from "../db/knex";
import { ConflictError, NotFoundError } from "../errors";
import { formatAmount } from "../payments/amounts";
import { isCashToken } from "./order-secret";
import { findOrder, listOrders, type OrderRecord } from "./orders.repo";
import { actorName, applyTransition } from "./state-machine";

/** The order a token opens; another brand's order is looked up (the cashier is told so) but never confirmed. */
export async function lookupCashOrder(db: Knex, brandId: number, orderId: string, token: string): Promise<{ order: OrderRecord; brandMatches: boolean }> {
  const order = await findOrder(db, orderId);
  // A wrong token and a missing order read the same: the token is the only proof of having seen the QR code.
  if (!order || order.method !== "cash_qr" || !isCashToken(order.cashQrTokenHash, token)) throw new NotFoundError("Order");
  return { order, brandMatches: order.brandId === brandId };
}

/**
 * Confirms the cash payment of an order of the cashier's brand: pending → paid → verified, order.paid and
 * order.verified, and an audit entry with the cashier, all in one transaction. Confirming again answers the order as
 * it is with `alreadyConfirmed`, and changes nothing. An expired order cannot be confirmed (409).
 */
export async function confirmCashOrder(db: Knex, brandId: number, actor: Actor, orderId: string, token: string): Promise<{ order: OrderRecord; alreadyConfirmed: boolean }> {
  const { order, brandMatches } = await lookupCashOrder(db, brandId, orderId, token);
  if (!brandMatches) throw new NotFoundError("Order");
  if (order.paidAt !== null) return { order, alreadyConfirmed: true };
  if (order.state === "pending" && order.expiresAt.getTime() <= Date.now()) {
    await db.transaction((trx) => applyTransition(trx, order, "expired", { reason: "the cashier scanned it after it expired", actor: actorName(actor) }));
    throw new ConflictError("This order expired before it was paid; nothing was recorded. The shopper can place a new one.");
  }
  if (order.state !== "pending") throw new ConflictError(`This order is ${order.state}; it cannot be confirmed.`);
  const confirmed = await db.transaction(async (trx) => {
    const paid = await applyTransition(trx, order, "paid", { reason: "cash received at the till", actor: actorName(actor) });
    // Another confirmation won the race: it did all of this already.
    if (!paid) return undefined;
    const verified = await applyTransition(trx, paid, "verified", { reason: "confirmed by the cashier", actor: actorName(actor) });
    await recordAudit(trx, brandId, actor, {
      action: "order.cash_confirmed",
      target: order.id,
      details: { uid: order.uid, amount: formatAmount(order.amountMinor), currency: order.currency },
    });
    return verified;
  });
  if (confirmed) return { order: confirmed, alreadyConfirmed: false };
  // Another writer moved the order first: another confirmation (done), or the job expiring it (the cash must not be taken).
  const now = (await findOrder(db, orderId))!;
  if (now.paidAt === null) throw new ConflictError(`This order is ${now.state}; it cannot be confirmed.`);
  return { order: now, alreadyConfirmed: true };
}

/** How many waiting orders the till shows: a queue at one brand's tills, never a report. */
export const TILL_LIMIT = 20;

/**
 * The brand's Cash QR orders waiting at the till (placed, not paid, not expired), newest first: what a cashier
 * expects to be shown. Only these orders' product and amount, nothing else of the brand.
 */
export async function cashOrdersWaiting(db: Knex, brandId: number, now = new Date()): Promise<OrderRecord[]> {
  // Expired orders the reconciliation job has not swept yet are pending still: they are left out, not shown as due.
  const { orders } = await listOrders(db, brandId, { state: "pending", method: "cash_qr", limit: TILL_LIMIT * 2, offset: 0 });
  return orders.filter((order) => order.expiresAt.getTime() > now.getTime()).slice(0, TILL_LIMIT);
}
