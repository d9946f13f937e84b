// The reconciliation job: every interval, the open orders whose next check is due (pending payments past their
// start, paid ones not yet verified, Cash QR and stuck orders at their expiry) are claimed and checked with the gateway
// (orders/settlement.ts checkOrder); so are refunds a gateway settles later (orders/refunds.ts checkRefund). Claims
// skip rows another replica holds, so every API process may run it.
import { claimAndWork, claimAndWorkJob, type ClaimAndWork } from "../jobs/claim-and-work";
import type { PeriodicJob } from "../jobs/periodic-job";
import { claimDueOrders, claimDueRefunds, type DueRefund, type OrderRecord } from "./orders.repo";
import { checkRefund } from "./refunds";
import { checkOrder, claimLeaseMs, type SettleDeps } from "./settlement";

/** Orders claimed per round; a round is repeated at once while it finds a full batch. */
const BATCH = 20;
/** Orders checked at once: each is one or two gateway calls. */
const CONCURRENCY = 4;

/** What the job claims and checks: due orders, then pending refunds. */
function reconciliationSpecs(deps: SettleDeps) {
  const lease = claimLeaseMs(deps.config);
  const orders: ClaimAndWork<OrderRecord> = {
    claim: (limit) => claimDueOrders(deps.db, limit, lease),
    work: (order) => checkOrder(deps, order),
    failed: (order, error) => deps.logger.error({ err: error, orderId: order.id }, "order check failed"),
    batch: BATCH,
    concurrency: CONCURRENCY,
    untilShort: true,
  };
  const refunds: ClaimAndWork<DueRefund> = {
    claim: (limit) => claimDueRefunds(deps.db, limit, lease),
    work: (refund) => checkRefund(deps, refund),
    failed: (refund, error) => deps.logger.error({ err: error, refundId: refund.id }, "refund check failed"),
    batch: BATCH,
    concurrency: CONCURRENCY,
    untilShort: true,
  };
  return [orders, refunds] as const;
}

/**
 * Runs rounds until no due order or pending refund is left, or `signal` says the process is shutting down (the
 * batch in hand is finished first); returns how many were checked.
 */
export async function reconcileOrders(deps: SettleDeps, signal?: AbortSignal): Promise<number> {
  const [orders, refunds] = reconciliationSpecs(deps);
  return (await claimAndWork(orders, signal)) + (await claimAndWork(refunds, signal));
}

/** The job (config.payments.reconcileIntervalSeconds; the first round one interval after start). */
export function orderReconciliationJob(deps: SettleDeps): PeriodicJob<number> {
  const intervalMs = deps.config.payments.reconcileIntervalSeconds * 1000;
  return claimAndWorkJob({ name: "order-reconciliation", intervalMs, firstRunAfterMs: intervalMs, logger: deps.logger, specs: [...reconciliationSpecs(deps)] });
}
