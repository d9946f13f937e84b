// Operator commands on brand accounts: create, list, suspend, reactivate, change plan, set custom limits, set the
// defaults of the brand's products (country of manufacture, care text by category), set its economic operator id.
import {
  createBrand,
  getBrand,
  listBrands,
  productDefaults,
  setBrandPlan,
  setBrandStatus,
  setLimitOverrides,
  setProductDefaults,
  type BrandRecord,
  type ProductDefaultsRecord,
} from "../../api/src/brands/service";
import { setEconomicOperatorId } from "../../api/src/brands/economic-operator";
import { BRAND_CARE_FALLBACK, CARE_BY_CATEGORY, GARMENT_CARE } from "../../api/src/products/defaults";
import {
  effectiveLimits,
  MAX_LIMIT,
  OVERRIDE_FIELDS,
  OVERRIDE_KEYS,
  PLAN_NAMES,
  presentLimits,
  type OverrideKey,
} from "../../api/src/plans/catalogue";
import { brandOption, limitText, requiredOption, stringOption, table, UsageError, type AdminCommand, type CommandContext } from "./command";

function brandJson(brand: BrandRecord) {
  return {
    id: brand.id,
    slug: brand.slug,
    name: brand.name,
    uid_prefix: brand.uidPrefix,
    status: brand.status,
    plan: brand.plan,
    limit_overrides: brand.limitOverrides,
    limits: presentLimits(effectiveLimits({ plan: brand.plan, limit_overrides: brand.limitOverrides })),
    created_at: brand.createdAt.toISOString(),
  };
}

function limitsText(brand: BrandRecord): string {
  const limits = presentLimits(effectiveLimits({ plan: brand.plan, limit_overrides: brand.limitOverrides }));
  const custom = new Set(Object.keys(brand.limitOverrides));
  return Object.entries(limits)
    .map(([key, value]) => `  ${key.padEnd(26)} ${limitText(value)}${custom.has(key) ? "  (custom)" : ""}`)
    .join("\n");
}

function brandText(brand: BrandRecord): string {
  return `${brand.slug} (${brand.name}): ${brand.status}, plan ${brand.plan}, UID prefix ${brand.uidPrefix}\n${limitsText(brand)}`;
}

const createBrandCommand: AdminCommand = {
  name: "create-brand",
  summary: "create a brand account and print its first API key (shown once)",
  options: {
    slug: { type: "string", required: true, description: "lower-case letters, digits, inner hyphens; sent as X-Service-Brand" },
    name: { type: "string", required: true, description: "display name" },
    "uid-prefix": { type: "string", required: true, description: "2-10 letters or digits; product UIDs are <PREFIX>-<CODE>" },
    plan: { type: "string", description: `${PLAN_NAMES.join(", ")} (default starter)` },
    label: { type: "string", description: "label of the first key" },
  },
  async run(context) {
    const { brand, key } = await createBrand(context.db, {
      slug: requiredOption(context, "slug"),
      name: requiredOption(context, "name"),
      uidPrefix: requiredOption(context, "uid-prefix"),
      plan: stringOption(context, "plan"),
      keyLabel: stringOption(context, "label"),
    });
    return {
      text: `Created ${brandText(brand)}\n\nAPI key (shown once; store it now): ${key.key}\nKey id ${key.id}, prefix ${key.prefix}`,
      json: { brand: brandJson(brand), api_key: key.key, key_id: key.id, key_prefix: key.prefix },
    };
  },
};

const listBrandsCommand: AdminCommand = {
  name: "list-brands",
  summary: "list brand accounts with status, plan and number of keys in force",
  options: {},
  async run(context) {
    const brands = await listBrands(context.db);
    const rows = brands.map((b) => [b.slug, b.name, b.uidPrefix, b.status, b.plan, Object.keys(b.limitOverrides).length > 0 ? "yes" : "no", String(b.activeKeys)]);
    return {
      text: brands.length === 0 ? "No brands." : table(["SLUG", "NAME", "PREFIX", "STATUS", "PLAN", "CUSTOM LIMITS", "KEYS"], rows),
      json: brands.map((b) => ({ ...brandJson(b), active_keys: b.activeKeys })),
    };
  },
};

