// Brand accounts and their API keys: creation, keys shown once and stored hashed, rotation, revocation, plans, limits.
import { invalidateKeyCaches, type KeyCache } from "./key-cache";
import { apiKeyFromValue, generateApiKey, hashApiKey, hashApiKeyHex, sameHash } from "../auth/api-keys";
import type { Knex } from "../db/knex";
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from "../errors";
import { isPlanName, overrideProblems, PLAN_NAMES, type EffectiveLimits, type LimitOverrides } from "../plans/catalogue";
import { isCountryCode, normaliseCategory } from "../products/defaults";
import {
  brandExistsWith,
  changeProductDefaults,
  findApiKeys,
  findBrandBySlug,
  findBrandByKeyHash,
  findProductDefaults,
  insertApiKey,
  insertBrand,
  listApiKeys,
  revokeApiKey,
  touchApiKey,
  updateBrand,
  type ApiKeyRecord,
  type BrandRecord,
  type BrandStatus,
  type ProductDefaultsRecord,
} from "./brands.repo";

export type { ApiKeyRecord, BrandRecord, BrandStatus, ProductDefaultsRecord };
export { listBrands } from "./brands.repo";

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** The prefix of the brand's product UIDs (`<PREFIX>-<CODE>`), upper case, as the UID pattern allows. */
export const UID_PREFIX_PATTERN = /^[A-Z0-9]{2,10}$/;
const NAME_MAX = 120;
const LABEL_MAX = 60;
/** A rotated key may stay valid for at most a week, long enough to roll a deployment, short enough to matter. */
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;
/** Longer than any key this service issues (pr_live_ + 43 characters) or an operator would choose. */
export const MAX_KEY_LENGTH = 200;

/** The brand a v1 request acts for, once its API key checked out (middleware/brand-auth.ts), with its limits. */
export type BrandContext = {
  id: number;
  slug: string;
  name: string;
  uidPrefix: string;
  status: "active" | "suspended";
  plan: string;
  limits: EffectiveLimits;
};

/** A key as shown once, at creation. */
export type IssuedKey = { key: string; id: number; prefix: string; label: string | null; createdAt: Date };

export type NewBrand = {
  slug: string;
  name: string;
  uidPrefix: string;
  plan?: string;
  limitOverrides?: LimitOverrides;
  keyLabel?: string;
  /** The first key's value when the operator chose it (DEMO_API_KEY in local mode); generated otherwise. */
  keyValue?: string;
};

export async function createBrand(db: Knex, input: NewBrand): Promise<{ brand: BrandRecord; key: IssuedKey }> {
  const uidPrefix = input.uidPrefix.trim().toUpperCase();
  const plan = input.plan ?? "starter";
  const problems: ErrorDetail[] = [];
  if (!SLUG_PATTERN.test(input.slug)) problems.push({ field: "slug", problem: "must be 1-40 lower-case letters, digits or inner hyphens" });
  const name = input.name.trim();
  if (name.length === 0 || name.length > NAME_MAX) problems.push({ field: "name", problem: `must have 1 to ${NAME_MAX} characters` });
  if (!UID_PREFIX_PATTERN.test(uidPrefix)) problems.push({ field: "uid_prefix", problem: "must be 2-10 letters or digits" });
  if (!isPlanName(plan)) problems.push({ field: "plan", problem: `must be one of ${PLAN_NAMES.join(", ")}` });
  for (const problem of overrideProblems(input.limitOverrides ?? {})) problems.push({ field: "limits", problem });
  problems.push(...labelProblems(input.keyLabel));
  if (problems.length > 0) throw new ValidationError(problems);

  return db.transaction(async (trx) => {
    const brand = await insertBrand(trx, { slug: input.slug, name, uidPrefix, plan, limitOverrides: input.limitOverrides });
    if (!brand) {
      if (await brandExistsWith(trx, "slug", input.slug)) throw new ConflictError(`A brand with slug "${input.slug}" exists already.`);
      throw new ConflictError(`UID prefix ${uidPrefix} belongs to another brand.`);
    }
    const key = await addKey(trx, brand.id, input.keyLabel ?? "first key", input.keyValue);
    return { brand, key };
  });
}

export async function getBrand(db: Knex, slug: string): Promise<BrandRecord> {
  const brand = SLUG_PATTERN.test(slug) ? await findBrandBySlug(db, slug) : undefined;
  if (!brand) throw new NotFoundError(`Brand "${slug}"`);
  return brand;
}

export async function issueKey(db: Knex, slug: string, label?: string): Promise<IssuedKey> {
  const problems = labelProblems(label);
  if (problems.length > 0) throw new ValidationError(problems);
  const brand = await getBrand(db, slug);
  return addKey(db, brand.id, label ?? null);
}

