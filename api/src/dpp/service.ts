// The EN 18222 lifecycle operations over the service's own passports (no second copy of the data): reads by passport
// id, by product identifier and as of an instant; creation of model, batch and item passports; JSON Merge Patch
// updates (re-anchored on chain through the same edit path as the dashboard); deletion within the retention rules.
import type { AppDeps } from "../deps";
import type { Actor } from "../audit/service";
import { recordAudit } from "../audit/service";
import { heldDpp, heldDppAt, heldDppByProductId, heldVersionContent, heldVersionList, orNotFound } from "../backup/held";
import type { BrandContext } from "../brands/service";
import { issueCertificate } from "../certificates/service";
import { AppError, ConflictError, NotFoundError, ValidationError, type ErrorDetail } from "../errors";
import { translationsOfProduct } from "../i18n/product-texts";
import type { TextileData } from "../passports/textile";
import { passportContentFor, type Granularity, type Lineage, type PassportContent, type ParentRef } from "../passports/content";
import { editProduct, type ProductChanges } from "../products/product-edits";
import { findProductByDppId, type PassportLink, type ProductRow } from "../products/products.repo";
import { registerProduct, type CreateProductInput } from "../products/service";
import { compile } from "../validation";
import { createProductBody } from "../products/product-schema";
import {
  deleteUnpublishedProduct,
  dppIdsByKeys,
  linkedPassportCount,
  findDppWithHistory,
  passportsByKey,
  setDppStatus,
  versionAt,
  versionsOf,
  type DppWithHistory,
  type ProductKey,
  type VersionRecord,
} from "./dpp.repo";
import { elementOf, pathSteps, patchAt, valueAt, type Translations } from "./elements";
import { applyMergePatch, type Json } from "./merge-patch";
import { accessOfProduct, type PassportAccess } from "../access/reads";
import { registrationInHeader } from "../registry/registration";
import { registrationOfVersion, type RegistrationRow } from "../registry/registrations.repo";
import { anchorOf, dppHeader, HEADER_FIELDS, lastUpdateOf, representDpp, type Representation } from "./representation";

const API_ACTOR: Actor = { system: "EN 18222 API" };

/** 400 BAD_REQUEST: the request cannot be read as asked (a malformed identifier, date or patch). */
export class BadRequestError extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, "BAD_REQUEST", message, details);
  }
}

async function translationsFor(deps: AppDeps, product: ProductRow): Promise<Translations> {
  return (await translationsOfProduct(deps.db, product)) as Translations;
}

/** A passport as served now: header, content section (or elements) and anchor. */
async function present(deps: AppDeps, product: ProductRow, representation: Representation, knownVersions?: VersionRecord[], registration?: RegistrationRow) {
  const [versions, translations] = await Promise.all([knownVersions ?? versionsOf(deps.db, product.id), representation === "full" ? translationsFor(deps, product) : {}]);
  const content = passportContentFor(product);
  const header = dppHeader(deps.config, product, content, lastUpdateOf(product, versions));
  return representDpp(header, content, anchorOf(product, versions), representation, translations, registrationInHeader(registration));
}

async function passportById(deps: AppDeps, dppId: string, brandId?: number): Promise<ProductRow> {
  const product = await findProductByDppId(deps.db, dppId, brandId);
  if (!product) throw new NotFoundError("Digital product passport");
  return product;
}

/**
 * A passport as a read renders it whole, with what visibleDpp needs of it (its ids and its brand's overrides) when
 * the read had its row; a back-up's copy of another deployment's passport comes without.
 */
export type DppRead = { dpp: Awaited<ReturnType<typeof present>>; access?: PassportAccess };

/** ReadDPPById. The passport's row, versions and registration are read in one statement. */
export async function readDpp(deps: AppDeps, dppId: string, representation: Representation): Promise<DppRead> {
  const read = await findDppWithHistory(deps.db, { dppId });
  if (!read) return { dpp: orNotFound(await heldDpp(deps, dppId, representation)) };
  return presentRead(deps, read, representation);
}

