// Demo data for local mode: a brand with an API key, an admin and a factory operator, the factory registry and a
// few products, some of them minted, each minted one with an NTAG 424 DNA tag, a model, a batch and an item passport
// of one garment with a full textile section whose Bangladeshi stages their factories confirmed (the EN 18222 replay
// in demo.json), and (under `npm start`) payment methods set up against the local gateway servers. Rows are created once, through the same services the API and the admin
// CLI use (so the demo data is what they would make); chain state is re-created on every new local chain.
import { createMemberWithPassword, listTeam } from "../../api/src/team/service";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { hexlify, toUtf8Bytes } from "ethers";
import { createOperator, operatorExists, setOperatorPassword } from "../../api/src/auth/operators";
import { getStoredBranding, setBranding } from "../../api/src/brands/branding";
import { createBrand, ensureKey, getBrand, issueKey, productDefaults, setProductDefaults, type BrandRecord } from "../../api/src/brands/service";
import type { Contracts } from "../../api/src/chain/contracts";
import { certificationMask } from "../../api/src/factories/reputation";
import type { SharedWallet } from "../../api/src/chain/signer";
import type { Knex } from "../../api/src/db/knex";
import { NotFoundError } from "../../api/src/errors";
import { saveFactoryProfile } from "../../api/src/factories/service";
import { facilityIdsOf, setFacilityIds } from "../../api/src/factories/facility-ids";
import { confirmTextileStage } from "../../api/src/factories/stage-confirmation";
import { economicOperatorOf, setEconomicOperatorId } from "../../api/src/brands/economic-operator";
import { estimateCarbon } from "../../api/src/products/carbon";
import { facilityIsFactory, type TextileData, type TextileStage } from "../../api/src/passports/textile";
import { canonicalContent, dataHashOf, passportContentFor, tokenIdOf, type FiberShare, type Granularity } from "../../api/src/passports/content";
import { upsertMintedIssuance } from "../../api/src/passports/issuance.repo";
import { findProductByUid, type ProductRow } from "../../api/src/products/products.repo";
import { registerProduct, type CreateProductInput } from "../../api/src/products/service";
import { parentOf, registrationOf, type CreateDppInput } from "../../api/src/dpp/service";
import { LOCAL_TAG_MASTER_KEY, type Config } from "../../api/src/config";
import { insertDomain, recordCheck } from "../../api/src/domains/domains.repo";
import { brandAddress } from "../../api/src/domains/service";
import { provisionTags } from "../../api/src/tags/provisioning";
import { tagHashOf } from "../../api/src/tags/service";
import { tagKeyProvider } from "../../api/src/tags/verification";
import { gatewayKeysOverview, saveGatewayKeys, setSalesEnabled } from "../../api/src/orders/gateway-keys";
import type { GatewayCredentials, GatewayMethod } from "../../api/src/payments/gateway";

export type FactorySeed = {
  factory_id: number;
  name: string;
  city: string;
  country: string;
  certifications: string[];
  product_types: string[];
  capacity_units_per_month: number;
  min_order_units: number;
  lead_time_days: number;
  verified: boolean;
  description: string;
};

export type DemoState = {
  brand_slug: string;
  api_key: string;
  operator: { email: string; password: string };
  admin: { email: string; password: string };
  /** Dashboard accounts of the demo brand (/dashboard): its owner and a cashier for the till. */
  brand_users: { owner: { email: string; password: string }; cashier: { email: string; password: string } };
  factory_ids: number[];
  /** `gtin` (GTIN-14) and `serial`: the product's GS1 Digital Link is `/01/{gtin}/21/{serial}` (null: none). */
  products: Array<{ uid: string; minted: boolean; gtin: string | null; serial: string | null }>;
  /**
   * The NTAG 424 DNA tag of each minted product, bound to it and assigned on chain. The keys (hex) are given only
   * when they derive from the public local TAG_MASTER_KEY, so anyone can emulate a tap (scripts/lib/tap-emulator.ts).
   */
  tags: DemoTag[];
  /** The demo brand's subdomain (<slug>.<BASE_DOMAIN>), and its custom domain, seeded as verified (null: not seeded). */
  subdomain_host: string;
  custom_domain: string | null;
  /** One garment as a model, a batch and an item passport, and a change to replay on the item (docs/dpp-api.md). */
  en18222: DemoEn18222;
};

