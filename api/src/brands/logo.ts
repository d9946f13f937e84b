// Brand logos uploaded in the dashboard: checked (real PNG or WebP, at least 512×512 px, transparent background),
// re-encoded, stored in Postgres and pointed at by the branding's logo_url, which the pages show at 44 px height.
//
// "Transparent background", as decided here: the image has an alpha channel, at least half of the pixels of its
// border ring (the outer 2% of its width and of its height, at least one pixel) are fully transparent (alpha 0), and
// it is not transparent everywhere. A fully opaque image, or one whose alpha channel is opaque along the border (a
// logo on a white or coloured square), is refused; a round badge touching the edges still passes.
import { createHash } from "node:crypto";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import { recordAudit, type Actor } from "../audit/service";
import type { Knex } from "../db/knex";
import { ValidationError } from "../errors";
import { lockBrandRow } from "./brand-editor.repo";
import { getStoredBranding, setBranding, UPLOADED_LOGO_PATH } from "./branding";
import { deleteLogo, findLogoBySlug, upsertLogo, type LogoMediaType, type StoredLogo } from "./logo.repo";

export type { LogoMediaType, StoredLogo };

/** The largest file accepted, as uploaded. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
/** Spec 1 and 8: at least 512×512 px. */
export const LOGO_MIN_PX = 512;
/** Larger images are refused before they are decoded: a small file can hold a huge, mostly empty image. */
export const LOGO_MAX_PX = 4096;
/** Stored no larger than this on either side: the pages show 44 px (132 px on a 3× screen), social previews more. */
export const LOGO_STORED_MAX_PX = 1024;
/** The border ring's width, as a share of the image's width (left and right) and height (top and bottom). */
export const BORDER_RING_SHARE = 0.02;
/** The share of the ring's pixels that must be fully transparent. */
export const TRANSPARENT_RING_SHARE = 0.5;

const NOT_AN_IMAGE = "must be a PNG or WebP image";
const OPAQUE = "must have a transparent background";

export type PreparedLogo = StoredLogo & {
  /** The size as uploaded (the stored image may be scaled down). */
  original: { width: number; height: number; bytes: number };
  /** Fully transparent share of the border ring, 0 to 1. */
  transparentBorder: number;
};

/** The format the file's first bytes announce, whatever the Content-Type said. */
export function sniffLogoFormat(bytes: Buffer): LogoMediaType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "image/webp";
  return undefined;
}

function refuse(problem: string): never {
  throw new ValidationError([{ field: "logo", problem }], `The logo ${problem}.`);
}

/**
 * Checks an uploaded file and re-encodes it in its own format (metadata dropped, at most 1024 px a side); throws a
 * ValidationError on field `logo` saying what is wrong with it.
 */
export async function prepareLogo(bytes: Buffer): Promise<PreparedLogo> {
  if (bytes.length === 0) refuse("is required: send the image file as the request body");
  if (bytes.length > LOGO_MAX_BYTES) refuse(`must be at most ${LOGO_MAX_BYTES / (1024 * 1024)} MB`);
  const mediaType = sniffLogoFormat(bytes);
  if (!mediaType) refuse(NOT_AN_IMAGE);

  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch {
    refuse(NOT_AN_IMAGE);
  }
  if (`image/${metadata.format}` !== mediaType || !metadata.width || !metadata.height) refuse(NOT_AN_IMAGE);
  const { width, height } = metadata;
  if (width < LOGO_MIN_PX || height < LOGO_MIN_PX) refuse(`must be at least ${LOGO_MIN_PX}×${LOGO_MIN_PX} px (got ${width}×${height})`);
  if (width > LOGO_MAX_PX || height > LOGO_MAX_PX) refuse(`must be at most ${LOGO_MAX_PX}×${LOGO_MAX_PX} px (got ${width}×${height})`);
  if (!metadata.hasAlpha) refuse(OPAQUE);

  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { limitInputPixels: LOGO_MAX_PX * LOGO_MAX_PX })
      .resize({ width: LOGO_STORED_MAX_PX, height: LOGO_STORED_MAX_PX, fit: "inside", withoutEnlargement: true })
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch {
    refuse(`${NOT_AN_IMAGE} (the file could not be decoded)`);
  }
  const { data, info } = decoded;
  // Grey or colour, each with its alpha last: anything else has no alpha to check.
  if (info.channels !== 2 && info.channels !== 4) refuse(OPAQUE);
  const transparentBorder = transparentRingShare(data, info.width, info.height, info.channels);
  if (transparentBorder < TRANSPARENT_RING_SHARE) refuse(OPAQUE);
  if (!hasVisiblePixel(data, info.channels)) refuse("must not be fully transparent");

  const raw = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const stored =
    mediaType === "image/png" ? await raw.png({ compressionLevel: 9 }).toBuffer() : await raw.webp({ quality: 90, alphaQuality: 100 }).toBuffer();
  return {
    contentHash: createHash("sha256").update(stored).digest("hex"),
    mediaType,
    width: info.width,
    height: info.height,
    bytes: stored,
    original: { width, height, bytes: bytes.length },
    transparentBorder,
  };
}

