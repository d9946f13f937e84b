// SQL for products: registering them, and reading one with its brand, manufacturer profile and issuance state.
import { compiledOnce, type Knex } from "../db/knex";
import { viewsUnpublished } from "../onchain/views";
import { passportWithEventsQuery, toPassportWithEvents, type PassportWithEvents, type PassportWithEventsRow } from "../onchain/passports.repo";
import type { Granularity, Lineage, Provenance } from "../passports/content";
import type { TextileData } from "../passports/textile";

export type ProductRow = {
  id: number;
  brand_id: number;
  uid: string;
  sku: string;
  name: string;
  category: string;
  fabric_type: string | null;
  price: string;
  currency: string;
  description: string | null;
  factory_id: string | null;
  /** The factory that confirmed making it (see confirmMaker); the maker is confirmed only while this equals factory_id. */
  confirmed_factory_id: string | null;
  factory_confirmed_at: Date | null;
  fiber_composition: Array<{ fiber: string; percent: number }>;
  certifications: Array<{ code: string; issuer: string; number: string; valid_until: string; evidence_url?: string }>;
  care_instructions: string;
  country_of_manufacture: string | null;
  /** Where the values a brand may leave out came from; null for products registered before it was recorded. */
  provenance: Provenance | null;
  carbon_kg: string;
  carbon_rating: string;
  /** GS1 identifiers (migration 026): the GTIN as GTIN-14, lot (AI 10) and serial (AI 21); null when not given. */
  gtin: string | null;
  lot: string | null;
  serial: string | null;
  created_at: Date;
  updated_at: Date;
  /** EN 18223 (migration 033): the persistent passport id, its granularity, links and lifecycle status. */
  dpp_id: string;
  granularity: Granularity;
  model_id: number | null;
  batch_id: number | null;
  lineage: Lineage | null;
  content_version: number;
  dpp_status: "active" | "inactive" | "archived";
  dpp_status_changed_at: Date | null;
  /** Migration 036: the textile section (passports/textile.ts), null when none was given. */
  textile: TextileData | null;
  brand_slug: string;
  /** The brand's EORI or other Annex III operator id (EN 18223 economicOperatorId), null when not set. */
  brand_economic_operator_id: string | null;
  /** The maker's GS1 GLN and Open Supply Hub id (EN 18223 facilityId), null when unknown. */
  factory_gln: string | null;
  factory_os_id: string | null;
  brand_name: string;
  brand_status: string;
  /** The brand's verified custom domain (its absolute URLs use it; links.ts), null when it has none. */
  brand_custom_domain: string | null;
  factory_name: string | null;
  factory_city: string | null;
  factory_country: string | null;
  passport_token_id: string | null;
  passport_status: string | null;
  passport_tx_hash: string | null;
  passport_data_hash: string | null;
  passport_contract: string | null;
  passport_chain_id: number | null;
  passport_block_number: string | null;
  passport_minted_at: Date | null;
  /**
   * The brand's access overrides (element -> access class, null when it has none; access/classes.ts), read with the
   * product by the point reads (findProductByUid, findProductByDppId) so a public read needs no statement of its own
   * for them; absent from the rows of findProductsByIds.
   */
  access_overrides?: Record<string, string> | null;
  /**
   * The brand's translations of the name and description by language (null: none), read with the product by the
   * point reads so a page or record in every language needs no statement of its own; absent from findProductsByIds.
   */
  translations?: Partial<Record<string, { name: string; description: string }>> | null;
};

/** A product by UID, case-insensitively (UIDs are stored upper case), with everything its passport shows. */
export async function findProductByUid(db: Knex, uid: string, brandId?: number): Promise<ProductRow | undefined> {
  const read = brandId === undefined ? productByUid(db, { key: uid.toUpperCase() }) : productByUidOfBrand(db, { key: uid.toUpperCase(), brandId });
  return (await read)[0];
}

