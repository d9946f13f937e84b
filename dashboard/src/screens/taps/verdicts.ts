// The words and colours of tap verdicts and clone signals, in one place for the chart, the mix and the tag list.
import type { DataOf } from "../../api/types";

export type TapAnalytics = DataOf<"/api/dashboard/taps/analytics", "get">;
export type Verdict = keyof TapAnalytics["verdict_mix"];
export type SuspiciousTag = TapAnalytics["suspicious"][number];
export type SignalKind = SuspiciousTag["signals"][number]["kind"];

/** Every verdict in the order shown (stacking order of the chart, bottom first): label, meaning, CSS class. */
export const VERDICTS: Array<{ key: Verdict; label: string; meaning: string; className: string }> = [
  { key: "authentic", label: "Authentic", meaning: "the tag's signature checked and its counter moved on", className: "verdict-authentic" },
  { key: "replayed", label: "Replayed", meaning: "a genuine signature with a counter already used: an old URL opened again", className: "verdict-replayed" },
  { key: "invalid", label: "Invalid", meaning: "the signature or its format did not check: a forged or damaged URL", className: "verdict-invalid" },
  { key: "unknown_tag", label: "Unknown tag", meaning: "no tag of this brand has that chip UID", className: "verdict-unknown" },
  { key: "not_bound", label: "Not bound", meaning: "one of your tags, opened on another product's page", className: "verdict-not-bound" },
  { key: "unverified", label: "Unverified", meaning: "a plain tag or a link without signature: nothing to check", className: "verdict-unverified" },
];

export const SIGNALS: Record<SignalKind, { label: string; tone: "bad" | "warn" }> = {
  replay: { label: "Replay", tone: "bad" },
  counter_jump: { label: "Counter jump", tone: "warn" },
  far_apart: { label: "Far apart", tone: "bad" },
  invalid_macs: { label: "Invalid signatures", tone: "warn" },
};

export function totalOf(counts: Record<Verdict, number>): number {
  return VERDICTS.reduce((sum, verdict) => sum + counts[verdict.key], 0);
}

/** "42 %" of a whole ("< 1 %" for a few, never a misleading 0), or "—" when there is nothing to divide. */
export function shareOf(part: number, whole: number): string {
  if (whole === 0) return "—";
  const percent = Math.round((part / whole) * 100);
  return part > 0 && percent === 0 ? "< 1 %" : `${percent} %`;
}