/**
 * ReadDPPByProductId: the most general passport the identifier names (the model before a batch before an item). A
 * UID names one passport, read as ReadDPPById reads one.
 */
export async function readDppByProductId(deps: AppDeps, key: ProductKey, representation: Representation): Promise<DppRead> {
  if ("uid" in key) {
    const read = await findDppWithHistory(deps.db, { uid: key.uid });
    if (read) return presentRead(deps, read, representation);
  } else {
    const [first] = await passportsByKey(deps.db, key, 1);
    if (first) return readDpp(deps, first.dpp_id, representation);
  }
  return { dpp: orNotFound(await heldDppByProductId(deps, key, representation)) };
}

async function presentRead(deps: AppDeps, { product, versions, registration }: DppWithHistory, representation: Representation): Promise<DppRead> {
  return { dpp: await present(deps, product, representation, versions, registration), access: accessOfProduct(product) };
}

/** ReadDPPVersionByIdAndDate: the version current at `at`, its content section exactly as it was hashed. */
export async function readDppAt(deps: AppDeps, dppId: string, at: Date, representation: Representation) {
  const product = await findProductByDppId(deps.db, dppId);
  if (!product) return orNotFound(await heldDppAt(deps, dppId, at, representation));
  const version = await versionAt(deps.db, product.id, at);
  if (!version) throw new NotFoundError(`Version of this passport at ${at.toISOString()} (it was not yet anchored then)`);
  const content = contentOfVersion(version);
  const translations = representation === "full" ? await translationsFor(deps, product) : {};
  const header = dppHeader(deps.config, product, content, version.valid_from);
  const registration = await registrationOfVersion(deps.db, product.id, version.version);
  return representDpp(header, content, anchorOf(product, [version]), representation, translations, registrationInHeader(registration));
}

function contentOfVersion(version: VersionRecord): PassportContent {
  if (version.content === null) {
    throw new AppError(404, "NOT_FOUND", `Version ${version.version} was anchored before versions were archived (migration 033); its hash ${version.data_hash} is on chain, its content is not kept.`);
  }
  return JSON.parse(version.content) as PassportContent;
}

/** The anchored versions of a passport (our extension: the list an auditor walks). */
export async function listDppVersions(deps: AppDeps, dppId: string) {
  const product = await findProductByDppId(deps.db, dppId);
  if (!product) return orNotFound(await heldVersionList(deps, dppId));
  return (await versionsOf(deps.db, product.id)).map((v) => ({
    version: v.version,
    validFrom: v.valid_from.toISOString(),
    dataHash: v.data_hash,
    transactionHash: v.tx_hash,
    blockNumber: v.block_number === null ? null : Number(v.block_number),
    contentKept: v.content !== null,
  }));
}

/** The exact bytes a version hashed (our extension), for auditors recomputing the hash. */
export async function dppVersionContent(deps: AppDeps, dppId: string, version: number): Promise<string> {
  const product = await findProductByDppId(deps.db, dppId);
  if (!product) return orNotFound(await heldVersionContent(deps, dppId, version));
  const record = (await versionsOf(deps.db, product.id)).find((v) => v.version === version);
  if (!record) throw new NotFoundError(`Version ${version} of this passport`);
  if (record.content === null) contentOfVersion(record);
  return record.content!;
}

/** ReadDPPIdsByProductIds: the union of the passport ids the identifiers name, in id order, paged by the last id. */
export type { ProductKey };

export async function dppIdsByProductIds(deps: AppDeps, keys: ProductKey[], limit: number, cursor: string | undefined) {
  const ids = await dppIdsByKeys(deps.db, keys, cursor, limit + 1);
  const page = ids.slice(0, limit);
  return { result: page, paging_metadata: ids.length > limit ? { cursor: page.at(-1)! } : {} };
}

// ---- writes ----------------------------------------------------------------------------------------------------

