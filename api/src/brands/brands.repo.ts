// SQL for brand accounts and their API keys (tables app.brands and app.api_keys).
import { prepared, type Knex } from "../db/knex";

export type BrandStatus = "active" | "suspended";

export type BrandRecord = {
  id: number;
  slug: string;
  name: string;
  uidPrefix: string;
  status: BrandStatus;
  plan: string;
  limitOverrides: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
};

export type ApiKeyRecord = {
  id: number;
  brandId: number;
  prefix: string;
  label: string | null;
  createdAt: Date;
  /** In the future while a rotated key is in its grace period. */
  revokedAt: Date | null;
  lastUsedAt: Date | null;
};

type BrandRow = {
  id: number;
  slug: string;
  name: string;
  uid_prefix: string;
  status: BrandStatus;
  plan: string;
  limit_overrides: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
};

type KeyRow = {
  id: number;
  brand_id: number;
  key_prefix: string;
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
};

const BRAND_COLUMNS = ["id", "slug", "name", "uid_prefix", "status", "plan", "limit_overrides", "created_at", "updated_at"];
const KEY_COLUMNS = ["id", "brand_id", "key_prefix", "label", "created_at", "revoked_at", "last_used_at"];

function toBrand(row: BrandRow): BrandRecord {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    uidPrefix: row.uid_prefix,
    status: row.status,
    plan: row.plan,
    limitOverrides: row.limit_overrides ?? {},
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    brandId: row.brand_id,
    prefix: row.key_prefix,
    label: row.label,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function insertBrand(
  db: Knex,
  brand: { slug: string; name: string; uidPrefix: string; plan: string; limitOverrides?: Record<string, unknown> },
): Promise<BrandRecord | undefined> {
  const rows = await db("app.brands")
    .insert({
      slug: brand.slug,
      name: brand.name,
      uid_prefix: brand.uidPrefix,
      plan: brand.plan,
      limit_overrides: JSON.stringify(brand.limitOverrides ?? {}),
    })
    .onConflict()
    .ignore()
    .returning(BRAND_COLUMNS);
  return rows[0] ? toBrand(rows[0] as BrandRow) : undefined;
}

export async function findBrandBySlug(db: Knex, slug: string): Promise<BrandRecord | undefined> {
  const row = await db("app.brands").where({ slug }).first<BrandRow | undefined>(BRAND_COLUMNS);
  return row ? toBrand(row) : undefined;
}

export async function brandExistsWith(db: Knex, column: "slug" | "uid_prefix", value: string): Promise<boolean> {
  return (await db("app.brands").where(column, value).first("id")) !== undefined;
}

export async function listBrands(db: Knex): Promise<Array<BrandRecord & { activeKeys: number }>> {
  const rows = await db("app.brands as b")
    .select(BRAND_COLUMNS.map((c) => `b.${c}`))
    .select(
      db.raw(
        "(select count(*) from app.api_keys k where k.brand_id = b.id and (k.revoked_at is null or k.revoked_at > now()))::int as active_keys",
      ),
    )
    .orderBy("b.slug");
  return (rows as Array<BrandRow & { active_keys: number }>).map((row) => ({ ...toBrand(row), activeKeys: row.active_keys }));
}

export async function updateBrand(
  db: Knex,
  brandId: number,
  patch: Partial<{ status: BrandStatus; plan: string; limitOverrides: Record<string, unknown> }>,
): Promise<BrandRecord> {
  const rows = await db("app.brands")
    .where({ id: brandId })
    .update({
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.plan !== undefined ? { plan: patch.plan } : {}),
      ...(patch.limitOverrides !== undefined ? { limit_overrides: JSON.stringify(patch.limitOverrides) } : {}),
      updated_at: db.fn.now(),
    })
    .returning(BRAND_COLUMNS);
  return toBrand(rows[0] as BrandRow);
}

export async function insertApiKey(
  db: Knex,
  key: { brandId: number; prefix: string; hash: Buffer; label: string | null },
): Promise<ApiKeyRecord> {
  const rows = await db("app.api_keys")
    .insert({ brand_id: key.brandId, key_prefix: key.prefix, key_hash: key.hash, label: key.label })
    .returning(KEY_COLUMNS);
  return toKey(rows[0] as KeyRow);
}

/** Every key of the brand, newest first; revoked ones included so the history stays visible. */
export async function listApiKeys(db: Knex, brandId: number): Promise<ApiKeyRecord[]> {
  const rows = await db("app.api_keys").where({ brand_id: brandId }).orderBy("id", "desc").select(KEY_COLUMNS);
  return (rows as KeyRow[]).map(toKey);
}

