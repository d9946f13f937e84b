// The changes feed a primary offers its back-up operator (docs/backup.md): which passports changed since an instant
// (minted, a new version anchored, a lifecycle status changed), oldest change first, paged. EN 18222 reads a passport
// by an id the reader already knows; this is how the back-up learns the ids. Behind BACKUP_FEED_KEY: a list of every
// passport says how many products a brand makes, which the passports one by one do not.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Knex } from "../db/knex";
import { NotFoundError, UnauthorizedError, ValidationError } from "../errors";
import { changesSince } from "./backup.repo";

const CURSOR = /^([0-9]{1,20})\.(.{1,70})$/s;

/** Checks the bearer key of a feed request against BACKUP_FEED_KEY (a deployment without one has no feed). */
export function checkFeedKey(feedKey: string | undefined, authorization: string | undefined): void {
  if (!feedKey) throw new NotFoundError("Changes feed (this deployment names no back-up operator key)");
  const given = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  const digest = (value: string) => createHash("sha256").update(value).digest();
  if (!given || !timingSafeEqual(digest(given), digest(feedKey))) throw new UnauthorizedError("Send the back-up operator's feed key as 'Authorization: Bearer <key>'.");
}

/** One page of the feed from `since`, after the previous page's `cursor`. */
export async function changesFeed(db: Knex, since: Date, cursor: string | undefined, limit: number) {
  const match = cursor === undefined ? undefined : CURSOR.exec(cursor);
  if (cursor !== undefined && !match) throw new ValidationError([{ field: "query.cursor", problem: "is not a cursor this feed gave" }]);
  const rows = await changesSince(db, since, match ? { changedUs: match[1]!, dppId: match[2]! } : undefined, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    changes: page.map((row) => ({ dppId: row.dpp_id, changedAt: new Date(Number(BigInt(row.changed_us) / 1000n)).toISOString() })),
    paging_metadata: rows.length > limit && last ? { cursor: `${last.changed_us}.${last.dpp_id}` } : {},
  };
}
