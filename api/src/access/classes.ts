// Access classes (issue 27; docs/access.md): every element of a passport's content is shown to the public, to readers
// with a legitimate interest (repairers, recyclers, market actors) or to authorities only. Each element's default is
// here with its source; a brand may restrict an element further, never one the law requires to be public. A reader
// of a class sees the elements of that class and below; the rest is absent, and listed in `withheld`.
import type { ErrorDetail } from "../errors";
import { AppError } from "../errors";
import { elementPattern } from "../dpp/elements";

export const ACCESS_CLASSES = ["public", "legitimate-interest", "authority"] as const;
export type AccessClass = (typeof ACCESS_CLASSES)[number];

/** Who reads: a class, or the brand itself reading its own passports (it sees everything, as an authority does). */
export type ReaderClass = AccessClass;

const RANK: Record<AccessClass, number> = { public: 0, "legitimate-interest": 1, authority: 2 };

export const atLeast = (reader: ReaderClass, needed: AccessClass) => RANK[reader] >= RANK[needed];
const narrower = (a: AccessClass, b: AccessClass): AccessClass => (RANK[a] >= RANK[b] ? a : b);

/** An element's default class, why, and whether the law requires it public (then no brand may restrict it). */
export type ElementClass = { class: AccessClass; source: string; legalMinimum?: true };

const ESPR = "ESPR (Regulation (EU) 2024/1781)";
const ID_SOURCE = `${ESPR} Art. 9 and Annex III: the unique product identifier; the registry (Art. 13) and customs (Art. 15) read it`;
const OUR_LABEL = "our default: printed on the label and shown in the shop anyway; withholding it protects nothing";
const STOA_LOCATION = "STOA study PE 757.808: the locations (countries) of making-up, weaving/knitting, dyeing/printing and wet processes are in a first-phase passport";
const STOA_NAMES = "STOA study PE 757.808: supplier names are treated as confidential; an identifier names the supplier as surely as its name";
const CUSTOMER = `${ESPR} Art. 7(2): information for customers on the product's use, maintenance, repair and end of life`;

/**
 * The default class of every element by path pattern (`*` for an array index), each with its source. An element not
 * listed takes the class of its nearest listed ancestor (the whole content is public unless listed otherwise).
 * Nothing here defaults to `authority`: the content holds no compliance documents or test reports yet (the battery
 * passport precedent gives those to authorities alone, and they will be added at that class); a brand may restrict
 * any element that is not a legal minimum to `authority`.
 */