/** Share of the border ring's pixels whose alpha (the last channel) is 0. */
export function transparentRingShare(data: Buffer, width: number, height: number, channels: number): number {
  const ringX = Math.max(1, Math.round(width * BORDER_RING_SHARE));
  const ringY = Math.max(1, Math.round(height * BORDER_RING_SHARE));
  let ring = 0;
  let transparent = 0;
  for (let y = 0; y < height; y += 1) {
    const edgeRow = y < ringY || y >= height - ringY;
    for (let x = 0; x < width; x += 1) {
      if (!edgeRow && x >= ringX && x < width - ringX) {
        x = width - ringX - 1;
        continue;
      }
      ring += 1;
      if (data[(y * width + x) * channels + channels - 1] === 0) transparent += 1;
    }
  }
  return ring === 0 ? 0 : transparent / ring;
}

function hasVisiblePixel(data: Buffer, channels: number): boolean {
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 0) return true;
  return false;
}

/** The logo's address on this service: its content hash in the name, so it can be cached for good. */
export function logoPath(slug: string, logo: Pick<StoredLogo, "contentHash" | "mediaType">): string {
  const extension = logo.mediaType === "image/png" ? "png" : "webp";
  return `/brand-assets/${slug}/logo-${logo.contentHash.slice(0, 16)}.${extension}`;
}

type EditedBrand = { id: number; slug: string };

/** Stores a checked logo as the brand's logo (replacing any other) and points its branding at it. */
export async function uploadLogo(db: Knex, brand: EditedBrand, actor: Actor, bytes: Buffer): Promise<PreparedLogo> {
  // Decoding is the slow part: done before the transaction, so the brand's row is locked only for the writes.
  const logo = await prepareLogo(bytes);
  await db.transaction(async (trx) => {
    await lockBrandRow(trx, brand.id);
    await upsertLogo(trx, brand.id, { ...logo, uploadedBy: "userId" in actor ? actor.userId : null });
    await setBranding(trx, brand.slug, { logo_url: logoPath(brand.slug, logo) });
    await recordAudit(trx, brand.id, actor, {
      action: "logo.updated",
      target: logoPath(brand.slug, logo),
      details: { media_type: logo.mediaType, width: logo.width, height: logo.height, uploaded: logo.original },
    });
  });
  return logo;
}

/** Takes the brand's logo off its pages, uploaded or set by an operator as a URL; false when there was none. */
export async function removeLogo(db: Knex, brand: EditedBrand, actor: Actor): Promise<boolean> {
  return db.transaction(async (trx) => {
    await lockBrandRow(trx, brand.id);
    const deleted = await deleteLogo(trx, brand.id);
    const shown = (await getStoredBranding(trx, brand.slug)).branding.logo_url;
    if (!deleted && shown === undefined) return false;
    await setBranding(trx, brand.slug, { logo_url: null });
    await recordAudit(trx, brand.id, actor, { action: "logo.removed", target: typeof shown === "string" ? shown.slice(0, 500) : null });
    return true;
  });
}

/** The logo a public asset address names, while it is the brand's current one; undefined otherwise. */
export async function logoAsset(db: Knex, slug: string, file: string): Promise<StoredLogo | undefined> {
  const path = `/brand-assets/${slug}/${file}`;
  if (!UPLOADED_LOGO_PATH.test(path)) return undefined;
  const logo = await findLogoBySlug(db, slug);
  return logo && logoPath(slug, logo) === path ? logo : undefined;
}
