// SQL of uploaded brand logos (app.brand_logos): one current logo per brand, its bytes and content hash.
import type { Knex } from "../db/knex";

export type LogoMediaType = "image/png" | "image/webp";

export type StoredLogo = { contentHash: string; mediaType: LogoMediaType; width: number; height: number; bytes: Buffer };

/** Replaces the brand's logo. */
export async function upsertLogo(db: Knex, brandId: number, logo: StoredLogo & { uploadedBy: number | null }): Promise<void> {
  await db("app.brand_logos")
    .insert({
      brand_id: brandId,
      content_hash: logo.contentHash,
      media_type: logo.mediaType,
      width: logo.width,
      height: logo.height,
      bytes: logo.bytes,
      uploaded_by: logo.uploadedBy,
      created_at: db.fn.now(),
    })
    .onConflict("brand_id")
    .merge();
}

/** Removes the brand's logo; whether there was one. */
export async function deleteLogo(db: Knex, brandId: number): Promise<boolean> {
  return (await db("app.brand_logos").where({ brand_id: brandId }).del()) > 0;
}

/** The current logo of the brand with this slug, or undefined. */
export async function findLogoBySlug(db: Knex, slug: string): Promise<StoredLogo | undefined> {
  const row = await db("app.brand_logos as l")
    .join("app.brands as b", "b.id", "l.brand_id")
    .where("b.slug", slug)
    .first<{ content_hash: string; media_type: LogoMediaType; width: number; height: number; bytes: Buffer } | undefined>(
      "l.content_hash",
      "l.media_type",
      "l.width",
      "l.height",
      "l.bytes",
    );
  return row ? { contentHash: row.content_hash, mediaType: row.media_type, width: row.width, height: row.height, bytes: row.bytes } : undefined;
}

/** Size and type of the brand's logo, without its bytes (for the editor). */
export async function findLogoInfo(db: Knex, brandId: number): Promise<Omit<StoredLogo, "bytes"> | undefined> {
  const row = await db("app.brand_logos")
    .where({ brand_id: brandId })
    .first<{ content_hash: string; media_type: LogoMediaType; width: number; height: number } | undefined>("content_hash", "media_type", "width", "height");
  return row ? { contentHash: row.content_hash, mediaType: row.media_type, width: row.width, height: row.height } : undefined;
}