export const ELEMENT_CLASSES: Record<string, ElementClass> = {
  schema: { class: "public", legalMinimum: true, source: "EN 18223: the content specification id; a reader needs it to read the section" },
  uid: { class: "public", legalMinimum: true, source: ID_SOURCE },
  brand: { class: "public", legalMinimum: true, source: `${ESPR} Annex III: the responsible economic operator and the manufacturer are identified in the passport` },
  "brand.slug": { class: "public", legalMinimum: true, source: "as brand" },
  "brand.name": { class: "public", legalMinimum: true, source: "as brand" },
  product: { class: "public", source: OUR_LABEL },
  "product.sku": { class: "public", source: OUR_LABEL },
  "product.name": { class: "public", source: OUR_LABEL },
  "product.description": { class: "public", source: OUR_LABEL },
  "product.category": { class: "public", source: OUR_LABEL },
  "product.fabric_type": { class: "public", source: OUR_LABEL },
  "product.gtin": { class: "public", legalMinimum: true, source: `${ESPR} Annex III: the GTIN (ISO/IEC 15459-6), the product's identifier` },
  "product.lot": { class: "public", legalMinimum: true, source: ID_SOURCE },
  "product.serial": { class: "public", legalMinimum: true, source: ID_SOURCE },
  fiber_composition: { class: "public", legalMinimum: true, source: "Textile Labelling Regulation (EU) 1007/2011: the fibre composition is on every garment's label, for consumers" },
  "fiber_composition.*.fiber": { class: "public", legalMinimum: true, source: "as fiber_composition" },
  "fiber_composition.*.percent": { class: "public", legalMinimum: true, source: "as fiber_composition" },
  certifications: { class: "public", source: "our default: a claim made to buyers must be checkable by them (the Empowering Consumers Directive (EU) 2024/825 bases sustainability labels on certification schemes)" },
  "certifications.*.code": { class: "public", source: "as certifications" },
  "certifications.*.issuer": { class: "public", source: "as certifications" },
  "certifications.*.number": { class: "public", source: "as certifications" },
  "certifications.*.valid_until": { class: "public", source: "as certifications" },
  "certifications.*.evidence_url": { class: "public", source: "as certifications (the certificate itself, not a test report)" },
  manufacturer: {
    class: "public",
    source: "our default: the maker is named on chain (the factory registry and its supply-chain steps, public), and the record shows whether it confirmed making the product; a brand that treats its maker as confidential restricts it",
  },
  "manufacturer.factory_id": { class: "public", source: "as manufacturer" },
  "manufacturer.name": { class: "public", source: "as manufacturer" },
  "manufacturer.city": { class: "public", source: "as manufacturer" },
  "manufacturer.country": { class: "public", source: "as manufacturer" },
  country_of_manufacture: { class: "public", source: STOA_LOCATION },
  carbon: { class: "public", source: `${ESPR} Art. 7(2): the environmental footprint is information for customers` },
  "carbon.kg_co2e": { class: "public", source: "as carbon" },
  "carbon.rating": { class: "public", source: "as carbon" },
  care_instructions: { class: "public", source: CUSTOMER },
  provenance: { class: "public", source: "our default: says only how the public values beside it were filled in" },
  "provenance.fiber_composition": { class: "public", source: "as provenance" },
  "provenance.care_instructions": { class: "public", source: "as provenance" },
  "provenance.country_of_manufacture": { class: "public", source: "as provenance" },
  passport: { class: "public", legalMinimum: true, source: "EN 18223 and Implementing Regulation (EU) 2026/1778: the passport's id, granularity and the model and batch passports an item links to" },
  "passport.id": { class: "public", legalMinimum: true, source: "as passport" },
  "passport.granularity": { class: "public", legalMinimum: true, source: "as passport" },
  "passport.model": { class: "public", legalMinimum: true, source: "as passport" },
  "passport.batch": { class: "public", legalMinimum: true, source: "as passport" },
  "passport.inherited": { class: "public", legalMinimum: true, source: "as passport" },
  textile: { class: "public", source: "our default: the textile section is for customers except where listed below" },
  "textile.production_date": { class: "public", source: "our default (JRC textile DPP study); nothing confidential" },
  "textile.commodity_code": { class: "public", source: `our default: the commodity code is registry data (${ESPR} Art. 13, Annex III) and customs data (Art. 15)` },
  "textile.commodity_code.hs6": { class: "public", source: "as textile.commodity_code" },
  "textile.commodity_code.cn8": { class: "public", source: "as textile.commodity_code" },
  "textile.stages": { class: "public", source: STOA_LOCATION },
  "textile.stages.*.stage": { class: "public", source: STOA_LOCATION },
  "textile.stages.*.facility": { class: "public", source: STOA_LOCATION },
  "textile.stages.*.facility.country": { class: "public", source: STOA_LOCATION },
  "textile.stages.*.facility.name": { class: "legitimate-interest", source: STOA_NAMES },
  "textile.stages.*.facility.id": { class: "legitimate-interest", source: STOA_NAMES },
  "textile.stages.*.started": { class: "public", source: "our default: a stage's dates without its supplier reveal nothing confidential" },
  "textile.stages.*.completed": { class: "public", source: "as textile.stages.*.started" },
  "textile.materials": { class: "public", source: `${ESPR} Art. 7(2): recycled content and material information for customers` },
  "textile.materials.*.fibre": { class: "public", source: "as textile.materials" },
  "textile.materials.*.mass_percent": { class: "public", source: "as textile.materials" },
  "textile.materials.*.origin_country": { class: "public", source: STOA_LOCATION },
  "textile.materials.*.recycled_percent": { class: "public", source: "as textile.materials" },
  "textile.materials.*.recycled_origin": { class: "public", source: "as textile.materials" },
  "textile.materials.*.certification": { class: "public", source: "as certifications" },
  "textile.substances_of_concern": { class: "public", legalMinimum: true, source: `${ESPR} Art. 7(5): the name, concentration and location of substances of concern are made available to customers` },
  "textile.substances_of_concern.*.name": { class: "public", legalMinimum: true, source: "as textile.substances_of_concern" },
  "textile.substances_of_concern.*.cas": { class: "public", legalMinimum: true, source: "as textile.substances_of_concern" },
  "textile.substances_of_concern.*.ec": { class: "public", legalMinimum: true, source: "as textile.substances_of_concern" },
  "textile.substances_of_concern.*.concentration_percent": { class: "public", legalMinimum: true, source: "as textile.substances_of_concern" },
  "textile.substances_of_concern.*.location": { class: "public", legalMinimum: true, source: "as textile.substances_of_concern" },
  "textile.substances_of_concern.*.safe_use": { class: "public", legalMinimum: true, source: "as textile.substances_of_concern (Art. 7(5)(c): safe use)" },
  "textile.durability": {
    class: "public",
    source:
      "ESPR (Regulation (EU) 2024/1781) Art. 7(2)(b): durability is information for customers; the battery passport precedent (Regulation (EU) 2023/1542 Annex XIII) makes a model's performance and durability characteristics public (point 1) and only the test reports restricted, to authorities (point 3)",
  },
  "textile.durability.*.property": { class: "public", source: "as textile.durability" },
  "textile.durability.*.standard": { class: "public", source: "as textile.durability" },
  "textile.durability.*.result": { class: "public", source: "as textile.durability (the result and class, not the test report)" },
  "textile.durability.*.class": { class: "public", source: "as textile.durability" },
  "textile.care": { class: "public", source: CUSTOMER },
  "textile.care.symbols": { class: "public", source: "as textile.care" },
  "textile.care.text": { class: "public", source: "as textile.care" },
  "textile.repair": { class: "public", source: CUSTOMER },
  "textile.repair.instructions": { class: "public", source: "as textile.repair" },
  "textile.repair.spare_parts": { class: "public", source: "as textile.repair" },
  "textile.repair.service_url": { class: "public", source: "as textile.repair" },
  "textile.end_of_life": { class: "public", source: CUSTOMER },
  "textile.end_of_life.recyclability": { class: "public", source: "as textile.end_of_life" },
  "textile.end_of_life.take_back": { class: "public", source: "as textile.end_of_life" },
  "textile.end_of_life.take_back_url": { class: "public", source: "as textile.end_of_life" },
  "textile.images": { class: "public", source: OUR_LABEL },
  "textile.carbon": { class: "public", source: `${ESPR} Art. 7(2): the environmental footprint is information for customers` },
  "textile.carbon.method": { class: "public", source: "as textile.carbon" },
  "textile.carbon.kg_co2e": { class: "public", source: "as textile.carbon" },
  "textile.carbon.study_reference": { class: "public", source: "as textile.carbon" },
};