export type CreateDppInput = {
  granularity?: Granularity;
  model?: string;
  batch?: string;
  product?: Partial<{ sku: string; name: string; category: string; fabric_type: string; description: string; gtin: string; lot: string; serial: string }>;
  fiber_composition?: CreateProductInput["fiber_composition"];
  certifications?: CreateProductInput["certifications"];
  care_instructions?: string;
  country_of_manufacture?: string;
  manufacturer?: { factory_id: number };
  textile?: TextileData;
  price?: number;
  currency?: string;
};

/** Content fields a batch or item takes from its batch, then its model, when it does not give them. */
type Inheritable =
  | "product.sku"
  | "product.name"
  | "product.category"
  | "product.fabric_type"
  | "product.description"
  | "product.gtin"
  | "product.lot"
  | "fiber_composition"
  | "certifications"
  | "care_instructions"
  | "country_of_manufacture"
  | "manufacturer"
  | `textile.${TextileKey}`;

type TextileKey = keyof TextileData;

type Parent = { row: ProductRow; content: PassportContent; ref: ParentRef };

/** A parent passport as a new one is made from it: its row, pinned to its anchored hash `dataHash`. */
export function parentOf(row: ProductRow, dataHash: string): Parent {
  return { row, content: passportContentFor(row), ref: { id: row.dpp_id, uid: row.uid, data_hash: dataHash } };
}

/**
 * What a passport made from `parents` is registered with: its input, with what it leaves out taken from its batch,
 * then its model, and its link (granularity, parents, and the lineage its content anchors). CreateDPP's rule, and
 * the demo seed's.
 */
export function registrationOf(input: CreateDppInput, granularity: Granularity, { model, batch }: { model?: Parent; batch?: Parent }): { values: CreateProductInput; link: PassportLink } {
  const { values, inherited } = inheritedInput(input, batch, model);
  const lineage: Lineage | null =
    model || batch ? { ...(model ? { model: model.ref } : {}), ...(batch ? { batch: batch.ref } : {}), ...(Object.keys(inherited).length > 0 ? { inherited } : {}) } : null;
  return { values, link: { granularity, model_id: model?.row.id ?? null, batch_id: batch?.row.id ?? null, lineage: lineage ? JSON.stringify(lineage) : null } };
}

/** CreateDPP: registers the product at its granularity, linked to its model and batch, and anchors it on chain. */
export async function createDpp(deps: AppDeps, brand: BrandContext, input: CreateDppInput) {
  const granularity = input.granularity ?? "item";
  const { model, batch } = await parentsOf(deps, brand, granularity, input);
  const { values, link } = registrationOf(input, granularity, { model, batch });
  const created = await deps.db.transaction((trx) => registerProduct(trx, brand, values, { link }));
  try {
    await issueCertificate(deps, brand.id, created.uid, brand.limits);
  } catch (error) {
    // The claim made it (the mint goes on in the background): the passport exists and is being anchored.
    const product = await findProductByDppId(deps.db, (await idOf(deps, created.productId))!);
    if (product?.passport_status === "pending") return present(deps, product, "compressed");
    // Nothing was published (no quota, the chain refused): nothing is left behind.
    await deps.db.transaction((trx) => deleteUnpublishedProduct(trx, created.productId));
    throw error;
  }
  const product = await findProductByDppId(deps.db, (await idOf(deps, created.productId))!);
  await recordAudit(deps.db, brand.id, API_ACTOR, { action: "dpp.created", target: created.uid, details: { granularity, model: model?.ref.id ?? null, batch: batch?.ref.id ?? null } });
  return present(deps, product!, "compressed");
}

async function idOf(deps: AppDeps, productId: number): Promise<string | undefined> {
  const row = await deps.db("app.products").where("id", productId).first<{ dpp_id: string } | undefined>("dpp_id");
  return row?.dpp_id;
}

