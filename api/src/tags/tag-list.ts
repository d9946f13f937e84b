// The brand's NFC tags for the dashboard: each tag's chip, key version, status, product, last accepted counter,
// last tap and its taps counted by verdict.
import type { Knex } from "../db/knex";
import { NotFoundError } from "../errors";
import { productIdsByUid, listTagRecords, type TagListRow } from "./tag-records.repo";
import { TAP_VERDICTS, type TagStatus, type TapVerdict } from "./verdicts";

export type TagSummary = Omit<TagListRow, "counts" | "last_counter"> & { last_counter: number | null; taps: Record<TapVerdict, number> };

export async function listTags(
  deps: { db: Knex },
  brandId: number,
  options: { status?: TagStatus; productUid?: string; limit: number; offset: number },
): Promise<{ items: TagSummary[]; total: number }> {
  let productId: number | undefined;
  if (options.productUid) {
    const uid = options.productUid.toUpperCase();
    productId = (await productIdsByUid(deps.db, brandId, [uid])).get(uid);
    if (productId === undefined) throw new NotFoundError("Product");
  }
  const { rows, total } = await listTagRecords(deps.db, { brandId, status: options.status, productId }, options);
  const items = rows.map(({ counts, last_counter, ...row }) => ({
    ...row,
    // -1 is the column's "no tap accepted yet".
    last_counter: last_counter < 0 ? null : last_counter,
    taps: Object.fromEntries(TAP_VERDICTS.map((verdict) => [verdict, counts?.[verdict] ?? 0])) as Record<TapVerdict, number>,
  }));
  return { items, total };
}