/** A brand's restrictions: element pattern → the narrower class it is shown to. */
export type Overrides = Readonly<Record<string, AccessClass>>;

export const NO_OVERRIDES: Overrides = Object.freeze({});


/** A table's own entry: element paths come from requests, and `constructor` or `toString` must not find Object's. */
const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/**
 * The class of an element (a concrete path such as `textile.stages.2.facility.name`): the narrowest of its own and
 * its ancestors' classes, defaults and overrides alike, so restricting a section restricts everything in it.
 */
export function classOfPath(path: string, overrides: Overrides): AccessClass {
  const plain = hasNoOverride(overrides);
  const known = plain ? DEFAULT_CLASSES.get(path) : undefined;
  if (known) return known;
  const result = computedClassOf(path, overrides);
  if (plain) {
    if (DEFAULT_CLASSES.size >= MAX_DEFAULT_CLASSES) DEFAULT_CLASSES.clear();
    DEFAULT_CLASSES.set(path, result);
  }
  return result;
}

/**
 * The class of each path met under no override (most brands set none): every public read classifies each element of
 * its passport, and working the class out (its pattern, then each ancestor's entry) cost more than rendering it.
 * Bounded: a path holds list indices, so a passport with long lists brings many.
 */
const DEFAULT_CLASSES = new Map<string, AccessClass>();
const MAX_DEFAULT_CLASSES = 10_000;

function hasNoOverride(overrides: Overrides): boolean {
  for (const key in overrides) if (Object.hasOwn(overrides, key)) return false;
  return true;
}

function computedClassOf(path: string, overrides: Overrides): AccessClass {
  const steps = elementPattern(path).split(".");
  let result: AccessClass = "public";
  for (let i = 1; i <= steps.length; i++) {
    const prefix = steps.slice(0, i).join(".");
    const entry = own(ELEMENT_CLASSES, prefix);
    if (entry) result = narrower(result, entry.class);
    const override = own(overrides, prefix);
    if (override) result = narrower(result, override);
  }
  return result;
}

export type Visible<T> = {
  /** The content with every element above the reader's class left out (absent, not null). */
  content: T;
  /** The paths of the elements left out, outermost only (`textile.durability`, not each of its items), sorted. */
  withheld: string[];
  /** The paths of the non-public elements the reader was shown, outermost only: what the access log records. */
  shown: string[];
};