/**
 * Makes a key whose value the operator chose (DEMO_API_KEY in local mode) valid for the brand: added unless it is
 * valid for the brand already.
 */
export async function ensureKey(db: Knex, slug: string, value: string, label: string | null): Promise<void> {
  const brand = await getBrand(db, slug);
  const existing = await findBrandByKeyHash(db, hashApiKey(value));
  if (existing?.brand.id === brand.id) return;
  await addKey(db, brand.id, label, value);
}

export async function listKeys(db: Knex, slug: string): Promise<ApiKeyRecord[]> {
  const brand = await getBrand(db, slug);
  return listApiKeys(db, brand.id);
}

/** Revokes one key of the brand, named by id or by (the start of) its prefix; revoking a revoked key is a no-op. */
export async function revokeKey(db: Knex, slug: string, ref: string): Promise<ApiKeyRecord> {
  const brand = await getBrand(db, slug);
  const key = await resolveKey(db, brand.id, ref);
  const result = await revokeApiKey(db, key.id);
  // This process forgets cached keys now; other processes hear the trigger's NOTIFY.
  invalidateKeyCaches();
  return result;
}

/**
 * Issues a new key and revokes the old one, at once or after `graceSeconds` so running deployments can switch over.
 * Both happen in one transaction: there is never a moment with neither key valid.
 */