/**
 * The EN 18222 replay: the item's passport id and a product id that names it, its model's and batch's passport ids,
 * a merge patch for UpdateDPPById, the element it changes and the value it sets, and the item's ReadDPPById URL.
 */
export type DemoEn18222 = {
  dpp_id: string;
  product_id: string;
  model_dpp_id: string;
  batch_dpp_id: string;
  merge_patch: Record<string, unknown>;
  element_path: string;
  new_value: string;
  read_url: string;
};

export type DemoTag = { tag_uid: string; product_uid: string; type: "NTAG424"; sdm_meta_read_key?: string; sdm_file_read_key?: string };

/** The master key and key version the API derives tag keys with: local mode's public defaults unless told. */
export const LOCAL_TAG_KEYS: Config["tags"] = Object.freeze({ masterKey: Buffer.from(LOCAL_TAG_MASTER_KEY, "base64"), keyVersion: 1 });

export function loadFactories(): FactorySeed[] {
  return JSON.parse(readFileSync(path.join(__dirname, "..", "data", "factories.json"), "utf8")) as FactorySeed[];
}

const BRAND = { slug: "demo-apparel", name: "Demo Apparel Co.", uidPrefix: "DEMO" };
/** White-label settings of the demo brand (docs-pages.md); no logo, since a local demo cannot reach an https host. */
const DEMO_BRANDING = {
  primary_color: "#0A7C5A",
  secondary_color: "#F2B705",
  tagline: "Garments made to last, traced from fibre to shelf.",
  about: "Demo Apparel Co. makes shirts, sarees, tees and denim with partner factories in Bangladesh, India and Türkiye. Every piece carries an NFC tag that opens its EU Digital Product Passport, anchored on a public blockchain.",
  social: { facebook: "https://www.facebook.com/demo-apparel", instagram: "https://www.instagram.com/demo.apparel", website: "https://demo-apparel.example" },
};
const OPERATOR_EMAIL = "operator@demo-factory.local";
const OWNER_EMAIL = "owner@demo-brand.local";
const CASHIER_EMAIL = "cashier@demo-brand.local";
const ADMIN_EMAIL = "admin@passport-registry.local";

type DemoProduct = {
  code: string;
  sku: string;
  name: string;
  category: string;
  fabric_type: string;
  price: number;
  factory_id: number;
  fiber: FiberShare[];
  care: string;
  minted: boolean;
  /** GS1 identifiers (GS1's example company prefix 952: no real product has them). */
  gs1?: { gtin: string; lot?: string; serial: string };
};

const DEMO_PRODUCTS: DemoProduct[] = [
  { code: "7K3M9Q2X", sku: "DA-OXF-001", name: "Organic Oxford Shirt", category: "shirt", fabric_type: "organic cotton", price: 2450, factory_id: 1001, fiber: [{ fiber: "cotton", percent: 100 }], care: "Machine wash 30 °C, do not tumble dry, iron medium.", minted: true, gs1: { gtin: "09520123000103", serial: "OXF-0001" } },
  { code: "4VH8N1TR", sku: "DA-SAR-014", name: "Jamdani Cotton Saree", category: "saree", fabric_type: "cotton", price: 8900, factory_id: 1002, fiber: [{ fiber: "cotton", percent: 100 }], care: "Hand wash cold, dry in shade.", minted: true, gs1: { gtin: "09520123000202", lot: "JAM2026-07", serial: "SAR-0014" } },
  { code: "9PQ2W6ZD", sku: "DA-TEE-100", name: "Everyday Crew T-shirt", category: "t-shirt", fabric_type: "recycled cotton", price: 790, factory_id: 1003, fiber: [{ fiber: "cotton", percent: 60 }, { fiber: "polyester", percent: 40 }], care: "Machine wash 40 °C, tumble dry low.", minted: true, gs1: { gtin: "09520123000301", serial: "TEE-0100" } },
  { code: "2XB7C5KF", sku: "DA-DNM-220", name: "Selvedge Denim Jeans", category: "jeans", fabric_type: "cotton", price: 4200, factory_id: 1004, fiber: [{ fiber: "cotton", percent: 98 }, { fiber: "elastane", percent: 2 }], care: "Wash inside out at 30 °C, line dry.", minted: true },
  { code: "6MJ4R8YA", sku: "DA-KNT-031", name: "Merino Blend Sweater", category: "sweater", fabric_type: "wool", price: 5600, factory_id: 1009, fiber: [{ fiber: "wool", percent: 70 }, { fiber: "polyamide", percent: 30 }], care: "Hand wash cold, dry flat.", minted: false, gs1: { gtin: "09520123000400", serial: "KNT-0031" } },
  { code: "3TN9E7WG", sku: "DA-POL-045", name: "Piqué Polo", category: "polo", fabric_type: "cotton-polyester", price: 1490, factory_id: 1001, fiber: [{ fiber: "cotton", percent: 65 }, { fiber: "polyester", percent: 35 }], care: "Machine wash 40 °C, iron low.", minted: false },
];