/**
 * The content as a reader of class `reader` may see it. The content's anchored hash is over the whole of it: when
 * `withheld` is not empty, the content returned no longer hashes to the anchor (docs/access.md says who can check it).
 * When the content itself is withheld (an element read of a restricted `base`), `content` is undefined.
 */
export function visibleContent<T>(content: T, reader: ReaderClass, overrides: Overrides = NO_OVERRIDES, base = ""): Visible<T> {
  const walk: Walk = { reader, overrides, withheld: [], shown: [] };
  // `base`: the path of `content` inside the section when it is one element of it (ReadDataElement).
  const visible = visibleNode(walk, content, base, "public") as T;
  // Sorted: the same answer whatever order the content's keys were stored in (jsonb's, or a version's canonical JSON).
  return { content: visible, withheld: walk.withheld.sort(), shown: walk.shown.sort() };
}

/** What `visibleContent` carries down the content: a plain record, so the walk makes no closure per element. */
type Walk = { reader: ReaderClass; overrides: Overrides; withheld: string[]; shown: string[] };

function visibleNode(walk: Walk, node: unknown, path: string, parentClass: AccessClass): unknown {
  if (path !== "") {
    const cls = classOfPath(path, walk.overrides);
    if (!atLeast(walk.reader, cls)) {
      walk.withheld.push(path);
      return undefined;
    }
    if (cls !== "public" && parentClass === "public") walk.shown.push(path);
    parentClass = cls;
  }
  const prefix = path === "" ? "" : `${path}.`;
  if (Array.isArray(node)) {
    const out: unknown[] = [];
    for (let i = 0; i < node.length; i++) {
      const kept = visibleNode(walk, node[i], prefix + i, parentClass);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  if (typeof node === "object" && node !== null) {
    const out: Record<string, unknown> = {};
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const kept = visibleNode(walk, (node as Record<string, unknown>)[key], prefix + key, parentClass);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return node;
}

/** The element paths `visibleContent` would leave out for `reader`. */
export function withheldElements(content: unknown, reader: ReaderClass, overrides: Overrides = NO_OVERRIDES): string[] {
  return visibleContent(content, reader, overrides).withheld;
}

/** 422 ACCESS_LEGAL_MINIMUM: a brand asked to restrict elements the law requires to be public. */
export class LegalMinimumError extends AppError {
  constructor(elements: string[]) {
    super(
      422,
      "ACCESS_LEGAL_MINIMUM",
      `These elements must stay public by law and cannot be restricted: ${elements.join(", ")} (docs/access.md gives the source of each).`,
      elements.map((element) => ({ field: `overrides.${element}`, problem: `must stay public (${ELEMENT_CLASSES[element]?.source ?? "required public"})` })),
    );
  }
}

/**
 * Checks a brand's overrides: each names an element of the table and a class narrower than its default; none makes
 * an element the law requires public (itself, or by restricting a section holding it) anything but public.
 */
export function checkOverrides(overrides: Record<string, string>): Overrides {
  const problems: ErrorDetail[] = [];
  for (const [element, cls] of Object.entries(overrides)) {
    const entry = own(ELEMENT_CLASSES, element);
    if (!entry) problems.push({ field: `overrides.${element}`, problem: "is not an element of the classification (GET /api/dashboard/access lists them)" });
    else if (cls !== "legitimate-interest" && cls !== "authority") problems.push({ field: `overrides.${element}`, problem: 'must be "legitimate-interest" or "authority"' });
    else if (RANK[cls] <= RANK[entry.class]) problems.push({ field: `overrides.${element}`, problem: `is ${entry.class} by default; a brand may only restrict it further` });
  }
  if (problems.length > 0) throw new AppError(422, "VALIDATION_ERROR", "The overrides name unknown elements or do not restrict them.", problems);
  const checked = overrides as Overrides;
  const blocked = Object.entries(ELEMENT_CLASSES)
    .filter(([pattern, entry]) => entry.legalMinimum && classOfPath(pattern.replace(/\*/g, "0"), checked) !== "public")
    .map(([pattern]) => pattern);
  // Outermost only: restricting `textile` names `textile.substances_of_concern`, not each of its fields too.
  const outermost = blocked.filter((pattern) => !blocked.some((other) => pattern.startsWith(`${other}.`)));
  if (outermost.length > 0) throw new LegalMinimumError(outermost);
  return checked;
}
