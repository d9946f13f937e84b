// One product as the dashboard shows it: its stored fields, its public passport record (the same record GET
// /api/dpp/{uid} serves), the versions of its anchored content and its NFC tag.
import type { AppDeps } from "../deps";
import { NotFoundError } from "../errors";
import { buildPublicRecord, type PublicRecord } from "../passports/public-record";
import { publicPassport } from "../passports/public-passport";
import { productTag, settlePendingTag, type ProductTag } from "../tags/service";
import { productVersions, settlePendingVersion, type ProductVersion } from "./product-edits";
import { findProductByUid, type ProductRow } from "./products.repo";

export type ProductDetail = { product: ProductRow; record: PublicRecord; versions: ProductVersion[]; tag: ProductTag | null };

/** The brand's product; another brand's UID is NOT_FOUND. Writes whose outcome was never seen are settled first. */
export async function productDetail(deps: AppDeps, brandId: number, uid: string): Promise<ProductDetail> {
  const stored = await findProductByUid(deps.db, uid, brandId);
  if (!stored) throw new NotFoundError("Product");
  await Promise.all([settlePendingVersion(deps, stored), settlePendingTag(deps, stored)]);
  const passport = await publicPassport(deps, uid, undefined, brandId);
  const record = buildPublicRecord(deps.config, passport);
  const [versions, tag] = await Promise.all([productVersions(deps, passport.product), productTag(deps, passport.product, record.blockchain.nfc_tag_hash)]);
  return { product: passport.product, record, versions, tag };
}
