// The JSON of the brand's NFC tags in the dashboard list.
import type { TagSummary } from "../../../tags/tag-list";

export function presentTag(tag: TagSummary) {
  return {
    tag_uid: tag.tag_uid,
    chip: tag.chip,
    key_version: tag.chip === "NTAG424" ? tag.key_version : null,
    status: tag.status,
    product_uid: tag.product_uid,
    last_counter: tag.last_counter,
    last_accepted_at: tag.last_accepted_at ? new Date(tag.last_accepted_at).toISOString() : null,
    last_tap: tag.last_tap_at && tag.last_verdict ? { at: new Date(tag.last_tap_at).toISOString(), verdict: tag.last_verdict } : null,
    taps: tag.taps,
    created_at: new Date(tag.created_at).toISOString(),
  };
}