/** Supply-chain stages recorded for each minted demo product (codes of IProductPassport). */
const DEMO_STAGES = [1, 3, 4, 6, 8, 9];

/**
 * The demo brand's EORI (ESPR's economic operator id in the EN 18223 header): the format of one a member state issues
 * to a non-EU brand importing there; invented. And the demo factory's GLN (GS1's example prefix 952, check digit valid).
 */
const DEMO_EORI = "DE123456789012345";
const DEMO_FACTORY_GLN = "9520123000011";
/** The dyeing house's Open Supply Hub id (invented, in OS Hub's format), by which the garment's stage names it. */
const DYEHOUSE = { factory_id: 1003, os_id: "BD2021143FKN7Q2" };

/**
 * The garment's textile section: a chain from recycled PET fibre in Taiwan and organic cotton and spinning in India to
 * knitting, dyeing and making-up in Bangladesh by registry factories (named by registry id, OS Hub id and GLN), 40 %
 * recycled polyester from post-consumer bottles, one substance of concern, durability tested to named standards.
 */
const GARMENT_TEXTILE = {
  production_date: "2026-10-28",
  commodity_code: { hs6: "610910", cn8: "61091000" },
  stages: [
    { stage: "fibre", facility: { name: "Changhua Recycled Polyester Fibre Co., Ltd.", country: "TW", id: { scheme: "osh", value: "TW2023118QF4M2C" } }, started: "2026-06-02", completed: "2026-06-20" },
    { stage: "fibre", facility: { name: "Madhya Organic Cotton Ginning Co-op", country: "IN" }, started: "2026-05-10", completed: "2026-05-28" },
    { stage: "spinning", facility: { name: "Naroda Denim & Yarn Mills Pvt. Ltd.", country: "IN", id: { scheme: "registry", value: "1012" } }, started: "2026-07-06", completed: "2026-08-14" },
    { stage: "weaving_knitting", facility: { name: "Jirabo Knitfab Ltd.", country: "BD", id: { scheme: "registry", value: "1006" } }, started: "2026-09-07", completed: "2026-09-18" },
    { stage: "dyeing_printing_finishing", facility: { name: "Fatullah Knit Composite Ltd.", country: "BD", id: { scheme: "registry", value: String(DYEHOUSE.factory_id) } }, started: "2026-09-21", completed: "2026-10-02" },
    { stage: "making_up", facility: { name: "Banani Loomcraft Apparels Ltd.", country: "BD", id: { scheme: "registry", value: "1001" } }, started: "2026-10-06", completed: "2026-10-28" },
  ],
  materials: [
    { fibre: "cotton", mass_percent: 60, origin_country: "IN", recycled_percent: 0, certification: { code: "GOTS", number: "CU-GOTS-870412" } },
    { fibre: "polyester", mass_percent: 40, origin_country: "TW", recycled_percent: 100, recycled_origin: "post_consumer", certification: { code: "GRS", number: "CU-GRS-1042587" } },
  ],
  substances_of_concern: [
    {
      name: "Antimony trioxide",
      cas: "1309-64-4",
      ec: "215-175-0",
      concentration_percent: 0.018,
      location: "Recycled polyester fibres (catalyst residue from PET production)",
      safe_use: "Bound in the fibre: no exposure in normal wear or washing. Do not incinerate at home.",
    },
  ],
  durability: [
    { property: "pilling", standard: "ISO 12945-2:2020", result: "Grade 4 after 2,000 rubs (Martindale)", class: "4" },
    { property: "dimensional_change", standard: "ISO 6330:2021 / ISO 5077:2007", result: "Length -2.5 %, width -1.5 % after 3 washes at 40 °C" },
    { property: "colour_fastness_washing", standard: "ISO 105-C06:2010 (A2S)", result: "Change in colour 4-5, staining 4", class: "4-5" },
  ],
  care: { symbols: ["wash_30", "do_not_bleach", "do_not_tumble_dry", "iron_low", "do_not_dry_clean"], text: "Machine wash at 30 °C inside out, do not bleach or tumble dry, iron low, do not dry clean." },
  repair: {
    instructions: "A loose button or an open seam can be mended at any Demo Apparel store, free for two years.",
    spare_parts: ["Placket buttons (3), sewn inside the side seam"],
    service_url: "https://demo-apparel.example/repair",
  },
  end_of_life: {
    recyclability: "Cotton and polyester blend: recyclable fibre to fibre by chemical separation; else mechanically to nonwovens. Cut out the buttons first.",
    take_back: "Any Demo Apparel store takes back worn garments of any brand for reuse or recycling.",
    take_back_url: "https://demo-apparel.example/take-back",
  },
  images: ["https://demo-apparel.example/images/organic-cotton-henley.jpg"],
  carbon: { method: "estimate", kg_co2e: 0 },
} satisfies TextileData;

