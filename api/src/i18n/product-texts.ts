// A product's name and description as a shopper page shows them in a language: the brand's translation when it
// gave one, else the product's own words (which are also what the passport anchors on chain).
import type { Knex } from "knex";
import { NotFoundError, ValidationError } from "../errors";
import type { Lang } from "./languages";
import { findTranslation, saveTranslations, translatedNamesByUid, translationsOf, type ProductTranslation, type ProductTranslations } from "./translations.repo";

export type { ProductTranslation, ProductTranslations } from "./translations.repo";

/** The brand's translation of one product in `lang`, or undefined. */
export function translationOf(db: Knex, productId: number, lang: Lang): Promise<ProductTranslation | undefined> {
  return findTranslation(db, productId, lang);
}

/** Names in `lang` of the products with these UIDs that have one (a list page, the PDF). */
export function translatedNames(db: Knex, uids: readonly string[], lang: Lang): Promise<Map<string, string>> {
  return translatedNamesByUid(db, uids, lang);
}

export type ProductTexts = { name: string; description: string; /** True when the words are the brand's translation. */ translated: boolean };

/** The pure rule, for callers that already hold the row: a translated name wins; an empty translated description falls back. */
export function pickTexts(original: { name: string; description: string | null }, translation: ProductTranslation | undefined): ProductTexts {
  if (!translation) return { name: original.name, description: original.description ?? "", translated: false };
  return { name: translation.name, description: translation.description || (original.description ?? ""), translated: true };
}

/** The product's texts in `lang`, with fallbacks; NotFound is the caller's concern (an unknown id gives empty texts). */
export async function productTexts(db: Knex, productId: number, lang: Lang): Promise<ProductTexts> {
  const [product, translation] = await Promise.all([
    db("app.products").where({ id: productId }).first<{ name: string; description: string | null } | undefined>("name", "description"),
    findTranslation(db, productId, lang),
  ]);
  return pickTexts(product ?? { name: "", description: null }, translation);
}

/** What a create or edit may say about translations: each language's words, or null to remove it. */
export type TranslationsChange = Partial<Record<Lang, { name: string; description?: string } | null>>;

/** Trimmed words; a name of only spaces is refused, as the product's own name is. */
function cleanTranslations(change: TranslationsChange): Partial<Record<Lang, ProductTranslation | null>> {
  const problems: Array<{ field: string; problem: string }> = [];
  const clean: Partial<Record<Lang, ProductTranslation | null>> = {};
  for (const [lang, value] of Object.entries(change) as Array<[Lang, { name: string; description?: string } | null]>) {
    if (value === null) {
      clean[lang] = null;
      continue;
    }
    const name = value.name.trim();
    if (!name) problems.push({ field: `translations.${lang}.name`, problem: "must not be blank" });
    clean[lang] = { name, description: (value.description ?? "").trim() };
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return clean;
}

/** Checks a change before anything is written (a create or edit refuses the whole request on a bad translation). */
export function checkTranslations(change: TranslationsChange | undefined): void {
  if (change) cleanTranslations(change);
}

/** Saves a brand's translations of its product `uid`; another brand's UID is NOT_FOUND, as if it did not exist. */
export async function saveProductTranslations(db: Knex, brandId: number, uid: string, change: TranslationsChange): Promise<void> {
  const clean = cleanTranslations(change);
  const product = await db("app.products").where({ uid: uid.toUpperCase(), brand_id: brandId }).first<{ id: number } | undefined>("id");
  if (!product) throw new NotFoundError("Product");
  await saveTranslations(db, product.id, clean);
}

/** The translations of a product row: those it was read with (a point read), else read now. */
export async function translationsOfProduct(db: Knex, product: { id: number; translations?: ProductTranslations | null }): Promise<ProductTranslations> {
  if (product.translations !== undefined) return product.translations ?? {};
  return (await translationsOf(db, [product.id])).get(product.id) ?? {};
}