/** The model and batch a new passport names, checked: theirs, of the right granularity, consistent, anchored. */
async function parentsOf(deps: AppDeps, brand: BrandContext, granularity: Granularity, input: CreateDppInput): Promise<{ model?: Parent; batch?: Parent }> {
  const problems: ErrorDetail[] = [];
  if (granularity === "model" && (input.model || input.batch)) problems.push({ field: "body.model", problem: "a model passport links to no model or batch" });
  if (granularity === "batch" && input.batch) problems.push({ field: "body.batch", problem: "a batch passport links to a model only" });
  if (problems.length > 0) throw new ValidationError(problems);
  const load = async (id: string | undefined, level: "model" | "batch"): Promise<Parent | undefined> => {
    if (id === undefined) return undefined;
    const row = await findProductByDppId(deps.db, id, brand.id);
    if (!row) throw new ValidationError([{ field: `body.${level}`, problem: `names no passport of yours (${id})` }]);
    if (row.granularity !== level) throw new ValidationError([{ field: `body.${level}`, problem: `names a ${row.granularity} passport, not a ${level} passport` }]);
    const versions = await versionsOf(deps.db, row.id);
    const latest = versions.at(-1);
    if (!latest) throw new ConflictError(`The ${level} passport ${id} is not anchored on chain yet; create this one once it is.`);
    return parentOf(row, latest.data_hash);
  };
  const batch = await load(input.batch, "batch");
  let model = await load(input.model, "model");
  if (batch?.row.model_id) {
    // A batch belongs to one model: an item of the batch belongs to it too.
    if (model && model.row.id !== batch.row.model_id) throw new ValidationError([{ field: "body.model", problem: "is not the model of the batch named" }]);
    if (!model) model = await load((await idOf(deps, batch.row.model_id))!, "model");
  }
  return { model, batch };
}

/** The registration input: what the request gives, else what the batch, else the model has; and what was taken from where. */
function inheritedInput(input: CreateDppInput, batch: Parent | undefined, model: Parent | undefined) {
  const own: Record<string, unknown> = {
    "product.sku": input.product?.sku,
    "product.name": input.product?.name,
    "product.category": input.product?.category,
    "product.fabric_type": input.product?.fabric_type,
    "product.description": input.product?.description,
    "product.gtin": input.product?.gtin,
    "product.lot": input.product?.lot,
    fiber_composition: input.fiber_composition,
    certifications: input.certifications,
    care_instructions: input.care_instructions,
    country_of_manufacture: input.country_of_manufacture,
    manufacturer: input.manufacturer?.factory_id,
    ...Object.fromEntries(Object.entries(input.textile ?? {}).map(([key, v]) => [`textile.${key}`, v])),
  };
  const inherited: Record<string, "model" | "batch"> = {};
  const value = (field: Inheritable): unknown => {
    if (own[field] !== undefined) return own[field];
    for (const [level, parent] of [["batch", batch], ["model", model]] as const) {
      // A lot names a batch: an item takes its batch's, never a model's.
      if (!parent || (field === "product.lot" && level === "model")) continue;
      const found = parentValue(parent, field);
      if (found !== undefined && found !== null && !(Array.isArray(found) && found.length === 0) && found !== "") {
        inherited[field] = level;
        return found;
      }
    }
    return undefined;
  };
  // The textile section part by part: an item may take its stages from its batch and its durability from its model.
  const textileKeys = new Set<TextileKey>([input.textile, batch?.content.textile, model?.content.textile].flatMap((t) => Object.keys(t ?? {}) as TextileKey[]));
  const textileEntries = [...textileKeys].flatMap((key) => {
    const found = value(`textile.${key}`);
    return found === undefined ? [] : [[key, found] as const];
  });
  const textile = textileEntries.length > 0 ? (Object.fromEntries(textileEntries) as TextileData) : undefined;
  const gtin = value("product.gtin") as string | undefined;
  const values = {
    sku: value("product.sku"),
    name: value("product.name"),
    category: value("product.category"),
    fabric_type: value("product.fabric_type"),
    description: value("product.description"),
    ...(gtin ? { gtin, lot: value("product.lot"), serial: input.product?.serial } : { serial: input.product?.serial, lot: input.product?.lot }),
    fiber_composition: value("fiber_composition"),
    certifications: value("certifications"),
    care_instructions: value("care_instructions"),
    country_of_manufacture: value("country_of_manufacture"),
    factory_id: value("manufacturer"),
    textile,
    price: input.price ?? (batch ? Number(batch.row.price) : model ? Number(model.row.price) : 0),
    currency: input.currency ?? batch?.row.currency ?? model?.row.currency,
  };
  const missing = (["sku", "name", "category"] as const).filter((field) => values[field] === undefined);
  if (missing.length > 0) throw new ValidationError(missing.map((field) => ({ field: `body.product.${field}`, problem: "is required (or inherited from a model or batch)" })));
  const clean = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null)) as unknown as CreateProductInput;
  return { values: clean, inherited };
}