/** The Bangladeshi stages, confirmed in the seed by their factories as their operators would; spinning stays declared. */
const CONFIRMED_STAGES: Array<{ factory_id: number; stage: TextileStage }> = [
  { factory_id: 1006, stage: "weaving_knitting" },
  { factory_id: DYEHOUSE.factory_id, stage: "dyeing_printing_finishing" },
  { factory_id: 1001, stage: "making_up" },
];

/**
 * One garment at the three granularities: the model declares everything; the batch adds its lot and the item its
 * serial, and each takes the rest from above, as CreateDPP does (api/src/dpp/service.ts). Fixed UIDs keep it one
 * garment across restarts.
 */
const GARMENT = {
  model: { code: "5HM2D8VQ" },
  batch: { code: "8BT3K6NP", lot: "HNL2026-11" },
  item: { code: "1RW7F4XC", serial: "HNL-0001" },
  input: {
    sku: "DA-HNL-060",
    name: "Organic Cotton Henley",
    category: "t-shirt",
    fabric_type: "organic cotton blend",
    description: "Long-sleeved henley in garment-dyed jersey of organic cotton and recycled polyester.",
    gtin: "09520123000509",
    price: 1990,
    factory_id: 1001,
    fiber_composition: [
      { fiber: "cotton", percent: 60 },
      { fiber: "polyester", percent: 40 },
    ],
    care_instructions: "Machine wash 30 °C, do not tumble dry.",
    country_of_manufacture: "BD",
  } satisfies CreateProductInput,
};
/** What the demo.json replay changes on the item: its care instructions. */
const REPLAY = { element_path: "care_instructions", new_value: "Machine wash 30 °C inside out, line dry, iron low." };
export async function seedDemo(options: {
  db: Knex;
  wallet: SharedWallet;
  contracts: Contracts;
  previous: Partial<DemoState> | undefined;
  demoApiKey: string | undefined;
  log: (line: string) => void;
  /** Where the API answers, for the replay URL in demo.json (default http://127.0.0.1:3000). */
  apiUrl?: string;
  /** The API's config.tags, so demo tags verify under its keys (default: the public local master key, version 1). */
  tagKeys?: Config["tags"];
  /** BASE_DOMAIN (default localhost), and a custom domain to give the demo brand, verified (default: none). */
  domains?: { baseDomain: string; customDomain?: string };
  /**
   * The gateways the API talks to and the credentials they accept (the local protocol servers under `npm start`):
   * the demo brand then sells, by all four methods. Left out, its payment setup is left as it is.
   */
  payments?: DemoPayments;
}): Promise<DemoState> {
  const { db, wallet, contracts, log } = options;
  const factories = loadFactories();

  // Brand and its key. The key's plain value exists only in .data/demo.json (local mode) and in DEMO_API_KEY.
  const wantedKey = options.demoApiKey ?? options.previous?.api_key;
  let brand = await getBrand(db, BRAND.slug).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  let apiKey: string;
  if (!brand) {
    const created = await createBrand(db, { ...BRAND, plan: "enterprise", keyLabel: "demo", keyValue: wantedKey });
    brand = created.brand;
    apiKey = created.key.key;
  } else if (wantedKey) {
    await ensureKey(db, BRAND.slug, wantedKey, "demo");
    apiKey = wantedKey;
  } else {
    apiKey = (await issueKey(db, BRAND.slug, "demo")).key;
  }
  // Also brands demo data seeded before branding existed; a branding an operator has set since is kept.
  if (Object.keys((await getStoredBranding(db, BRAND.slug)).branding).length === 0) await setBranding(db, BRAND.slug, DEMO_BRANDING);
  // Its products are made in Bangladesh unless a product or its factory says otherwise; another country set is kept.
  if ((await productDefaults(db, brand.id)).countryOfManufacture === null) await setProductDefaults(db, BRAND.slug, { countryOfManufacture: "BD" });

  const operator = await ensureOperator(db, OPERATOR_EMAIL, "operator", factories[0]!.factory_id, options.previous?.operator?.password);
  const admin = await ensureOperator(db, ADMIN_EMAIL, "admin", null, options.previous?.admin?.password);
  const owner = await ensureBrandUser(db, brand.id, OWNER_EMAIL, "owner", options.previous?.brand_users?.owner?.password);
  const cashier = await ensureBrandUser(db, brand.id, CASHIER_EMAIL, "cashier", options.previous?.brand_users?.cashier?.password);
  if (options.payments) await seedDemoPayments(db, brand.id, options.payments, log);

  // Factory profiles (off chain) and their registration, certifications and verification (on chain).
  // The profile is stored as POST /api/factories stores it, so its metadata hash is the one registered on chain.
  const metadataHashes = new Map<number, string>();
  for (const factory of factories) metadataHashes.set(factory.factory_id, await saveFactoryProfile(db, factory));
  const registered = await registerFactoriesOnChain(wallet, contracts, factories, metadataHashes, log);

  // The EN 18223 header's identifiers: the brand's EORI and its factory's GLN (and the dyeing house's OS Hub id, by
  // which the garment names it); ones an operator has set since are kept.
  if ((await economicOperatorOf(db, brand.id)) === null) await setEconomicOperatorId(db, brand, { system: "demo seed" }, DEMO_EORI);
  for (const [factoryId, ids] of [[factories[0]!.factory_id, { gln: DEMO_FACTORY_GLN }], [DYEHOUSE.factory_id, { osId: DYEHOUSE.os_id }]] as const) {
    const current = await facilityIdsOf(db, factoryId);
    if (("gln" in ids && current.gln === null) || ("osId" in ids && current.osId === null)) await setFacilityIds(db, factoryId, ids);
  }

  // The garment first, so the products below are the brand's latest certified ones (its profile page lists those).
  const en18222 = await seedDemoGarment(db, wallet, contracts, demoBrand(brand), options.apiUrl ?? "http://127.0.0.1:3000");

  // Products: rows once; passports minted on the current chain if not yet.
  const products: DemoState["products"] = [];
  for (const demo of DEMO_PRODUCTS) {
    const uid = `${BRAND.uidPrefix}-${demo.code}`;
    let product = await findProductByUid(db, uid);
    if (!product) {
      const factory = factories.find((f) => f.factory_id === demo.factory_id)!;
      await registerProduct(db, demoBrand(brand), {
        sku: demo.sku,
        name: demo.name,
        category: demo.category,
        fabric_type: demo.fabric_type,
        price: demo.price,
        factory_id: demo.factory_id,
        fiber_composition: demo.fiber,
        care_instructions: demo.care,
        country_of_manufacture: factory.country,
        ...demo.gs1,
      }, { uid });
      product = (await findProductByUid(db, uid))!;
    }
    if (demo.minted) await mintDemoPassport(db, wallet, contracts, product.id, uid, demo.factory_id, DEMO_STAGES);
    // A database seeded before products had GS1 identifiers keeps its products as they were anchored.
    products.push({ uid, minted: demo.minted, gtin: product.gtin, serial: product.serial });
  }
  log(`seeded ${factories.length} factories (${registered} registered on this chain) and ${products.length} products`);
  const tags = await seedDemoTags(db, wallet, contracts, brand.id, products.filter((p) => p.minted).map((p) => p.uid), options.tagKeys ?? LOCAL_TAG_KEYS);
  const customDomain = options.domains?.customDomain ? await seedDemoDomain(db, brand.id, options.domains.customDomain) : null;

  return {
    brand_slug: BRAND.slug,
    api_key: apiKey,
    operator: { email: OPERATOR_EMAIL, password: operator },
    admin: { email: ADMIN_EMAIL, password: admin },
    brand_users: { owner: { email: OWNER_EMAIL, password: owner }, cashier: { email: CASHIER_EMAIL, password: cashier } },
    factory_ids: factories.map((f) => f.factory_id),
    products,
    tags,
    subdomain_host: `${BRAND.slug}.${options.domains?.baseDomain ?? "localhost"}`,
    custom_domain: customDomain,
    en18222,
  };
}

