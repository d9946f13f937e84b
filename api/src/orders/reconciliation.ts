// The reconciliation job: every interval, the open orders whose next check is due (pending payments past their
// start, paid ones not yet verified, Cash QR and stuck orders at their expiry) are claimed and checked with the gateway
// (orders/settlement.ts checkOrder); so are refunds a gateway settles later (orders/refunds.ts checkRefund). Claims
// skip rows another replica holds, so every API process may run it.
import { claimDueOrders, claimDueRefunds } from "./orders.repo";
import { checkRefund } from "./refunds";
import { checkOrder, claimLeaseMs, type SettleDeps } from "./settlement";

/** Orders claimed per round; a round is repeated at once while it finds a full batch. */
const BATCH = 20;
/** Orders checked at once: each is one or two gateway calls. */
const CONCURRENCY = 4;

/**
 * Runs rounds until no due order or pending refund is left, or `stopping()` says the process is shutting down (the
 * batch in hand is finished first); returns how many were checked.
 */
export async function reconcileOrders(deps: SettleDeps, stopping: () => boolean = () => false): Promise<number> {
  const lease = claimLeaseMs(deps.config);
  const orders = await drain(stopping, () => claimDueOrders(deps.db, BATCH, lease), (order) => checkOrder(deps, order), (order, error) => deps.logger.error({ err: error, orderId: order.id }, "order check failed"));
  const refunds = await drain(stopping, () => claimDueRefunds(deps.db, BATCH, lease), (refund) => checkRefund(deps, refund), (refund, error) => deps.logger.error({ err: error, refundId: refund.id }, "refund check failed"));
  return orders + refunds;
}

/** Claims batches and checks their items, CONCURRENCY at a time, until a batch comes back short or `stopping()`. */
async function drain<T>(stopping: () => boolean, claim: () => Promise<T[]>, check: (item: T) => Promise<unknown>, failed: (item: T, error: unknown) => void): Promise<number> {
  let checked = 0;
  for (;;) {
    if (stopping()) return checked;
    const due = await claim();
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const item = due[next++]!;
        await check(item).catch((error: unknown) => failed(item, error));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
    checked += due.length;
    if (due.length < BATCH) return checked;
  }
}

/** Starts the job in this process (config.payments.reconcileIntervalSeconds); stop() waits for a round in flight. */
export function startOrderReconciliation(deps: SettleDeps): { stop: () => Promise<void> } {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const round = () => {
    running ??= reconcileOrders(deps, () => stopped)
      .catch((error: unknown) => deps.logger.warn({ err: error }, "order reconciliation skipped"))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(round, deps.config.payments.reconcileIntervalSeconds * 1000);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