/** Keys of the brand that a reference (an id, or the start of a key prefix) names. */
export async function findApiKeys(db: Knex, brandId: number, ref: { id: number } | { prefix: string }): Promise<ApiKeyRecord[]> {
  const query = db("app.api_keys").where({ brand_id: brandId }).select(KEY_COLUMNS).orderBy("id");
  if ("id" in ref) query.where({ id: ref.id });
  else query.whereRaw("starts_with(key_prefix, ?)", [ref.prefix]);
  return ((await query) as KeyRow[]).map(toKey);
}

/** Revokes the key at `at` (now, or later for a grace period) unless it is revoked sooner already. */
export async function revokeApiKey(db: Knex, keyId: number, graceSeconds = 0): Promise<ApiKeyRecord> {
  const rows = await db("app.api_keys")
    .where({ id: keyId })
    .update({
      revoked_at: db.raw(
        "least(coalesce(revoked_at, 'infinity'::timestamptz), now() + make_interval(secs => ?))",
        [graceSeconds],
      ),
    })
    .returning(KEY_COLUMNS);
  return toKey(rows[0] as KeyRow);
}

/**
 * The brand of an API key that is in force (not revoked, or revoked in the future: a rotation's grace period).
 * The lookup is by the key's SHA-256, so the key itself is never compared or stored in the clear.
 */
export async function findBrandByKeyHash(
  db: Knex,
  keyHash: Buffer,
): Promise<{ keyId: number; keyHash: Buffer; lastUsedAt: Date | null; revokedAt: Date | null; brand: BrandRecord } | undefined> {
  const row = await prepared(db("app.api_keys as k"))
    .join("app.brands as b", "b.id", "k.brand_id")
    .where("k.key_hash", keyHash)
    .where((q) => q.whereNull("k.revoked_at").orWhere("k.revoked_at", ">", db.fn.now()))
    .first<(BrandRow & { key_id: number; key_hash: Buffer; last_used_at: Date | null; revoked_at: Date | null }) | undefined>(
      ...BRAND_COLUMNS.map((c) => `b.${c}`),
      "k.id as key_id",
      "k.key_hash",
      "k.last_used_at",
      "k.revoked_at",
    );
  if (!row) return undefined;
  return { keyId: row.key_id, keyHash: row.key_hash, lastUsedAt: row.last_used_at, revokedAt: row.revoked_at, brand: toBrand(row) };
}

/** Records use of a key at most once a minute, so authenticated traffic does not write a row per request. */
export async function touchApiKey(db: Knex, keyId: number): Promise<void> {
  await db("app.api_keys")
    .where({ id: keyId })
    .where((q) => q.whereNull("last_used_at").orWhere("last_used_at", "<", db.raw("now() - interval '1 minute'")))
    .update({ last_used_at: db.fn.now() });
}

/** What the brand's products read back with when it declares less than the record shows (products/defaults.ts). */
export type ProductDefaultsRecord = { countryOfManufacture: string | null; careByCategory: Record<string, string> };

export async function findProductDefaults(db: Knex, brandId: number): Promise<ProductDefaultsRecord> {
  const row = await db("app.brands")
    .where({ id: brandId })
    .first<{ default_country_of_manufacture: string | null; care_by_category: Record<string, string> } | undefined>(
      "default_country_of_manufacture",
      "care_by_category",
    );
  return { countryOfManufacture: row?.default_country_of_manufacture ?? null, careByCategory: row?.care_by_category ?? {} };
}

/**
 * Changes the brand's product defaults under a row lock, so concurrent edits of different categories both land:
 * `change` gets the current defaults and returns the new ones (or throws to change nothing).
 */
export async function changeProductDefaults(
  db: Knex,
  brandId: number,
  change: (current: ProductDefaultsRecord) => ProductDefaultsRecord,
): Promise<ProductDefaultsRecord> {
  return db.transaction(async (trx) => {
    await trx("app.brands").where({ id: brandId }).forNoKeyUpdate().first("id");
    const next = change(await findProductDefaults(trx, brandId));
    await trx("app.brands")
      .where({ id: brandId })
      .update({
        default_country_of_manufacture: next.countryOfManufacture,
        care_by_category: JSON.stringify(next.careByCategory),
        updated_at: trx.fn.now(),
      });
    return next;
  });
}