/**
 * The garment's model, batch and item passports: rows once, linked as CreateDPP links them (each pinned to its
 * parents' anchored hashes, saying which fields it took from where), and each minted on the current chain if not
 * yet. The model goes first: a batch or an item is made from its parents' anchored versions.
 */
async function seedDemoGarment(db: Knex, wallet: SharedWallet, contracts: Contracts, brand: ReturnType<typeof demoBrand>, apiUrl: string): Promise<DemoEn18222> {
  const { input } = GARMENT;
  const ensure = async (code: string, dpp: CreateDppInput, granularity: Granularity, parents: { model?: ProductRow; batch?: ProductRow }) => {
    const uid = `${BRAND.uidPrefix}-${code}`;
    if (!(await findProductByUid(db, uid))) {
      const pinned = (row?: ProductRow) => (row ? parentOf(row, row.passport_data_hash!) : undefined);
      const { values, link } = registrationOf(dpp, granularity, { model: pinned(parents.model), batch: pinned(parents.batch) });
      await registerProduct(db, brand, values, { uid, link });
    }
    await mintDemoPassport(db, wallet, contracts, (await findProductByUid(db, uid))!.id, uid, input.factory_id, []);
    return (await findProductByUid(db, uid))!;
  };
  // The model gives every field; the batch adds its lot and the item its serial, each taking the rest from above.
  const model = await ensure(
    GARMENT.model.code,
    {
      product: { sku: input.sku, name: input.name, category: input.category, fabric_type: input.fabric_type, description: input.description, gtin: input.gtin },
      fiber_composition: input.fiber_composition,
      care_instructions: input.care_instructions,
      country_of_manufacture: input.country_of_manufacture,
      manufacturer: { factory_id: input.factory_id },
      price: input.price,
      textile: { ...GARMENT_TEXTILE, carbon: { method: "estimate", kg_co2e: estimateCarbon(input.category, input.fabric_type).kg } },
    },
    "model",
    {},
  );
  // The factories confirm their stages on the model, whose stages the batch and the item take: one block for all. Only
  // a stage that names its factory by registry id can be confirmed (a model seeded before that rule named some by GLN).
  const stages = passportContentFor(model).textile?.stages ?? [];
  await Promise.all(
    CONFIRMED_STAGES.filter(({ stage, factory_id }) => stages.some((s) => s.stage === stage && facilityIsFactory(s.facility, factory_id))).map(({ factory_id, stage }) =>
      confirmTextileStage({ db, contracts, ledger: wallet.ledger, receiptWaitMs: 60_000 }, { role: "operator", factory_id }, factory_id, { uid: model.uid, stage }),
    ),
  );
  const batch = await ensure(GARMENT.batch.code, { model: model.dpp_id, product: { lot: GARMENT.batch.lot } }, "batch", { model });
  const item = await ensure(GARMENT.item.code, { batch: batch.dpp_id, product: { serial: GARMENT.item.serial } }, "item", { model, batch });

  const section = passportContentFor(item).schema;
  return {
    dpp_id: item.dpp_id,
    product_id: `https://id.gs1.org/01/${input.gtin}/10/${GARMENT.batch.lot}/21/${GARMENT.item.serial}`,
    model_dpp_id: model.dpp_id,
    batch_dpp_id: batch.dpp_id,
    merge_patch: { [section]: { [REPLAY.element_path]: REPLAY.new_value } },
    element_path: REPLAY.element_path,
    new_value: REPLAY.new_value,
    read_url: `${apiUrl}/api/dpp-lifecycle/v1/dpps/${encodeURIComponent(item.dpp_id)}`,
  };
}