/** A product by its persistent passport id (EN 18219, migration 033), with everything its passport shows. */
export async function findProductByDppId(db: Knex, dppId: string, brandId?: number): Promise<ProductRow | undefined> {
  const read = brandId === undefined ? productByDppId(db, { key: dppId }) : productByDppIdOfBrand(db, { key: dppId, brandId });
  return (await read)[0];
}

// The point reads of a product, each built by knex once (compiledOnce): by UID or passport id, of any brand or one.
const productBy = (column: "p.uid" | "p.dpp_id", ofBrand: boolean) =>
  compiledOnce<ProductRow, "key" | "brandId">((db, param) => {
    const query = productQuery(db).where(column, param("key"));
    return ofBrand ? query.where("p.brand_id", param("brandId")) : query;
  });
const productByUid = productBy("p.uid", false);
const productByUidOfBrand = productBy("p.uid", true);
const productByDppId = productBy("p.dpp_id", false);
const productByDppIdOfBrand = productBy("p.dpp_id", true);

/** A product as findProductByUid reads it, with what the indexer holds of its passport and its maker. */
export type ProductWithChain = {
  product: ProductRow;
  /** The passport with its events and their factories' places; undefined while none is indexed. */
  chain: PassportWithEvents | undefined;
  /** The maker's registry entry: verified or not; undefined when the product names no maker or the registry has none. */
  factoryVerified: boolean | undefined;
  /** False when the indexer's views are not published yet: chain and factoryVerified are then unknown, not absent. */
  viewsRead: boolean;
};

/**
 * How long the product read with the indexer's view of it may take before it is cancelled and the product is read
 * alone. The statement reads several of Ponder's tables; during a reorganisation Ponder's transaction takes them one
 * by one (it drops and re-creates their triggers, ACCESS EXCLUSIVE) and retries a step that waited on this statement
 * while keeping what it holds, so the two could wait on each other until DATABASE_STATEMENT_TIMEOUT_MS (30 s). A
 * cancelled statement lets Ponder finish at once; a shopper gets the product without the chain for that moment.
 */
export const VIEWS_READ_CANCEL_MS = 2_000;

/**
 * findProductByUid, with the indexer's passport of `tokenId` (the UID's, tokenIdOf) and whether its maker is verified
 * in the same statement: the public record and the brand API read all three on every request, and each round trip
 * cost the API and Postgres more than the reads themselves (`npm run bench:volume`). Until the indexer has published
 * its views (`schema`), or when the statement fails otherwise, the product alone is read.
 */
export async function findProductWithChain(
  db: Knex,
  schema: string,
  uid: string,
  tokenId: string,
  brandId?: number,
  onViewsFailed?: (error: unknown) => void,
): Promise<ProductWithChain | undefined> {
  const values = { key: uid.toUpperCase(), tokenId, brandId };
  let rows: Array<ProductRow & { chain: PassportWithEventsRow | null; factory_verified: boolean | null }>;
  try {
    rows = await (brandId === undefined ? productWithChainByUid : productWithChainByUidOfBrand)(db, values, schema, { cancelAfterMs: VIEWS_READ_CANCEL_MS });
  } catch (error) {
    // The views not yet published (or any other failure to read them, which `onViewsFailed` hears of): the product
    // alone, as the record of a passport the indexer has not seen, which is what a separate read of the views gave.
    if (!viewsUnpublished(error)) onViewsFailed?.(error);
    const product = await findProductByUid(db, uid, brandId);
    return product && { product, chain: undefined, factoryVerified: undefined, viewsRead: false };
  }
  if (!rows[0]) return undefined;
  const { chain, factory_verified: factoryVerified, ...product } = rows[0];
  return { product, chain: chain ? toPassportWithEvents(chain) : undefined, factoryVerified: factoryVerified ?? undefined, viewsRead: true };
}

