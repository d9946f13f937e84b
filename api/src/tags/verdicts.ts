// What verification concludes about one opening of a scan URL (app.tag_taps.verdict), and the chips a tag can be.

/**
 * `authentic`: the MAC verified under the keys of a tag bound to this product and its counter moved on (accepted).
 * `replayed`: a genuine tap of that tag whose counter is not above the last one accepted (an old URL opened again).
 * `invalid`: SUN parameters that are malformed, or whose MAC verifies under no tag we tried.
 * `unknown_tag`: SUN parameters on a product with no signing tag bound, and no tag of the brand we tried matches.
 * `not_bound`: the MAC verifies under the keys of another of the brand's tags, bound elsewhere or to nothing.
 * `unverified`: no SUN parameters at all (a plain tag, a QR code, a typed link): nothing to check.
 */
export const TAP_VERDICTS = ["authentic", "replayed", "invalid", "unknown_tag", "not_bound", "unverified"] as const;
export type TapVerdict = (typeof TAP_VERDICTS)[number];

/** NTAG 424 DNA signs every tap (SUN); NTAG215 only carries a fixed UID anyone can copy. */
export const TAG_CHIPS = ["NTAG424", "NTAG215"] as const;
export type TagChip = (typeof TAG_CHIPS)[number];

export const TAG_STATUSES = ["unassigned", "active", "retired"] as const;
export type TagStatus = (typeof TAG_STATUSES)[number];

/** A chip UID as records hold it: 7 bytes, 14 upper-case hex digits (what NTAG 424 DNA and NTAG215 both have). */
export const TAG_UID_PATTERN = "^[0-9A-Fa-f]{14}$";

/** How a verdict reads to a shopper: a headline, a sentence or two, and the tone the page shows it in. */
export type VerdictWords = { headline: string; detail: string; tone: "ok" | "warning" | "danger" | "neutral" };

/** The words of each verdict for shoppers, on the scan page and in GET /api/scan/{uid}'s `message`. */
export function shopperWords(verdict: TapVerdict, brandName: string): VerdictWords {
  switch (verdict) {
    case "authentic":
      return {
        headline: "Genuine tag",
        detail: "This page was opened by the secure NFC tag made for this product. The tag signs every tap with a new code, and this one checked out just now.",
        tone: "ok",
      };
    case "replayed":
      return {
        headline: "This link was used before",
        detail:
          "The secure tag makes a new link every time it is tapped, and this one has been opened already. If you are holding the product, tap its tag again: a link sent to you or saved earlier does not show that the product is genuine.",
        tone: "warning",
      };
    case "invalid":
      return {
        headline: "This tag could not be verified",
        detail: `The code in this link does not match the secure tag of this product: the tag or the link may be copied or altered. Buy only from sellers you trust, or ask ${brandName}${brandName.endsWith(".") ? "" : "."}`,
        tone: "danger",
      };
    case "unknown_tag":
      return {
        headline: "Unknown tag",
        detail: `This link carries a tag code, but no secure tag is registered for this product, so it cannot be checked. Ask ${brandName} if the product came with a secure tag.`,
        tone: "warning",
      };
    case "not_bound":
      return {
        headline: "This tag belongs to another product",
        detail: `The tag is one of ${brandName}'s genuine tags, but it was made for a different item. Check that the tag is attached to the product it came with.`,
        tone: "danger",
      };
    case "unverified":
      return { headline: "Tag not checked", detail: "This page was opened without a secure tag code, so only the passport below is shown.", tone: "neutral" };
  }
}