/**
 * Gives the demo brand a verified custom domain, once: a local demo has no public DNS to check, so it is recorded as
 * checked. A domain the brand has (or had: removed in the dashboard) is left as it is. Returns the verified one.
 */
async function seedDemoDomain(db: Knex, brandId: number, hostname: string): Promise<string | null> {
  if (!(await db("app.custom_domains").where({ brand_id: brandId }).first("id"))) {
    const added = await insertDomain(db, { brandId, hostname, verifyToken: randomBytes(16).toString("hex") });
    if ("taken" in added) throw new Error(`the demo's custom domain ${hostname} belongs to another brand`);
    const seeded = { ok: true, detail: "Recorded by the local demo's seed: no public DNS to check." };
    await recordCheck(db, added.row.id, { cname: seeded, txt: seeded, at: new Date(), outcome: { status: "verified" } });
  }
  return (await brandAddress(db, brandId))?.customDomain ?? null;
}

export type DemoPayments = { config: Pick<Config, "secretsKey" | "payments">; credentials: Record<GatewayMethod, GatewayCredentials> };

/**
 * Sets up the demo brand's payment methods through Gateway Keys (so each gateway checks its keys, as in the
 * dashboard): the three gateways with the local servers' credentials, and Cash QR. A method already set up with these
 * credentials is left as it is; sales are turned on the first time only, so an owner's switch survives a restart.
 */
