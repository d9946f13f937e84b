// The JSON of the dashboard's orders (list, detail with history and refunds), Gateway Keys and the cashier's screens.
import type { KeysOverview } from "../../../orders/gateway-keys";
import type { OrderDetail, OrderRecord } from "../../../orders/service";
import { formatAmount } from "../../../payments/amounts";
import { presentOrderCore } from "../../orders/presenter";

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

export function presentOrder(order: OrderRecord) {
  return {
    ...presentOrderCore(order),
    gateway_trx_id: order.gatewayTrxId,
    created_at: order.createdAt.toISOString(),
    paid_at: iso(order.paidAt),
    verified_at: iso(order.verifiedAt),
    refunded_minor: order.refundedMinor,
  };
}

export function presentOrderDetail(detail: OrderDetail) {
  const { order, refund } = detail;
  return {
    ...presentOrder(order),
    reference: order.reference,
    expires_at: order.expiresAt.toISOString(),
    failure_reason: order.failureReason,
    transitions: detail.transitions.map((t) => ({ from: t.from_state, to: t.to_state, reason: t.reason, actor: t.actor, at: new Date(t.at).toISOString() })),
    refunds: detail.refunds.map((r) => ({
      amount: formatAmount(r.amount_minor),
      amount_minor: r.amount_minor,
      reason: r.reason,
      state: r.state,
      gateway_refund_id: r.gateway_refund_id,
      actor: r.actor,
      created_at: new Date(r.created_at).toISOString(),
    })),
    refundable: refund.refundable,
    refundable_minor: refund.refundableMinor,
    not_refundable_reason: refund.refundable ? null : refund.reason,
  };
}

export function presentGatewayKeys(overview: KeysOverview) {
  return {
    sales_enabled: overview.salesEnabled,
    plan: overview.plan,
    methods: overview.methods.map((m) => ({
      method: m.method,
      label: m.label,
      allowed_by_plan: m.allowedByPlan,
      configured: m.configured,
      enabled: m.enabled,
      fields: m.fields,
      checked_at: iso(m.checkedAt),
    })),
  };
}

export function presentCashierLookup(order: OrderRecord, brandMatches: boolean) {
  return {
    order_id: order.id,
    status: order.state,
    product_name: order.productName,
    uid: order.uid,
    amount: formatAmount(order.amountMinor),
    amount_minor: order.amountMinor,
    currency: order.currency,
    expires_at: order.expiresAt.toISOString(),
    brand_matches: brandMatches,
  };
}
