// SQL for a brand's white-label settings (the jsonb column app.brands.branding).
import type { Knex } from "../db/knex";

export async function readBranding(db: Knex, slug: string): Promise<{ brandId: number; name: string; branding: Record<string, unknown> } | undefined> {
  const row = await db("app.brands").where({ slug }).first<{ id: number; name: string; branding: Record<string, unknown> | null } | undefined>("id", "name", "branding");
  return row ? { brandId: row.id, name: row.name, branding: row.branding ?? {} } : undefined;
}

export async function writeBranding(db: Knex, brandId: number, branding: Record<string, unknown>): Promise<void> {
  await db("app.brands").where({ id: brandId }).update({ branding: JSON.stringify(branding), updated_at: db.fn.now() });
}