async function seedDemoPayments(db: Knex, brandId: number, payments: DemoPayments, log: (line: string) => void): Promise<void> {
  const deps = { db, config: payments.config };
  const actor = { system: "demo seed" };
  const before = await gatewayKeysOverview(deps, brandId);
  for (const view of before.methods) {
    if (view.method === "cash_qr") {
      if (!view.configured) await saveGatewayKeys(deps, brandId, actor, "cash_qr", { enabled: true });
      continue;
    }
    const credentials = payments.credentials[view.method];
    const current = view.configured && view.fields.every((field) => field.secret || field.hint === credentials[field.name]?.trim());
    if (!current) await saveGatewayKeys(deps, brandId, actor, view.method, { credentials: { ...credentials }, enabled: true });
  }
  if (before.methods.every((method) => !method.configured)) {
    await setSalesEnabled(deps, brandId, actor, true);
    log("the demo brand sells by bKash, Nagad, card (SSLCommerz) and Cash QR");
  }
}

/** A demo product's tag UID: 7 bytes, NXP's manufacturer byte 04 then six derived from the product UID (stable). */
export function demoTagUidOf(productUid: string): string {
  return `04${createHash("sha256").update(`demo-tag:${productUid}`).digest("hex").slice(0, 12)}`.toUpperCase();
}

/**
 * Gives each product an NTAG 424 DNA tag: its record bound to the product (provisioned once, as the dashboard would),
 * and its hash assigned on chain (on every new chain). Returns the tags with their keys if the keys are public.
 */
async function seedDemoTags(db: Knex, wallet: SharedWallet, contracts: Contracts, brandId: number, productUids: string[], tagKeys: Config["tags"]): Promise<DemoTag[]> {
  const tagUids = productUids.map(demoTagUidOf);
  const bound = await db("app.tags as t")
    .join("app.products as p", "p.id", "t.product_id")
    .where({ "t.brand_id": brandId, "t.status": "active", "t.chip": "NTAG424", "t.key_version": tagKeys.keyVersion })
    .whereIn("t.tag_uid", tagUids)
    .select<Array<{ tag_uid: string; uid: string }>>("t.tag_uid", "p.uid");
  const alreadyBound = bound.filter((row) => productUids[tagUids.indexOf(row.tag_uid)] === row.uid).length === tagUids.length;
  if (!alreadyBound && tagUids.length > 0) {
    await provisionTags({ db, config: { tags: tagKeys } }, brandId, { system: "demo seed" }, { chip: "NTAG424", tagUids, productUids }, { withKeys: false });
  }

  // On chain, keccak256 of the UID (tagHashOf, as the dashboard assigns); a tag the chain holds already is left.
  const sent = [];
  for (const [i, productUid] of productUids.entries()) {
    const tokenId = tokenIdOf(productUid);
    const tagHash = tagHashOf(tagUids[i]!);
    if ((await contracts.passport.passportOfTag(tagHash)).toString() === tokenId) continue;
    sent.push(await wallet.send(() => contracts.passport.assignTag(tokenId, tagHash)));
  }
  await Promise.all(sent.map((tx) => tx.wait()));

  const publicKeys = tagKeys.masterKey.equals(LOCAL_TAG_KEYS.masterKey);
  const provider = tagKeyProvider({ tags: tagKeys });
  return Promise.all(
    productUids.map(async (productUid, i) => {
      const tag: DemoTag = { tag_uid: tagUids[i]!, product_uid: productUid, type: "NTAG424" };
      if (!publicKeys) return tag;
      const keys = await provider.keysFor(tag.tag_uid, tagKeys.keyVersion);
      return { ...tag, sdm_meta_read_key: keys.sdmMetaRead.toString("hex").toUpperCase(), sdm_file_read_key: keys.sdmFileRead.toString("hex").toUpperCase() };
    }),
  );
}

