// SQL of app.product_translations: a brand's own wording of a product's name and description per language.
import type { Knex } from "knex";
import type { Lang } from "./languages";

export type ProductTranslation = { name: string; description: string };
/** Translations by language; a language without a row is absent. */
export type ProductTranslations = Partial<Record<Lang, ProductTranslation>>;

type TranslationRow = { product_id: number; lang: Lang; name: string; description: string };

/** The translations of each product in `productIds` (one query); products without any map to {}. */
export async function translationsOf(db: Knex, productIds: readonly number[]): Promise<Map<number, ProductTranslations>> {
  const byProduct = new Map<number, ProductTranslations>(productIds.map((id) => [id, {}]));
  if (productIds.length === 0) return byProduct;
  const rows = await db<TranslationRow>("app.product_translations")
    .whereIn("product_id", [...new Set(productIds)])
    .select("product_id", "lang", "name", "description");
  for (const row of rows) byProduct.get(row.product_id)![row.lang] = { name: row.name, description: row.description };
  return byProduct;
}

/** One translation of one product, or undefined. */
export async function findTranslation(db: Knex, productId: number, lang: Lang): Promise<ProductTranslation | undefined> {
  return db<TranslationRow>("app.product_translations").where({ product_id: productId, lang }).first("name", "description");
}

/** Names of products in `lang`, keyed by passport UID; only the products that have one. */
export async function translatedNamesByUid(db: Knex, uids: readonly string[], lang: Lang): Promise<Map<string, string>> {
  if (uids.length === 0) return new Map();
  const rows = await db("app.product_translations as t")
    .join("app.products as p", "p.id", "t.product_id")
    .whereIn("p.uid", [...new Set(uids)])
    .andWhere("t.lang", lang)
    .select<Array<{ uid: string; name: string }>>("p.uid", "t.name");
  return new Map(rows.map((row) => [row.uid, row.name]));
}

/**
 * Applies a create or update's `translations`: each language given is written (upsert); `null` for a language removes
 * it; languages not named keep their rows. Run inside the caller's transaction.
 */
export async function saveTranslations(
  db: Knex | Knex.Transaction,
  productId: number,
  translations: Partial<Record<Lang, ProductTranslation | null>>,
): Promise<void> {
  for (const [lang, translation] of Object.entries(translations) as Array<[Lang, ProductTranslation | null]>) {
    if (translation === null) {
      await db("app.product_translations").where({ product_id: productId, lang }).delete();
      continue;
    }
    await db("app.product_translations")
      .insert({ product_id: productId, lang, name: translation.name, description: translation.description, updated_at: db.fn.now() })
      .onConflict(["product_id", "lang"])
      .merge(["name", "description", "updated_at"]);
  }
}
