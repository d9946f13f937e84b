// The dashboard's tap analytics (issue 12): taps per day by verdict and per product, the verdict mix, and the tags
// that show clone signals, each signal by a rule stated here with its threshold as a named constant.
import type { AppDeps } from "../deps";
import { NotFoundError } from "../errors";
import { findProductByUid } from "../products/products.repo";
import { lastDays } from "../scans/scan-history";
import {
  counterJumpSignals,
  farApartSignals,
  invalidBurstSignals,
  lastTapsOfProducts,
  lastTapsOfTags,
  replaySignals,
  tapsPerDayByVerdict,
  tapsPerProduct,
  type SignalBounds,
  type TapFilter,
} from "./analytics.repo";
import { TAP_VERDICTS, type TapVerdict } from "./verdicts";

/**
 * Counter jump: an accepted counter more than this above the counter accepted before it. A tag counts every read,
 * ours or not; a shopper's phone rarely reads a tag many times without opening the page, so a big gap means the
 * tag was read somewhere else, over and over: someone harvesting fresh URLs to use later.
 */
export const COUNTER_JUMP_LIMIT = 20;
/** Far apart: two accepted taps of one tag from different client regions within this many minutes. */
export const FAR_APART_MINUTES = 10;
/** Invalid MACs: more than this many invalid taps (bad MAC or format) on one product in one UTC day. */
export const INVALID_TAPS_PER_DAY_LIMIT = 5;

/** Bounds of the answer: the most tapped products, the tags with the newest signals, and signals shown per tag. */
export const BY_PRODUCT_LIMIT = 50;
export const SUSPICIOUS_LIMIT = 100;
export const SIGNALS_PER_TAG = 20;
/** Signal rows read per kind, newest first: enough for SUSPICIOUS_LIMIT tags, bounded whatever a forger sends. */
const SIGNAL_ROWS = 5_000;

export type SignalKind = "replay" | "counter_jump" | "far_apart" | "invalid_macs";
export type CloneSignal = { kind: SignalKind; detail: string; at: Date };

/** A tag with clone signals; tagUid null when the signal is a product's (invalid taps) and the product has no tag. */
export type SuspiciousTag = {
  tagUid: string | null;
  productUid: string;
  /** The newest SIGNALS_PER_TAG signals, newest first. */
  signals: CloneSignal[];
  /** All the tag's signals in the period, listed or not. */
  signalCount: number;
  lastTapAt: Date;
};

export type DailyTaps = { date: string } & Record<TapVerdict, number>;

export type TapAnalytics = {
  days: number;
  daily: DailyTaps[];
  byProduct: Array<{ uid: string; name: string; taps: number; authentic: number }>;
  verdictMix: Record<TapVerdict, number>;
  suspicious: SuspiciousTag[];
};

const zeroCounts = (): Record<TapVerdict, number> => Object.fromEntries(TAP_VERDICTS.map((verdict) => [verdict, 0])) as Record<TapVerdict, number>;

/** The brand's taps over the last `days` UTC days (today included), or those that opened one product's URL. */
export async function tapAnalytics(deps: AppDeps, brandId: number, options: { days: number; uid?: string }, now = new Date()): Promise<TapAnalytics> {
  let productId: number | undefined;
  if (options.uid) {
    const product = await findProductByUid(deps.db, options.uid, brandId);
    if (!product) throw new NotFoundError("Product");
    productId = product.id;
  }
  const dates = lastDays(options.days, now);
  const filter: TapFilter = { brandId, productId, since: new Date(`${dates[0]}T00:00:00Z`) };
  const [perDay, byProduct, suspicious] = await Promise.all([
    tapsPerDayByVerdict(deps.db, filter),
    tapsPerProduct(deps.db, filter, BY_PRODUCT_LIMIT),
    suspiciousTags(deps, filter),
  ]);

  const verdictMix = zeroCounts();
  const byDay = new Map(dates.map((date) => [date, { date, ...zeroCounts() }]));
  for (const row of perDay) {
    if (!isVerdict(row.verdict)) continue;
    verdictMix[row.verdict] += row.count;
    const day = byDay.get(row.day);
    if (day) day[row.verdict] += row.count;
  }
  return { days: options.days, daily: [...byDay.values()], byProduct, verdictMix, suspicious };
}