const productWithChainBy = (ofBrand: boolean) =>
  compiledOnce<ProductRow & { chain: PassportWithEventsRow | null; factory_verified: boolean | null }, "key" | "brandId" | "tokenId">(
    (db, param, schema) => {
      const query = productQuery(db)
        .select(
          db.raw("(SELECT row_to_json(c) FROM ? AS c) AS chain", [passportWithEventsQuery(db, schema, param("tokenId"))]),
          db.raw("(SELECT coalesce(r.verified, false) FROM ??.factory r WHERE r.factory_id = p.factory_id) AS factory_verified", [schema]),
        )
        .where("p.uid", param("key"));
      return ofBrand ? query.where("p.brand_id", param("brandId")) : query;
    },
  );
const productWithChainByUid = productWithChainBy(false);
const productWithChainByUidOfBrand = productWithChainBy(true);

/** What a product is read with: its row, brand, manufacturer profile, custom domain and issuance state. */
const PRODUCT_COLUMNS = [
  "p.*",
  "b.slug as brand_slug",
  "b.economic_operator_id as brand_economic_operator_id",
  "f.gln as factory_gln",
  "f.os_id as factory_os_id",
  "b.name as brand_name",
  "b.status as brand_status",
  "d.hostname as brand_custom_domain",
  "f.name as factory_name",
  "f.city as factory_city",
  "f.country as factory_country",
  "x.token_id as passport_token_id",
  "x.status as passport_status",
  "x.tx_hash as passport_tx_hash",
  "x.data_hash as passport_data_hash",
  "x.contract_address as passport_contract",
  "x.chain_id as passport_chain_id",
  "x.block_number as passport_block_number",
  "x.minted_at as passport_minted_at",
];

/** The point read of one product (add its `where`): PRODUCT_COLUMNS with the brand's overrides and the translations. */
export function productQuery(db: Knex) {
  return productsQuery(db).first<ProductRow | undefined>(
    ...PRODUCT_COLUMNS,
    db.raw("(SELECT json_object_agg(o.element, o.access_class) FROM app.access_overrides o WHERE o.brand_id = p.brand_id) AS access_overrides"),
    db.raw(
      "(SELECT json_object_agg(t.lang, json_build_object('name', t.name, 'description', t.description)) FROM app.product_translations t WHERE t.product_id = p.id) AS translations",
    ),
  );
}

/**
 * The products with these ids, each read as findProductByUid reads one (the same joins and columns, so a passport's
 * content is built from the same row whichever way it is issued).
 */
export async function findProductsByIds(db: Knex, ids: number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return productsQuery(db)
    .whereIn("p.id", ids)
    .select<ProductRow[]>(...PRODUCT_COLUMNS);
}

function productsQuery(db: Knex) {
  return db("app.products as p")
    .join("app.brands as b", "b.id", "p.brand_id")
    .leftJoin("app.factory_profiles as f", "f.factory_id", "p.factory_id")
    .leftJoin("app.passports as x", "x.product_id", "p.id")
    .leftJoin("app.custom_domains as d", (on) => on.on("d.brand_id", "p.brand_id").andOnVal("d.status", "verified"));
}


/**
 * Records that `factoryId` confirmed it made the product, by acting on it through its operator account. Only the
 * maker the brand declared can confirm: the row is untouched when `factoryId` is another factory. The first
 * confirmation's time is kept.
 */
export async function confirmMaker(db: Knex, productId: number, factoryId: number): Promise<void> {
  await db("app.products")
    .where({ id: productId, factory_id: factoryId })
    .whereRaw("confirmed_factory_id IS DISTINCT FROM ?", [factoryId])
    .update({ confirmed_factory_id: factoryId, factory_confirmed_at: db.fn.now() });
}