function parentValue(parent: Parent, field: Inheritable): unknown {
  if (field === "manufacturer") return parent.content.manufacturer?.factory_id;
  return valueAt(parent.content, field.split("."));
}

// ---- updates ---------------------------------------------------------------------------------------------------

/** Content paths a merge patch may change, and the product column each is. */
const WRITABLE: Record<string, keyof ProductChanges> = {
  "product.sku": "sku",
  "product.name": "name",
  "product.category": "category",
  "product.fabric_type": "fabric_type",
  "product.description": "description",
  "product.gtin": "gtin",
  "product.lot": "lot",
  "product.serial": "serial",
  fiber_composition: "fiber_composition",
  certifications: "certifications",
  care_instructions: "care_instructions",
  country_of_manufacture: "country_of_manufacture",
  textile: "textile",
};
/** Removable by `null`: stored as empty (none), the textile section as null. The others must keep a value. */
const REMOVABLE = new Set(["fabric_type", "description", "gtin", "lot", "serial", "care_instructions", "textile"]);
const removedValue = (column: string) => (column === "textile" ? null : "");

/** The changes' values, checked by the same schema as a registration's (an empty string removes a removable one). */
const checkChanges = compile({
  ...createProductBody,
  required: [],
  properties: Object.fromEntries(
    Object.values(WRITABLE).map((column) => {
      const schema = (createProductBody.properties as Record<string, object>)[column]!;
      return [column, REMOVABLE.has(column) ? { anyOf: [schema, { const: removedValue(column) }] } : schema];
    }),
  ),
});

/** UpdateDPPById: applies an RFC 7396 merge patch to the passport as served (compressed), then re-anchors it. */
export async function updateDpp(deps: AppDeps, brand: BrandContext, dppId: string, patch: Json) {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) throw new BadRequestError("A merge patch of a passport must be a JSON object.");
  const product = await passportById(deps, dppId, brand.id);
  if (product.dpp_status === "archived") throw new ConflictError("The passport is archived: it is kept for the retention period and can no longer change.");
  const content = passportContentFor(product);
  const header = dppHeader(deps.config, product, content, new Date(0));
  const current = { ...header, [content.schema]: content } as unknown as Json;
  const patched = applyMergePatch(current, patch) as Record<string, Json>;

  const problems: ErrorDetail[] = [];
  for (const key of Object.keys(patch)) {
    if (key === content.schema || key === "dppStatus" || key === "anchor" || key === "registration" || key === "access") continue;
    if ((HEADER_FIELDS as readonly string[]).includes(key)) {
      if (key !== "lastUpdate" && differsIgnoringNulls(patched[key], (current as Record<string, Json>)[key])) problems.push({ field: key, problem: "is read-only" });
    } else problems.push({ field: key, problem: `is not an element of this passport (its content section is "${content.schema}")` });
  }
  const status = patched.dppStatus;
  if (status !== product.dpp_status && status !== "active" && status !== "inactive") {
    problems.push({ field: "dppStatus", problem: 'may be set to "active" or "inactive" (DELETE archives a passport)' });
  }
  const section = patched[content.schema];
  const changes: ProductChanges = {};
  if (typeof section !== "object" || section === null || Array.isArray(section)) problems.push({ field: content.schema, problem: "is required and must be an object" });
  else collectChanges(content, section as Record<string, Json>, changes, problems);
  if (problems.length > 0) throw new ValidationError(problems, "The merge patch changes elements that cannot change, or gives invalid values.");
  if (!checkChanges(changes)) throw new ValidationError((checkChanges.errors ?? []).map((e) => ({ field: `${content.schema}.${columnPath(e.instancePath)}`, problem: e.message ?? "is invalid" })));

  const lineage = lineageAfter(product, content, section as Record<string, Json>);
  if (lineage !== undefined && Object.keys(changes).length > 0) changes.lineage = lineage;
  if (Object.keys(changes).length > 0) await editProduct(deps, brand.id, API_ACTOR, product.uid, changes);
  if (status !== product.dpp_status) await changeStatus(deps, brand.id, product, status as "active" | "inactive");
  return present(deps, await passportById(deps, dppId, brand.id), "compressed");
}