function isVerdict(value: string): value is TapVerdict {
  return (TAP_VERDICTS as readonly string[]).includes(value);
}

/** The tags (or products) with clone signals in the period, the newest signal first. */
async function suspiciousTags(deps: AppDeps, filter: TapFilter): Promise<SuspiciousTag[]> {
  const bounds: SignalBounds = { perTag: SIGNALS_PER_TAG, rows: SIGNAL_ROWS };
  const [replays, jumps, farApart, bursts] = await Promise.all([
    replaySignals(deps.db, filter, bounds),
    counterJumpSignals(deps.db, filter, COUNTER_JUMP_LIMIT, bounds),
    farApartSignals(deps.db, filter, FAR_APART_MINUTES * 60, bounds),
    invalidBurstSignals(deps.db, filter, INVALID_TAPS_PER_DAY_LIMIT, bounds),
  ]);

  type Entry = { tagId: number | null; productId: number; tagUid: string | null; productUid: string; signals: CloneSignal[]; counts: Map<SignalKind, number> };
  const entries = new Map<string, Entry>();
  const add = (row: { tag_id: number | null; tag_uid: string | null; product_uid: string; product_id: number; kind_total: number; at: Date }, kind: SignalKind, detail: string) => {
    // A product's invalid taps with no tag bound to it form an entry of their own, keyed by the product.
    const key = row.tag_id !== null ? `tag:${row.tag_id}` : `product:${row.product_id}`;
    let entry = entries.get(key);
    if (!entry) {
      entry = { tagId: row.tag_id, productId: row.product_id, tagUid: row.tag_uid, productUid: row.product_uid, signals: [], counts: new Map() };
      entries.set(key, entry);
    }
    entry.signals.push({ kind, detail, at: new Date(row.at) });
    entry.counts.set(kind, row.kind_total);
  };

  for (const row of replays) add(row, "replay", replayDetail(row.counter, row.previous_accepted));
  for (const row of jumps) {
    const unseen = row.counter - row.previous_accepted - 1;
    add(row, "counter_jump", `Counter went from ${row.previous_accepted} to ${row.counter}: ${unseen} reads of this tag never reached us (a jump of more than ${COUNTER_JUMP_LIMIT} is a signal).`);
  }
  for (const row of farApart) {
    add(row, "far_apart", `Authentic taps from ${row.previous_region} and then ${row.region}, ${minutesApart(row.seconds_apart)} apart (within ${FAR_APART_MINUTES} minutes is a signal).`);
  }
  for (const row of bursts) {
    add(row, "invalid_macs", `${row.invalid_taps} taps with a bad MAC or format on this product on ${row.day} (UTC; more than ${INVALID_TAPS_PER_DAY_LIMIT} in a day is a signal).`);
  }

  const ranked = [...entries.values()]
    .map((entry) => ({ ...entry, signals: entry.signals.sort((a, b) => b.at.getTime() - a.at.getTime()) }))
    .sort((a, b) => b.signals[0]!.at.getTime() - a.signals[0]!.at.getTime())
    .slice(0, SUSPICIOUS_LIMIT);

  const tagIds = ranked.flatMap((entry) => (entry.tagId !== null ? [entry.tagId] : []));
  const productIds = ranked.flatMap((entry) => (entry.tagId === null ? [entry.productId] : []));
  const [tagLastTaps, productLastTaps] = await Promise.all([lastTapsOfTags(deps.db, filter.brandId, tagIds), lastTapsOfProducts(deps.db, filter.brandId, productIds)]);

  return ranked.map((entry) => ({
    tagUid: entry.tagUid,
    productUid: entry.productUid,
    signals: entry.signals.slice(0, SIGNALS_PER_TAG),
    signalCount: [...entry.counts.values()].reduce((sum, n) => sum + n, 0),
    lastTapAt: (entry.tagId !== null ? tagLastTaps.get(entry.tagId) : productLastTaps.get(entry.productId)) ?? entry.signals[0]!.at,
  }));
}

function replayDetail(counter: number | null, previousAccepted: number | null): string {
  if (counter === null || previousAccepted === null) return "A counter already used came again: an old URL of this tag was opened again.";
  return `Counter ${counter} is not above ${previousAccepted}, already accepted: an old URL of this tag was opened again.`;
}

function minutesApart(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