export type NewProduct = {
  brand_id: number;
  uid: string;
  sku: string;
  name: string;
  category: string;
  fabric_type: string | null;
  price: number;
  currency: string;
  description: string | null;
  factory_id: number | null;
  fiber_composition: string;
  certifications: string;
  care_instructions: string;
  country_of_manufacture: string | null;
  /** JSON of the Provenance (passports/content.ts). */
  provenance: string;
  carbon_kg: number;
  carbon_rating: string;
  gtin?: string | null;
  lot?: string | null;
  serial?: string | null;
  /** JSON of the textile section (passports/textile.ts). */
  textile?: string;
} & Partial<PassportLink>;

/** A batch or item passport's place under its model and batch (migration 033), set when it is registered. */
export type PassportLink = { granularity: Granularity; model_id: number | null; batch_id: number | null; lineage: string | null };

const UNIQUE_VIOLATION = "23505";

/** The unique index behind "one item per GTIN and serial" (migration 026). */
export const GTIN_SERIAL_UNIQUE = "products_gtin_serial_unique";

/** Whether a product other than `exceptId` has this GTIN and serial (checked before an edit is anchored on chain). */
export async function gtinSerialInUse(db: Knex, gtin: string, serial: string, exceptId: number): Promise<boolean> {
  return (await db("app.products").where({ gtin, serial }).whereNot("id", exceptId).first("id")) !== undefined;
}

/**
 * Gives each GTIN no brand holds yet to `brandId`, and returns the brand holding each of `gtins` (GTIN-14s) after.
 * Concurrent first claims of one GTIN: the insert of the second waits for the first, then finds it taken.
 */
export async function claimGtins(db: Knex, brandId: number, gtins: string[]): Promise<Map<string, number>> {
  const distinct = [...new Set(gtins)];
  if (distinct.length === 0) return new Map();
  await db("app.gtin_owners")
    .insert(distinct.map((gtin) => ({ gtin, brand_id: brandId })))
    .onConflict("gtin")
    .ignore();
  const rows = await db("app.gtin_owners").whereIn("gtin", distinct).select<Array<{ gtin: string; brand_id: number }>>("gtin", "brand_id");
  return new Map(rows.map((r) => [r.gtin, r.brand_id]));
}

/** The unique index behind "one product per SKU in a brand" (migration 031). */
export const SKU_UNIQUE = "products_brand_sku_unique";

/** Whether `error` is Postgres refusing a second product of a brand with the same SKU. */
export function isSkuTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === UNIQUE_VIOLATION && constraint === SKU_UNIQUE;
}

/**
 * The brand's products without a serial that have one of `skus`, other than `exceptId`: SKU → the UID of the
 * (oldest) one. Serialised items share their trade item's SKU, so they neither hold a SKU nor are refused one.
 */
export async function productsWithSkus(db: Knex, brandId: number, skus: string[], exceptId?: number): Promise<Map<string, string>> {
  const distinct = [...new Set(skus)];
  if (distinct.length === 0) return new Map();
  const query = db("app.products").where("brand_id", brandId).whereIn("sku", distinct).whereNull("serial").orderBy("id", "desc").select<Array<{ sku: string; uid: string }>>("sku", "uid");
  if (exceptId !== undefined) query.whereNot("id", exceptId);
  return new Map((await query).map((r) => [r.sku, r.uid]));
}

/** Whether `error` is Postgres refusing a second product with the same GTIN and serial. */
export function isGtinSerialTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === UNIQUE_VIOLATION && constraint === GTIN_SERIAL_UNIQUE;
}

/** Inserts the product; returns undefined if the UID is taken (the caller draws another). */
export async function insertProduct(db: Knex, product: NewProduct): Promise<{ id: number } | undefined> {
  try {
    const [row] = await db("app.products").insert(product).returning<Array<{ id: number }>>(["id"]);
    return row;
  } catch (error) {
    if ((error as { code?: string; constraint?: string }).code === UNIQUE_VIOLATION && (error as { constraint?: string }).constraint === "products_uid_unique") {
      return undefined;
    }
    throw error;
  }
}
