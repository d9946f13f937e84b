// A passport as the customer-facing pages show it: the public record as the public may see it (docs/access.md: the
// elements a brand or the defaults give only to readers with a legitimate interest or authorities are absent), with
// its brand's white-label branding and, once minted, its certificate PDF.
import { accessOfProduct, visiblePublicRecord } from "../access/reads";
import { PUBLIC_READER } from "../access/readers";
import type { AppDeps } from "../deps";
import { findPageBrand, type PageBrandRow } from "../brands/brand-profile.repo";
import { readBranding } from "../brands/branding";
import { NotFoundError } from "../errors";
import type { PageBrand } from "../pages/layout";
import { brandAddressOf, certificatePdfUrl } from "../links";
import { publicPassport, type PublicPassport } from "./public-passport";
import { buildPublicRecord, type PublicRecord } from "./public-record";

export type PassportPage = {
  passport: PublicPassport;
  /** The public's view of the record: pages are for anyone, so they never show more, whoever asks. */
  record: PublicRecord;
  /** The element paths the public does not see (`access.withheld`): the page says some details are for authorised readers. */
  withheld: string[];
  brandRow: PageBrandRow;
  brand: PageBrand;
  /** The certificate PDF, once the passport is minted. */
  pdfUrl: string | null;
};

/** A passport as the public API serves it, with its brand's branding; NOT_FOUND for an unknown UID. */
export async function passportPage(deps: AppDeps, uid: string): Promise<PassportPage> {
  const passport = await publicPassport(deps, uid);
  const brandRow = await findPageBrand(deps.db, { id: passport.product.brand_id });
  if (!brandRow) throw new NotFoundError("Passport");
  const { product } = passport;
  const minted = product.passport_status === "minted" && product.passport_tx_hash !== null;
  const visible = await visiblePublicRecord(deps, PUBLIC_READER, buildPublicRecord(deps.config, passport), "PublicRecord", accessOfProduct(product));
  // A maker the brand withholds from the public reads as none declared (the record leaves the key out).
  const record = { manufacturer: null, ...visible } as PublicRecord & { access: { withheld: string[] } };
  return {
    passport,
    record,
    withheld: record.access.withheld,
    brandRow,
    brand: pageBrand(brandRow),
    pdfUrl: minted ? certificatePdfUrl(deps.config, product.uid, brandAddressOf(product)) : null,
  };
}

/** The brand as page headers show it: name, slug and the branding, read leniently. */
export function pageBrand(row: PageBrandRow): PageBrand {
  return { slug: row.slug, name: row.name, branding: readBranding(row.branding) };
}