export async function rotateKey(
  db: Knex,
  slug: string,
  ref: string,
  options: { graceSeconds?: number; label?: string } = {},
): Promise<{ key: IssuedKey; revoked: ApiKeyRecord }> {
  const grace = options.graceSeconds ?? 0;
  const problems = labelProblems(options.label);
  if (!Number.isInteger(grace) || grace < 0 || grace > MAX_GRACE_SECONDS) {
    problems.push({ field: "grace", problem: `must be a whole number of seconds from 0 to ${MAX_GRACE_SECONDS}` });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const brand = await getBrand(db, slug);
  const result = await db.transaction(async (trx) => {
    const old = await resolveKey(trx, brand.id, ref);
    if (old.revokedAt && old.revokedAt.getTime() <= Date.now()) throw new ConflictError(`Key ${old.prefix}… (id ${old.id}) is revoked already.`);
    const key = await addKey(trx, brand.id, options.label ?? old.label);
    const revoked = await revokeApiKey(trx, old.id, grace);
    return { key, revoked };
  });
  // This process forgets cached keys now; other processes hear the trigger's NOTIFY.
  invalidateKeyCaches();
  return result;
}

export async function setBrandStatus(db: Knex, slug: string, status: BrandStatus): Promise<BrandRecord> {
  const brand = await getBrand(db, slug);
  const result = await updateBrand(db, brand.id, { status });
  // This process forgets cached keys now; other processes hear the trigger's NOTIFY.
  invalidateKeyCaches();
  return result;
}

export async function setBrandPlan(db: Knex, slug: string, plan: string): Promise<BrandRecord> {
  if (!isPlanName(plan)) throw new ValidationError([{ field: "plan", problem: `must be one of ${PLAN_NAMES.join(", ")}` }]);
  const brand = await getBrand(db, slug);
  const result = await updateBrand(db, brand.id, { plan });
  // This process forgets cached keys now; other processes hear the trigger's NOTIFY.
  invalidateKeyCaches();
  return result;
}

/** Merges `overrides` into the brand's custom limits (a custom SLA); `clear` drops every override first. */
export async function setLimitOverrides(
  db: Knex,
  slug: string,
  overrides: Record<string, unknown>,
  options: { clear?: boolean } = {},
): Promise<BrandRecord> {
  const problems = overrideProblems(overrides);
  if (problems.length > 0) throw new ValidationError(problems.map((problem) => ({ field: "limits", problem })));
  const brand = await getBrand(db, slug);
  const merged = { ...(options.clear ? {} : brand.limitOverrides), ...overrides };
  const result = await updateBrand(db, brand.id, { limitOverrides: merged });
  // This process forgets cached keys now; other processes hear the trigger's NOTIFY.
  invalidateKeyCaches();
  return result;
}

/** A product category as registration accepts it (lower-cased), or "*" for every category the brand does not name. */
const CARE_CATEGORY_PATTERN = /^(?:\*|[a-z][a-z -]{1,39})$/;
/** As long as a care text registration accepts. */
export const CARE_TEXT_MAX = 500;
const CARE_CATEGORIES_MAX = 50;

/** What the brand's products are registered with when the brand leaves country or care out (products/defaults.ts). */
export async function productDefaults(db: Knex, brandId: number): Promise<ProductDefaultsRecord> {
  return findProductDefaults(db, brandId);
}

export type ProductDefaultsPatch = {
  /** ISO 3166-1 alpha-2; null removes it. */
  countryOfManufacture?: string | null;
  /** Care text by category; null removes the brand's own text for it (the built-in one applies again). */
  care?: Record<string, string | null>;
  /** Drops every care text of the brand before applying `care`. */
  clearCare?: boolean;
};

/**
 * Sets a brand's product defaults. They apply to products registered from now on: a registered product keeps the
 * values it was registered with, since its passport anchors them.
 */
export async function setProductDefaults(db: Knex, slug: string, patch: ProductDefaultsPatch): Promise<ProductDefaultsRecord> {
  const problems: ErrorDetail[] = [];
  const country = patch.countryOfManufacture?.trim().toUpperCase();
  if (country !== undefined && !isCountryCode(country)) {
    problems.push({ field: "country_of_manufacture", problem: "must be an ISO 3166-1 alpha-2 country code, e.g. BD" });
  }
  const care = Object.entries(patch.care ?? {}).map(([category, text]) => [normaliseCategory(category), text?.trim() ?? null] as const);
  for (const [category, text] of care) {
    if (!CARE_CATEGORY_PATTERN.test(category)) problems.push({ field: "category", problem: `"${category}" must be 2-40 letters, spaces or hyphens, or "*"` });
    if (text !== null && (text.length === 0 || text.length > CARE_TEXT_MAX)) {
      problems.push({ field: "care_instructions", problem: `must have 1 to ${CARE_TEXT_MAX} characters` });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const brand = await getBrand(db, slug);
  return changeProductDefaults(db, brand.id, (current) => {
    const careByCategory: Record<string, string> = patch.clearCare ? {} : { ...current.careByCategory };
    for (const [category, text] of care) {
      if (text === null) delete careByCategory[category];
      else careByCategory[category] = text;
    }
    if (Object.keys(careByCategory).length > CARE_CATEGORIES_MAX) {
      throw new ValidationError([{ field: "category", problem: `a brand has care texts for at most ${CARE_CATEGORIES_MAX} categories` }]);
    }
    return {
      countryOfManufacture: patch.countryOfManufacture === undefined ? current.countryOfManufacture : (country ?? null),
      careByCategory,
    };
  });
}

/** The brand a presented key belongs to, if the key is in force; the caller decides what a miss means. */
export async function brandForKey(db: Knex, presentedKey: string, cache?: KeyCache): Promise<BrandRecord | undefined> {
  if (presentedKey.length === 0 || presentedKey.length > MAX_KEY_LENGTH) return undefined;
  const hashHex = hashApiKeyHex(presentedKey);
  const hash = Buffer.from(hashHex, "hex");
  // Read before the lookup: if the cache is cleared while it runs (a revocation heard), its result is not kept.
  const generation = cache?.generation ?? 0;
  const cached = cache?.get(hashHex);
  // Found by its hash (map or index); the constant-time comparison keeps the final decision free of timing signals.
  const found = cached ?? (await findBrandByKeyHash(db, hash));
  if (!found || !sameHash(found.keyHash, hash)) return undefined;
  if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > 60_000) {
    found.lastUsedAt = new Date();
    await touchApiKey(db, found.keyId);
  }
  if (!cached && "revokedAt" in found) cache?.set(hashHex, found, found.revokedAt, generation);
  return found.brand;
}

async function addKey(db: Knex, brandId: number, label: string | null, value?: string): Promise<IssuedKey> {
  const generated = value === undefined ? generateApiKey() : apiKeyFromValue(value);
  const row = await insertApiKey(db, { brandId, prefix: generated.prefix, hash: generated.hash, label });
  return { key: generated.key, id: row.id, prefix: row.prefix, label: row.label, createdAt: row.createdAt };
}

/** A key reference is its numeric id or the start of its prefix (as list-keys shows it, at least 4 characters). */
async function resolveKey(db: Knex, brandId: number, ref: string): Promise<ApiKeyRecord> {
  const trimmed = ref.trim().replace(/…$/, "");
  let matches: ApiKeyRecord[];
  if (/^[0-9]{1,9}$/.test(trimmed)) matches = await findApiKeys(db, brandId, { id: Number(trimmed) });
  else if (trimmed.length >= 4 && trimmed.length <= 40) matches = await findApiKeys(db, brandId, { prefix: trimmed });
  else throw new ValidationError([{ field: "key", problem: "must be a key id or a key prefix of at least 4 characters" }]);
  if (matches.length === 0) throw new NotFoundError(`Key "${trimmed}" of this brand`);
  if (matches.length > 1) throw new ConflictError(`"${trimmed}" matches ${matches.length} keys of this brand; name one by its id.`);
  return matches[0]!;
}

function labelProblems(label: string | undefined | null): ErrorDetail[] {
  if (label === undefined || label === null) return [];
  return label.length > LABEL_MAX ? [{ field: "label", problem: `must have at most ${LABEL_MAX} characters` }] : [];
}
