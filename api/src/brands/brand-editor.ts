// The dashboard's brand editor: the branding with its contrast check, saving a change (audited), and the draft a
// live preview renders without saving it. Bounds and checks are branding.ts's, the same as the operator CLI's.
import { recordAudit, type Actor } from "../audit/service";
import type { Knex } from "../db/knex";
import { brandAddress } from "../domains/service";
import { ValidationError } from "../errors";
import type { BrandAddress } from "../links";
import { lockBrandRow, newestProductUid } from "./brand-editor.repo";
import {
  brandingProblems,
  getStoredBranding,
  readBranding,
  setBranding,
  SOCIAL_FIELDS,
  type Branding,
  type BrandingPatch,
} from "./branding";
import { colourContrast, type ColourContrast } from "./contrast";
import { findLogoInfo } from "./logo.repo";

/** The colours the pages use while a brand has set none (pages/layout.ts). */
export const DEFAULT_PRIMARY = "#1F2937";
export const DEFAULT_SECONDARY = "#0E7490";

/** What the editor may change; the logo has its own upload. A string sets a field, null clears it. */
export type EditorPatch = Omit<BrandingPatch, "logo_url">;

export type EditorBranding = {
  name: string;
  slug: string;
  branding: Branding;
  logo: { mediaType: string; width: number; height: number } | null;
  contrast: { primary: ColourContrast; secondary: ColourContrast };
  /** The product the live preview shows: the brand's newest, or null when it has none yet (a sample is shown). */
  previewUid: string | null;
  /** Where its pages are served besides the main site (its profile's address depends on it). */
  address: BrandAddress;
};

type EditedBrand = { id: number; slug: string };

function contrastOf(branding: Branding): EditorBranding["contrast"] {
  return {
    primary: colourContrast(branding.primary_color ?? DEFAULT_PRIMARY),
    secondary: colourContrast(branding.secondary_color ?? DEFAULT_SECONDARY),
  };
}

export async function editorBranding(db: Knex, brand: EditedBrand): Promise<EditorBranding> {
  const [stored, logo, previewUid, address] = await Promise.all([
    getStoredBranding(db, brand.slug),
    findLogoInfo(db, brand.id),
    newestProductUid(db, brand.id),
    brandAddress(db, brand.id),
  ]);
  const branding = readBranding(stored.branding);
  return {
    name: stored.name,
    slug: brand.slug,
    branding,
    logo: logo ? { mediaType: logo.mediaType, width: logo.width, height: logo.height } : null,
    contrast: contrastOf(branding),
    previewUid: previewUid ?? null,
    address: address ?? { slug: brand.slug, customDomain: null },
  };
}

/** The fields a patch changes, by name (`social.website`), comparing with what is stored. */
function changedFields(before: Branding, after: Branding): string[] {
  const fields: string[] = [];
  for (const field of ["logo_url", "primary_color", "secondary_color", "tagline", "about"] as const) {
    if (before[field] !== after[field]) fields.push(field);
  }
  for (const field of SOCIAL_FIELDS) if (before.social?.[field] !== after.social?.[field]) fields.push(`social.${field}`);
  return fields;
}

/** Saves a change to the branding; a 422 names each field out of bounds. Audited when something changed. */
export async function updateBranding(db: Knex, brand: EditedBrand, actor: Actor, patch: EditorPatch): Promise<EditorBranding> {
  await db.transaction(async (trx) => {
    await lockBrandRow(trx, brand.id);
    const before = readBranding((await getStoredBranding(trx, brand.slug)).branding);
    const { branding: after } = await setBranding(trx, brand.slug, patch);
    const fields = changedFields(before, after);
    if (fields.length === 0) return;
    const colours = { primary_color: after.primary_color ?? null, secondary_color: after.secondary_color ?? null };
    await recordAudit(trx, brand.id, actor, { action: "branding.updated", target: brand.slug, details: { fields, ...colours } });
  });
  return editorBranding(db, brand);
}

/**
 * The stored branding with `patch` applied, checked as saving would check it (a 422 with the same details), but
 * not saved: what the live preview renders.
 */
export async function draftBranding(db: Knex, brand: EditedBrand, patch: EditorPatch): Promise<{ name: string; branding: Branding; previewUid: string | null }> {
  const [stored, previewUid] = await Promise.all([getStoredBranding(db, brand.slug), newestProductUid(db, brand.id)]);
  const draft: Record<string, unknown> = { ...stored.branding };
  const social: Record<string, unknown> = { ...((draft.social as Record<string, unknown> | undefined) ?? {}) };
  for (const [field, value] of Object.entries(patch)) {
    if (field === "social") continue;
    if (value === null) delete draft[field];
    else if (typeof value === "string") draft[field] = value.trim();
  }
  for (const field of SOCIAL_FIELDS) {
    const value = patch.social?.[field];
    if (value === null) delete social[field];
    else if (value !== undefined) social[field] = value.trim();
  }
  if (Object.keys(social).length > 0) draft.social = social;
  else delete draft.social;
  // Only the fields the draft changes are checked strictly: a stored value edited by hand is dropped, as pages do.
  const problems = brandingProblems(Object.fromEntries(Object.entries(draft).filter(([field]) => field in patch)));
  if (problems.length > 0) throw new ValidationError(problems, "The branding has invalid values.");
  return { name: stored.name, branding: readBranding(draft), previewUid: previewUid ?? null };
}