/** The product changes a patched section asks for; read-only or unknown elements it changed go to `problems`. */
function collectChanges(content: PassportContent, section: Record<string, Json>, changes: ProductChanges, problems: ErrorDetail[]) {
  const before = content as unknown as Record<string, Json>;
  const differs = differsIgnoringNulls;
  const keysOf = (x: unknown) => (typeof x === "object" && x !== null && !Array.isArray(x) ? Object.keys(x) : []);
  const paths: string[] = [];
  for (const key of new Set([...keysOf(before), ...keysOf(section)])) {
    if (key !== "product" || typeof section.product !== "object" || section.product === null || Array.isArray(section.product)) {
      if (differs(before[key], section[key])) paths.push(key);
      continue;
    }
    for (const sub of new Set([...keysOf(before.product), ...keysOf(section.product)])) {
      if (differs((before.product as Record<string, Json>)[sub], section.product[sub])) paths.push(`product.${sub}`);
    }
  }
  for (const path of paths) {
    const column = WRITABLE[path];
    const field = `${content.schema}.${path}`;
    if (!column) {
      const known = valueAt(before, path.split(".")) !== undefined;
      problems.push({ field, problem: known ? "is read-only (set by the service, or fixed when the passport was issued)" : "is not an element of this content specification" });
      continue;
    }
    const value = valueAt(section, path.split("."));
    if (value !== undefined && value !== null) (changes as Record<string, unknown>)[column] = value;
    else if (REMOVABLE.has(column)) (changes as Record<string, unknown>)[column] = removedValue(column);
    else problems.push({ field, problem: "cannot be removed" });
  }
}

/**
 * Whether a patch changed a value. A null member is the same as an absent one: a passport as read carries nulls
 * (`economicOperatorId: null`), and sent back as a merge patch those nulls remove members that were null already,
 * which changes nothing (RFC 7396 has no way to say "null, unchanged").
 */
function differsIgnoringNulls(a: unknown, b: unknown): boolean {
  return JSON.stringify(withoutNulls(a)) !== JSON.stringify(withoutNulls(b));
}