function statusCommand(name: "suspend" | "reactivate"): AdminCommand {
  const status = name === "suspend" ? "suspended" : "active";
  return {
    name,
    summary: name === "suspend" ? "suspend a brand: its keys get 403 BRAND_INACTIVE" : "reactivate a suspended brand",
    options: brandOption,
    async run(context) {
      const brand = await setBrandStatus(context.db, requiredOption(context, "brand"), status);
      return { text: `${brand.slug} is now ${brand.status}.`, json: brandJson(brand) };
    },
  };
}

const setPlanCommand: AdminCommand = {
  name: "set-plan",
  summary: "move a brand to another plan (custom limits stay)",
  options: { ...brandOption, plan: { type: "string", required: true, description: PLAN_NAMES.join(", ") } },
  async run(context) {
    const brand = await setBrandPlan(context.db, requiredOption(context, "brand"), requiredOption(context, "plan"));
    return { text: `Plan set.\n${brandText(brand)}`, json: brandJson(brand) };
  },
};

const flagOf = (key: OverrideKey) => key.replace(/_/g, "-");

/** The word that sets an override to null, for the keys that allow it. */
const NULL_WORD: Partial<Record<OverrideKey, string>> = Object.fromEntries(
  OVERRIDE_KEYS.filter((key) => OVERRIDE_FIELDS[key].nullable).map((key) => [key, key === "price_usd_per_month" ? "none" : "unlimited"]),
);

/** "unlimited" → null, "plan" → remove the override, else a number. */
function overrideValue(context: CommandContext, key: OverrideKey): number | null | "plan" | undefined {
  const raw = stringOption(context, flagOf(key))?.trim();
  if (raw === undefined) return undefined;
  if (raw === "plan") return "plan";
  // null means "unlimited" for a count and "no agreed price" for the price.
  if (raw === "unlimited" || raw === "none") {
    if (NULL_WORD[key] !== raw) throw new UsageError(`--${flagOf(key)} cannot be "${raw}"`);
    return null;
  }
  const value = Number(raw);
  const integer = key !== "price_usd_per_month";
  if (raw === "" || !Number.isFinite(value) || value < 0 || value > MAX_LIMIT || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${flagOf(key)} must be ${integer ? "an integer" : "a number"} from 0 to ${MAX_LIMIT}${NULL_WORD[key] ? `, "${NULL_WORD[key]}"` : ""} or "plan"`);
  }
  return value;
}

const setLimitsCommand: AdminCommand = {
  name: "set-limits",
  summary: "set a brand's own limits (custom SLA); --clear drops them all first",
  options: {
    ...brandOption,
    ...Object.fromEntries(
      OVERRIDE_KEYS.map((key) => [
        flagOf(key),
        { type: "string", description: `${NULL_WORD[key] ? `a number, "${NULL_WORD[key]}"` : "a number"} or "plan" (back to the plan's)` },
      ]),
    ),
    clear: { type: "boolean", description: "drop every custom limit before applying the others" },
  },
  async run(context) {
    const slug = requiredOption(context, "brand");
    const set: Record<string, number | null> = {};
    const reset: string[] = [];
    for (const key of OVERRIDE_KEYS) {
      const value = overrideValue(context, key);
      if (value === "plan") reset.push(key);
      else if (value !== undefined) set[key] = value;
    }
    const clear = context.options.clear === true;
    if (!clear && reset.length === 0 && Object.keys(set).length === 0) {
      throw new UsageError(`give at least one limit (${OVERRIDE_KEYS.map((k) => `--${flagOf(k)}`).join(", ")}) or --clear`);
    }
    const current = await getBrand(context.db, slug);
    const kept = clear ? {} : Object.fromEntries(Object.entries(current.limitOverrides).filter(([key]) => !reset.includes(key)));
    const brand = await setLimitOverrides(context.db, slug, { ...kept, ...set }, { clear: true });
    return { text: `Limits set.\n${brandText(brand)}`, json: brandJson(brand) };
  },
};

function productDefaultsJson(slug: string, defaults: ProductDefaultsRecord) {
  return { slug, country_of_manufacture: defaults.countryOfManufacture, care_by_category: defaults.careByCategory };
}