function demoBrand(brand: BrandRecord) {
  return { id: brand.id, slug: brand.slug, uidPrefix: brand.uidPrefix };
}

/**
 * Gives the demo brand a dashboard account with the remembered password (from .data/demo.json), or a new random one
 * when none is remembered; returns the password.
 */
async function ensureBrandUser(db: Knex, brandId: number, email: string, role: "owner" | "cashier", remembered?: string) {
  const password = remembered ?? randomBytes(12).toString("base64url");
  const exists = (await listTeam(db, brandId)).some((member) => member.email === email && member.status === "active");
  if (!exists || !remembered) await createMemberWithPassword(db, brandId, { email, role, password });
  return password;
}

/** Creates the operator if missing (with the remembered or a new random password); returns the password. */
async function ensureOperator(db: Knex, email: string, role: "admin" | "operator", factoryId: number | null, remembered?: string) {
  const password = remembered ?? randomBytes(12).toString("base64url");
  if (!(await operatorExists(db, email))) await createOperator(db, { email, role, factoryId, password });
  else if (!remembered) await setOperatorPassword(db, email, password);
  return password;
}

async function registerFactoriesOnChain(
  wallet: SharedWallet,
  contracts: Contracts,
  factories: FactorySeed[],
  metadataHashes: Map<number, string>,
  log: (line: string) => void,
) {
  const pending = [];
  let count = 0;
  for (const factory of factories) {
    if (await contracts.registry.isRegistered(factory.factory_id)) continue;
    count += 1;
    const metadataHash = metadataHashes.get(factory.factory_id)!;
    pending.push(await wallet.send(() => contracts.registry.registerFactory(factory.factory_id, metadataHash, countryBytes(factory.country))));
    const mask = certificationMask(factory.certifications);
    if (mask !== 0) pending.push(await wallet.send(() => contracts.registry.setCertifications(factory.factory_id, mask)));
    if (factory.verified) pending.push(await wallet.send(() => contracts.registry.verifyFactory(factory.factory_id)));
  }
  await Promise.all(pending.map((tx) => tx.wait()));
  if (count > 0) log(`registered ${count} factories on chain (${pending.length} transactions)`);
  return count;
}

async function mintDemoPassport(db: Knex, wallet: SharedWallet, contracts: Contracts, productId: number, uid: string, factoryId: number, stages: number[]) {
  const tokenId = tokenIdOf(uid);
  if (await contracts.passport.exists(tokenId)) return;
  // Hash exactly what the API will serve: the content built from the stored rows.
  const row = await findProductByUid(db, uid);
  if (!row) throw new Error(`demo product ${uid} is missing`);
  const content = passportContentFor(row);
  const dataHash = dataHashOf(content);
  const tx = await wallet.send(() => contracts.passport.mint(wallet.address, tokenId, factoryId, dataHash));
  // The product's tag is assigned by seedDemoTags, once the passport exists.
  const followUps = [];
  for (const stage of stages) {
    const details = dataHashOf({ uid, stage, factory_id: factoryId });
    followUps.push(await wallet.send(() => contracts.passport.recordSupplyChainEvent(tokenId, factoryId, stage, details)));
  }
  const receipt = await tx.wait();
  await Promise.all(followUps.map((t) => t.wait()));
  await upsertMintedIssuance(db, {
    product_id: productId,
    brand_id: row.brand_id,
    token_id: tokenId,
    data_hash: dataHash,
    chain_id: contracts.deployment.chainId,
    contract_address: contracts.deployment.contracts.ProductPassport.address,
    tx_hash: tx.hash,
    nonce: tx.nonce,
    block_number: receipt!.blockNumber,
    minted_at: new Date(),
  });
  // Version 1's exact bytes, kept as the API's own mint keeps them (migration 033), so it reads back by date.
  await db("app.passports").where({ product_id: productId }).update({ content: canonicalContent(content) });
}

function countryBytes(country: string): string {
  return hexlify(toUtf8Bytes(country)).padEnd(6, "0");
}