function withoutNulls(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

/** The lineage without the inherited fields the patch changed (they are the passport's own now); undefined if none. */
function lineageAfter(product: ProductRow, content: PassportContent, section: Record<string, Json>): Lineage | null | undefined {
  const inherited = product.lineage?.inherited;
  if (!inherited) return undefined;
  const kept = Object.fromEntries(
    Object.entries(inherited).filter(([field]) => JSON.stringify(valueAt(content, field.split("."))) === JSON.stringify(valueAt(section, field.split(".")))),
  );
  if (Object.keys(kept).length === Object.keys(inherited).length) return undefined;
  const { inherited: _dropped, ...links } = product.lineage!;
  return Object.keys(kept).length > 0 ? { ...links, inherited: kept } : links;
}

const columnPath = (instancePath: string) => {
  const column = instancePath.split("/")[1] ?? "";
  const path = Object.entries(WRITABLE).find(([, c]) => c === column)?.[0] ?? column;
  return path + instancePath.slice(1 + column.length).replace(/\//g, ".");
};

async function changeStatus(deps: AppDeps, brandId: number, product: ProductRow, to: "active" | "inactive" | "archived") {
  const changed = await deps.db.transaction(async (trx) => {
    if (!(await setDppStatus(trx, product.id, product.dpp_status, to))) return false;
    await recordAudit(trx, brandId, API_ACTOR, { action: "dpp.status_changed", target: product.uid, details: { from: product.dpp_status, to } });
    return true;
  });
  if (!changed) throw new ConflictError("The passport's status changed meanwhile; read it again and retry.");
}

/** DeleteDPPById: erases a passport never published; archives (keeps, read-only) one on chain once off the market. */
export async function deleteDpp(deps: AppDeps, brand: BrandContext, dppId: string, retentionYears: number): Promise<void> {
  const product = await passportById(deps, dppId, brand.id);
  const linked = await linkedPassportCount(deps.db, product.id);
  if (linked > 0) throw new ConflictError(`${linked} passport(s) name this one as their ${product.granularity}; it stays while they do.`);
  if (product.dpp_status === "archived") return;
  if (product.passport_status === null || product.passport_status === "failed") {
    await deps.db.transaction(async (trx) => {
      await deleteUnpublishedProduct(trx, product.id);
      await recordAudit(trx, brand.id, API_ACTOR, { action: "dpp.deleted", target: product.uid, details: { published: false } });
    });
    return;
  }
  if (product.passport_status === "pending") throw new ConflictError("The passport is being anchored on chain; delete it once that is done.");
  if (product.dpp_status === "active") {
    throw new ConflictError(
      `The product may still be on the market, and ESPR keeps its passport available meanwhile: set dppStatus to "inactive" first. ` +
        `A deleted passport is then archived, not erased: it stays readable for ${retentionYears} years.`,
    );
  }
  await changeStatus(deps, brand.id, product, "archived");
}

// ---- elements --------------------------------------------------------------------------------------------------

/** ReadDataElement: a header field by name, or an element of the content section by its dot path. */
export async function readElement(deps: AppDeps, dppId: string, path: string, representation: Representation) {
  const product = await passportById(deps, dppId);
  const content = passportContentFor(product);
  const steps = pathSteps(path);
  if (!steps) throw new BadRequestError(`Element path "${path}" is not a dot-separated path (e.g. product.name).`);
  const versions = await versionsOf(deps.db, product.id);
  const header = dppHeader(deps.config, product, content, lastUpdateOf(product, versions)) as unknown as Record<string, unknown>;
  const inSection = steps[0] === content.schema ? steps.slice(1) : steps;
  const value = steps.length === 1 && Object.hasOwn(header, steps[0]!) ? header[steps[0]!] : valueAt(content, inSection);
  if (value === undefined) throw new NotFoundError(`Element ${path}`);
  const elementId = steps.at(-1)!;
  if (representation === "compressed") return { [elementId]: value };
  return elementOf(inSection.join("."), elementId, value, await translationsFor(deps, product));
}

/** UpdateDataElement: the merge patch that sets the element (merged into an object element, replacing any other). */
export async function updateElement(deps: AppDeps, brand: BrandContext, dppId: string, path: string, value: Json) {
  const product = await passportById(deps, dppId, brand.id);
  const steps = pathSteps(path);
  if (!steps) throw new BadRequestError(`Element path "${path}" is not a dot-separated path (e.g. product.name).`);
  const content = passportContentFor(product);
  const patch = steps.length === 1 && (HEADER_FIELDS as readonly string[]).includes(steps[0]!)
    ? { [steps[0]!]: value }
    : { [content.schema]: patchAt(content as unknown as Json, steps[0] === content.schema ? steps.slice(1) : steps, value) };
  await updateDpp(deps, brand, dppId, patch);
  return readElement(deps, dppId, path, "compressed");
}