/** The brand's defaults, and the built-in care texts for the categories the brand has not given its own. */
function productDefaultsText(slug: string, defaults: ProductDefaultsRecord): string {
  const own = defaults.careByCategory;
  const builtIn = Object.entries({ ...CARE_BY_CATEGORY, [BRAND_CARE_FALLBACK]: GARMENT_CARE }).filter(([category]) => own[category] === undefined);
  return [
    `${slug}: country of manufacture ${defaults.countryOfManufacture ?? "not set (ZZ unless the product or its factory gives one)"}`,
    "Care instructions by category (* = every other category):",
    ...Object.entries(own).map(([category, text]) => `  ${category.padEnd(12)} ${text}  (brand)`),
    ...builtIn.map(([category, text]) => `  ${category.padEnd(12)} ${text}  (built-in)`),
  ].join("\n");
}

const setProductDefaultsCommand: AdminCommand = {
  name: "set-product-defaults",
  summary: "set what a brand's products are registered with when it leaves country or care text out",
  options: {
    ...brandOption,
    country: { type: "string", description: 'ISO 3166-1 alpha-2 code of the default country of manufacture, e.g. BD; "" removes it' },
    category: { type: "string", description: 'the product category --care is for (e.g. shirt, saree), or "*" for every other category' },
    care: { type: "string", description: 'care text for --category, at most 500 characters; "" goes back to the built-in text' },
    "clear-care": { type: "boolean", description: "drop every care text of the brand (the built-in ones apply again)" },
  },
  async run(context) {
    const slug = requiredOption(context, "brand");
    const country = stringOption(context, "country");
    const category = stringOption(context, "category");
    const care = stringOption(context, "care");
    const clearCare = context.options["clear-care"] === true;
    if ((category === undefined) !== (care === undefined)) throw new UsageError("give --category and --care together");
    if (country === undefined && care === undefined && !clearCare) throw new UsageError("give --country, --category with --care, or --clear-care");
    const defaults = await setProductDefaults(context.db, slug, {
      ...(country !== undefined ? { countryOfManufacture: country.trim() === "" ? null : country } : {}),
      ...(category !== undefined ? { care: { [category]: care!.trim() === "" ? null : care! } } : {}),
      clearCare,
    });
    return { text: `Product defaults set; products registered from now on use them.\n${productDefaultsText(slug, defaults)}`, json: productDefaultsJson(slug, defaults) };
  },
};

const showProductDefaultsCommand: AdminCommand = {
  name: "show-product-defaults",
  summary: "show a brand's default country of manufacture and care texts by category",
  options: brandOption,
  async run(context) {
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const defaults = await productDefaults(context.db, brand.id);
    return { text: productDefaultsText(brand.slug, defaults), json: productDefaultsJson(brand.slug, defaults) };
  },
};

const setEconomicOperatorCommand: AdminCommand = {
  name: "set-economic-operator",
  summary: "set the EORI (or GLN) that a brand's passports name as their economic operator; audited",
  options: {
    ...brandOption,
    id: { type: "string", description: 'an EORI (country code and up to 15 letters or digits, e.g. DE123456789012345) or a 13-digit GLN; "" clears it' },
  },
  async run(context) {
    const brand = await getBrand(context.db, requiredOption(context, "brand"));
    const raw = stringOption(context, "id");
    if (raw === undefined) throw new UsageError('--id is required (give "" to clear it)');
    const saved = await setEconomicOperatorId(context.db, brand, { system: "operator CLI" }, raw, "--id");
    return {
      text: saved ? `${brand.slug}: economic operator id ${saved.value} (${saved.scheme.toUpperCase()})` : `${brand.slug}: economic operator id cleared`,
      json: { slug: brand.slug, economic_operator_id: saved?.value ?? null, scheme: saved?.scheme ?? null },
    };
  },
};

export const commands: AdminCommand[] = [
  createBrandCommand,
  listBrandsCommand,
  statusCommand("suspend"),
  statusCommand("reactivate"),
  setPlanCommand,
  setLimitsCommand,
  setProductDefaultsCommand,
  showProductDefaultsCommand,
  setEconomicOperatorCommand,
];
