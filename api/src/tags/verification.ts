// Verifying a tap: which tag a scan URL's SUN parameters come from (the product's own, else a bounded few of the
// brand's others), the replay check on its counter, and the verdict, recorded in app.tag_taps.
//
// Both SUN keys are per tag (keys.ts), so PICCData cannot be decrypted before we know which tag sent it: a tap is
// tried against the tags bound to the product of the URL it opened (TAP_SEARCH.ownTags of them at most), and only
// when none verifies against TAP_SEARCH.encodedHere + TAP_SEARCH.recentlyTapped of the brand's other tags, each set
// found by index. A genuine tag outside those sets, opened on another product's URL, reads as `invalid`.
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { MasterKeyDerivation, type TagKeyProvider } from "./keys";
import { hasSunParams, parseSunParams, verifySunMessage, type SunMessage } from "./sun";
import { acceptTap, insertTap, notBoundCandidates, reserveTapRecord, signingTagsOf, type TagRecord } from "./tag-records.repo";
import type { TagChip, TapVerdict } from "./verdicts";

/**
 * How many tags one tap is tried against, at most. Each try is two HMAC-SHA256 (the tag's keys) and four AES blocks,
 * a few microseconds; the bound keeps a forged tap, which fails every try, as cheap as a genuine one plus a query.
 */
/**
 * Tap rows one client may add in an hour for verdicts anyone can produce (invalid, unknown_tag, not_bound, replayed):
 * the scan counter's per-client bound (scans/scan-recorder.ts).
 */
export const TAP_RECORDS_PER_CLIENT_HOUR = 20;

export const TAP_SEARCH = Object.freeze({
  /** Signing tags bound to the product (a product normally has one; a spare or two at most). */
  ownTags: 4,
  /** The brand's tags whose provisioned URL is this product's but whose binding has moved since. */
  encodedHere: 8,
  /** The brand's tags tapped most recently, anywhere: a live tag's parameters pasted onto another product's URL. */
  recentlyTapped: 8,
});

/** What the scan page and GET /api/scan/{uid} learn from a tap; `counter` only once a tag's MAC has verified. */
export type TapCheck = { verdict: TapVerdict; tagId: number | null; chip: TagChip | null; counter: number | null };

/** A view without SUN parameters: nothing to check, nothing written here (a counted view records it: scans/). */
export const UNVERIFIED_TAP: TapCheck = Object.freeze({ verdict: "unverified", tagId: null, chip: null, counter: null });

export type SunQuery = { picc_data?: unknown; cmac?: unknown; enc?: unknown };

type TapDeps = { db: Knex; config: Pick<Config, "tags"> };

const providers = new WeakMap<Config["tags"], TagKeyProvider>();

/** The process's one key provider for a configuration: the master key is read once, its HKDF PRK kept. */
export function tagKeyProvider(config: Pick<Config, "tags">): TagKeyProvider {
  let provider = providers.get(config.tags);
  if (!provider) {
    provider = new MasterKeyDerivation(config.tags.masterKey);
    providers.set(config.tags, provider);
  }
  return provider;
}

/**
 * Checks the SUN parameters of one opening of `product`'s scan URL and records the verdict (a genuine tap of one of
 * its tags advances that tag's counter). Without parameters it is `unverified` at once: the plain page pays nothing.
 */
export async function checkTap(
  deps: TapDeps,
  product: { id: number; brandId: number },
  query: SunQuery,
  client: { key: string; region: string | null },
): Promise<TapCheck> {
  if (!hasSunParams(query)) return UNVERIFIED_TAP;
  const tap = { brandId: product.brandId, productId: product.id, region: client.region };
  // Verdicts anyone can produce at will (a forged, unknown, misplaced or replayed URL) are recorded within a
  // per-client hourly budget, so anonymous requests cannot grow the tap log or flood the clone signals; the verdict
  // shown is the same either way. An authentic tap needs a fresh read of a real tag, and is always recorded.
  const recordBounded = async (row: Parameters<typeof insertTap>[1]) => {
    if (await reserveTapRecord(deps.db, client.key, TAP_RECORDS_PER_CLIENT_HOUR)) await insertTap(deps.db, row);
  };
  const parsed = parseSunParams(query);
  if (!parsed.ok) {
    await recordBounded({ ...tap, tagId: null, counter: null, verdict: "invalid" });
    return { verdict: "invalid", tagId: null, chip: null, counter: null };
  }
  const keys = tagKeyProvider(deps.config);

  const own = await signingTagsOf(deps.db, product.id, TAP_SEARCH.ownTags);
  for (const tag of own) {
    const counter = await counterIfFrom(keys, parsed.message, tag);
    if (counter === undefined) continue;
    const verdict = await acceptTap(deps.db, { ...tap, tagId: tag.id, counter });
    if (verdict === "replayed") await recordBounded({ ...tap, tagId: tag.id, counter, verdict: "replayed" });
    return { verdict, tagId: tag.id, chip: tag.chip, counter };
  }

  const others = await notBoundCandidates(deps.db, product.brandId, product.id, { encodedHere: TAP_SEARCH.encodedHere, recent: TAP_SEARCH.recentlyTapped });
  for (const tag of others) {
    const counter = await counterIfFrom(keys, parsed.message, tag);
    if (counter === undefined) continue;
    // Not accepted: the counter belongs to the tag's own product, whose next genuine tap must still pass.
    await recordBounded({ ...tap, tagId: tag.id, counter, verdict: "not_bound" });
    return { verdict: "not_bound", tagId: tag.id, chip: tag.chip, counter };
  }

  // A product with signing tags of its own was sent a MAC none of them made; one with none cannot check anything.
  const verdict = own.length > 0 ? "invalid" : "unknown_tag";
  await recordBounded({ ...tap, tagId: null, counter: null, verdict });
  return { verdict, tagId: null, chip: null, counter: null };
}

/** A plain view that counted as a scan (scans/scan-recorder.ts), recorded with its verdict for the tap analytics. */
export async function recordUnverifiedTap(db: Knex, view: { brandId: number; productId: number; region: string | null }): Promise<void> {
  await insertTap(db, { brandId: view.brandId, productId: view.productId, tagId: null, counter: null, region: view.region, verdict: "unverified" });
}

/** The tap's counter when its MAC verifies under `tag`'s keys and its PICCData names that tag; else undefined. */
async function counterIfFrom(keys: TagKeyProvider, message: SunMessage, tag: TagRecord): Promise<number | undefined> {
  const result = verifySunMessage(message, await keys.keysFor(tag.tagUid, tag.keyVersion), { expectedUid: tag.tagUid });
  return result.ok ? result.counter : undefined;
}
