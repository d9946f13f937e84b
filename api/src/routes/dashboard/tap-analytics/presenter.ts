// Tap analytics as the dashboard's JSON shows them.
import type { TapAnalytics } from "../../../tags/analytics";

export function presentTapAnalytics(analytics: TapAnalytics) {
  return {
    days: analytics.days,
    daily: analytics.daily,
    by_product: analytics.byProduct.map((product) => ({ uid: product.uid, name: product.name, taps: product.taps, authentic: product.authentic })),
    verdict_mix: analytics.verdictMix,
    suspicious: analytics.suspicious.map((tag) => ({
      tag_uid: tag.tagUid,
      product_uid: tag.productUid,
      signals: tag.signals.map((signal) => ({ kind: signal.kind, detail: signal.detail, at: signal.at.toISOString() })),
      signal_count: tag.signalCount,
      last_tap_at: new Date(tag.lastTapAt).toISOString(),
    })),
  };
}
