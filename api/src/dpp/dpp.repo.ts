// SQL of the EN 18222 lifecycle API: passports by product identifier, the version current at an instant, the
// lifecycle status and the links between model, batch and item passports (migration 033).
import { withDates } from "../db/json-rows";
import { compiledOnce, prepared, type Knex } from "../db/knex";
import type { Granularity } from "../passports/content";
import { productQuery, type ProductRow } from "../products/products.repo";
import { registrationFromJson, type RegistrationRow } from "../registry/registrations.repo";

/** One anchored version of a passport (app.passport_version_history). */
export type VersionRecord = {
  version: number;
  data_hash: string;
  /** The canonical JSON the hash was computed over; null for versions written before migration 033. */
  content: string | null;
  valid_from: Date;
  tx_hash: string | null;
  block_number: string | null;
};

/** The anchored version of a product current at `at`: the latest whose anchoring happened at or before it. */
export async function versionAt(db: Knex, productId: number, at: Date): Promise<VersionRecord | undefined> {
  return db("app.passport_version_history")
    .where("product_id", productId)
    .where("valid_from", "<=", at)
    .orderBy("version", "desc")
    .first<VersionRecord | undefined>("version", "data_hash", "content", "valid_from", "tx_hash", "block_number");
}

/** Every anchored version of a product, oldest first. */
export async function versionsOf(db: Knex, productId: number): Promise<VersionRecord[]> {
  return db("app.passport_version_history")
    .where("product_id", productId)
    .orderBy("version")
    .select<VersionRecord[]>("version", "data_hash", "content", "valid_from", "tx_hash", "block_number");
}

/** A passport as ReadDPPById renders it: its product row, its anchored versions (oldest first) and its latest registration. */
export type DppWithHistory = { product: ProductRow; versions: VersionRecord[]; registration: RegistrationRow | undefined };

/**
 * The product as findProductByDppId reads it (or by UID), with its versions and latest registration in the same
 * statement: every EN 18222 read needs all three, and each round trip cost the API and Postgres more than the read
 * (`npm run bench:volume`). The versions and the registration arrive as JSON and are read back into their rows' types.
 */
export async function findDppWithHistory(db: Knex, by: { dppId: string } | { uid: string }): Promise<DppWithHistory | undefined> {
  const [row] = "dppId" in by ? await dppWithHistoryByDppId(db, { key: by.dppId }) : await dppWithHistoryByUid(db, { key: by.uid.toUpperCase() });
  if (!row) return undefined;
  const { versions, registration, ...product } = row;
  return {
    product,
    versions: versions.map((version) => withDates<VersionRecord>(version, ["valid_from"])),
    registration: registration ? registrationFromJson(registration) : undefined,
  };
}

type DppWithHistoryRow = ProductRow & { versions: Array<Record<string, unknown>>; registration: Record<string, unknown> | null };

/** Built once each (compiledOnce): every EN 18222 read of a passport runs one of them. */
const dppWithHistoryBy = (column: "p.dpp_id" | "p.uid") =>
  compiledOnce<DppWithHistoryRow, "key">((db, param) =>
    productQuery(db)
      .select(
        db.raw(
          `coalesce((SELECT json_agg(json_build_object('version', h.version, 'data_hash', h.data_hash, 'content', h.content,
             'valid_from', h.valid_from, 'tx_hash', h.tx_hash, 'block_number', h.block_number) ORDER BY h.version)
           FROM app.passport_version_history h WHERE h.product_id = p.id), '[]') AS versions`,
        ),
        db.raw("(SELECT row_to_json(r) FROM app.registry_registrations r WHERE r.product_id = p.id ORDER BY r.version DESC LIMIT 1) AS registration"),
      )
      .where(column, param("key")),
  );
const dppWithHistoryByDppId = dppWithHistoryBy("p.dpp_id");
const dppWithHistoryByUid = dppWithHistoryBy("p.uid");

/** What a product identifier names: a UID, or GS1 keys (a GTIN, with a lot or a serial). */
export type ProductKey = { uid: string } | { gtin: string; lot?: string; serial?: string };

export type PassportRef = { product_id: number; dpp_id: string; granularity: Granularity; brand_id: number };

/**
 * The passports a product identifier names, most general first. A GTIN with a serial names one item; with a lot,
 * that lot's batch passport and its items; alone, every passport of the trade item (model first).
 */
export async function passportsByKey(db: Knex, key: ProductKey, limit = 100): Promise<PassportRef[]> {
  if ("uid" in key) return passportsByUid(db, { uid: key.uid.toUpperCase() });
  const query = prepared(db("app.products")).select<PassportRef[]>("id as product_id", "dpp_id", "granularity", "brand_id").limit(limit);
  query.where("gtin", key.gtin);
  if (key.serial !== undefined) query.where("serial", key.serial);
  if (key.lot !== undefined) query.where("lot", key.lot);
  // Model, then batch, then item, each oldest first: the first is the passport that speaks for the others.
  return query.orderByRaw("CASE granularity WHEN 'model' THEN 0 WHEN 'batch' THEN 1 ELSE 2 END, id");
}

/** Built once (compiledOnce): every EN 18222 read by product id runs it. A UID names one passport. */
const passportsByUid = compiledOnce<PassportRef, "uid">((db, param) =>
  db("app.products").where("uid", param("uid")).select("id as product_id", "dpp_id", "granularity", "brand_id"),
);

/**
 * One page of the passport ids any of `keys` names, in id order after `after`: one query, keyed by the id, so a GTIN
 * with a million items pages through all of them.
 */
export async function dppIdsByKeys(db: Knex, keys: ProductKey[], after: string | undefined, limit: number): Promise<string[]> {
  const query = db("app.products")
    .where((any) => {
      for (const key of keys) {
        any.orWhere((one) => {
          if ("uid" in key) return one.where("uid", key.uid.toUpperCase());
          one.where("gtin", key.gtin);
          if (key.serial !== undefined) one.where("serial", key.serial);
          if (key.lot !== undefined) one.where("lot", key.lot);
        });
      }
    })
    .orderBy("dpp_id")
    .limit(limit)
    .pluck<string[]>("dpp_id");
  if (after !== undefined) query.where("dpp_id", ">", after);
  return query;
}

/** Sets the lifecycle status when it is `from`; false when it was not (someone changed it meanwhile). */
export async function setDppStatus(trx: Knex, productId: number, from: string, to: string): Promise<boolean> {
  const updated = await trx("app.products").where({ id: productId, dpp_status: from }).update({ dpp_status: to, dpp_status_changed_at: trx.fn.now() });
  return updated > 0;
}

/** How many passports name this one as their model or batch. */
export async function linkedPassportCount(db: Knex, productId: number): Promise<number> {
  const row = await db("app.products").where("model_id", productId).orWhere("batch_id", productId).count<{ count: string }[]>("* as count").first();
  return Number(row?.count ?? 0);
}

/** Removes a product that never had a passport on chain (nothing of it was ever published). */
export async function deleteUnpublishedProduct(trx: Knex, productId: number): Promise<void> {
  await trx("app.passports").where("product_id", productId).whereNot("status", "minted").del();
  await trx("app.products").where("id", productId).del();
}
