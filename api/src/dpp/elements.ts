// The data elements of a passport's content section, as EN 18222's `full` representation and its element operations
// name them: an element path is the dot-separated path from the section's root (`product.name`,
// `fiber_composition.0.percent`); each element has a type (SingleValued, MultiValued, DataElementCollection,
// MultiLanguage, RelatedResource), an XSD data type and a dictionary reference (GS1 Web Vocabulary where it has the
// term, our own vocabulary otherwise).
import type { PassportContent } from "../passports/content";
import type { Json } from "./merge-patch";

export type ObjectType = "SingleValued" | "MultiValued" | "DataElementCollection" | "MultiLanguage" | "RelatedResource";

export type DataElement = {
  elementId: string;
  objectType: ObjectType;
  dictionaryReference: string;
  valueDataType?: string;
  value?: unknown;
  elements?: DataElement[];
};

/** The product's name and description in other languages (presentation only, never anchored). */
export type Translations = Partial<Record<string, { name: string; description: string }>>;

const GS1 = "https://gs1.org/voc/";
const VOCAB = "https://w3id.org/passport-registry/vocab#";

/** Dictionary references and data types by path pattern (`*` for an array index). */
const DICTIONARY: Record<string, { ref: string; type?: string; objectType?: ObjectType }> = {
  schema: { ref: `${VOCAB}contentSchema` },
  uid: { ref: `${VOCAB}uid` },
  "product.gtin": { ref: `${GS1}gtin` },
  "product.lot": { ref: `${GS1}hasBatchLotNumber` },
  "product.serial": { ref: `${GS1}hasSerialNumber` },
  "product.name": { ref: `${GS1}productName`, objectType: "MultiLanguage" },
  "product.description": { ref: `${GS1}productDescription`, objectType: "MultiLanguage" },
  "product.sku": { ref: `${GS1}additionalTradeItemIdentification` },
  "product.category": { ref: `${VOCAB}garmentCategory` },
  "product.fabric_type": { ref: `${VOCAB}fabricType` },
  "brand.name": { ref: `${GS1}brandName` },
  fiber_composition: { ref: `${GS1}textileMaterial`, objectType: "DataElementCollection" },
  "fiber_composition.*.fiber": { ref: `${GS1}textileMaterialDescription` },
  "fiber_composition.*.percent": { ref: `${GS1}textileMaterialPercentage`, type: "xsd:decimal" },
  certifications: { ref: `${GS1}certificationInfo`, objectType: "DataElementCollection" },
  "textile.stages": { ref: `${VOCAB}processingStages`, objectType: "DataElementCollection" },
  "textile.materials": { ref: `${VOCAB}materials`, objectType: "DataElementCollection" },
  "textile.substances_of_concern": { ref: `${VOCAB}substancesOfConcern`, objectType: "DataElementCollection" },
  "textile.durability": { ref: `${VOCAB}durability`, objectType: "DataElementCollection" },
  "certifications.*.valid_until": { ref: `${GS1}certificationEndDate`, type: "xsd:date" },
  "certifications.*.evidence_url": { ref: `${GS1}certificationURI`, type: "xsd:anyURI", objectType: "RelatedResource" },
  manufacturer: { ref: `${GS1}manufacturer` },
  country_of_manufacture: { ref: `${GS1}countryOfOrigin` },
  "carbon.kg_co2e": { ref: `${VOCAB}carbonFootprintEstimate`, type: "xsd:decimal" },
  "carbon.rating": { ref: `${VOCAB}carbonRating` },
  care_instructions: { ref: `${VOCAB}careInstructions`, objectType: "MultiLanguage" },
  "textile.production_date": { ref: `${GS1}productionDate`, type: "xsd:date" },
  "textile.commodity_code.hs6": { ref: `${VOCAB}hsCode` },
  "textile.commodity_code.cn8": { ref: `${VOCAB}cnCode` },
  "textile.stages.*.facility.country": { ref: `${GS1}countryCode` },
  "textile.stages.*.started": { ref: `${VOCAB}stageStarted`, type: "xsd:date" },
  "textile.stages.*.completed": { ref: `${VOCAB}stageCompleted`, type: "xsd:date" },
  "textile.materials.*.mass_percent": { ref: `${GS1}textileMaterialPercentage`, type: "xsd:decimal" },
  "textile.materials.*.recycled_percent": { ref: `${VOCAB}recycledContentPercentage`, type: "xsd:decimal" },
  "textile.materials.*.origin_country": { ref: `${GS1}countryOfOrigin` },
  "textile.substances_of_concern.*.cas": { ref: `${VOCAB}casNumber` },
  "textile.substances_of_concern.*.ec": { ref: `${VOCAB}ecNumber` },
  "textile.substances_of_concern.*.concentration_percent": { ref: `${VOCAB}concentrationPercentage`, type: "xsd:decimal" },
  "textile.care.symbols": { ref: `${VOCAB}iso3758CareSymbol` },
  "textile.care.text": { ref: `${VOCAB}careInstructions`, objectType: "MultiLanguage" },
  "textile.repair.service_url": { ref: `${VOCAB}repairService`, type: "xsd:anyURI", objectType: "RelatedResource" },
  "textile.end_of_life.take_back_url": { ref: `${VOCAB}takeBackService`, type: "xsd:anyURI", objectType: "RelatedResource" },
  "textile.images": { ref: `${GS1}image`, type: "xsd:anyURI" },
  "textile.carbon.kg_co2e": { ref: `${VOCAB}carbonFootprint`, type: "xsd:decimal" },
  "textile.carbon.method": { ref: `${VOCAB}carbonFootprintMethod` },
  // The rest of the textile section's leaves (docs/textile.md); the same IRIs as the UNTP credential's terms.
  textile: { ref: `${VOCAB}textile` },
  "textile.commodity_code": { ref: `${VOCAB}commodityCode` },
  "textile.stages.*.stage": { ref: `${VOCAB}processingStage` },
  "textile.stages.*.facility": { ref: `${VOCAB}processingFacility` },
  "textile.stages.*.facility.name": { ref: `${VOCAB}facilityName` },
  "textile.stages.*.facility.id": { ref: `${VOCAB}facilityIdentifier` },
  "textile.stages.*.facility.id.scheme": { ref: `${VOCAB}facilityIdentifierScheme` },
  "textile.stages.*.facility.id.value": { ref: `${VOCAB}facilityIdentifierValue` },
  "textile.materials.*.fibre": { ref: `${GS1}textileMaterialDescription` },
  "textile.materials.*.recycled_origin": { ref: `${VOCAB}recycledOrigin` },
  "textile.materials.*.certification": { ref: `${GS1}certificationInfo` },
  "textile.materials.*.certification.code": { ref: `${GS1}certificationStandard` },
  "textile.materials.*.certification.number": { ref: `${GS1}certificationIdentification` },
  "textile.substances_of_concern.*.name": { ref: `${VOCAB}substanceName` },
  "textile.substances_of_concern.*.location": { ref: `${VOCAB}substanceLocation` },
  "textile.substances_of_concern.*.safe_use": { ref: `${VOCAB}safeUse` },
  "textile.durability.*.property": { ref: `${VOCAB}testedProperty` },
  "textile.durability.*.standard": { ref: `${VOCAB}testStandard` },
  "textile.durability.*.result": { ref: `${VOCAB}testResult` },
  "textile.durability.*.class": { ref: `${VOCAB}performanceClass` },
  "textile.care": { ref: `${VOCAB}care` },
  "textile.repair": { ref: `${VOCAB}repair` },
  "textile.repair.instructions": { ref: `${VOCAB}repairInstructions` },
  "textile.repair.spare_parts": { ref: `${VOCAB}spareParts` },
  "textile.end_of_life": { ref: `${VOCAB}endOfLife` },
  "textile.end_of_life.recyclability": { ref: `${VOCAB}recyclability` },
  "textile.end_of_life.take_back": { ref: `${VOCAB}takeBack` },
  "textile.carbon": { ref: `${VOCAB}textileCarbonFootprint` },
  "textile.carbon.study_reference": { ref: `${VOCAB}carbonFootprintStudy` },
  "passport.id": { ref: `${VOCAB}digitalProductPassportId` },
  "passport.granularity": { ref: `${VOCAB}granularity` },
  "passport.model.id": { ref: `${VOCAB}modelPassport`, type: "xsd:anyURI", objectType: "RelatedResource" },
  "passport.batch.id": { ref: `${VOCAB}batchPassport`, type: "xsd:anyURI", objectType: "RelatedResource" },
};

/** An element path as a pattern: each array index a `*` (`textile.stages.2.facility` is `textile.stages.*.facility`). */
export const elementPattern = (path: string) => path.replace(/(^|\.)\d+(?=\.|$)/g, "$1*");

function dictionaryOf(path: string) {
  return DICTIONARY[elementPattern(path)] ?? { ref: `${VOCAB}${elementPattern(path).replace(/\.\*/g, "")}` };
}

function xsdTypeOf(value: unknown): string {
  if (typeof value === "boolean") return "xsd:boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "xsd:integer" : "xsd:decimal";
  return "xsd:string";
}

/** The element at `path` (from the section's root, or the section's own id) as the full representation lists it. */
export function elementOf(path: string, elementId: string, value: unknown, translations: Translations): DataElement {
  const entry = dictionaryOf(path);
  if (entry.objectType === "MultiLanguage" && (typeof value === "string" || value === null)) {
    const field = path === "product.name" ? "name" : path === "product.description" ? "description" : undefined;
    const others = field ? Object.entries(translations).flatMap(([language, t]) => (t?.[field] ? [{ language, text: t[field] }] : [])) : [];
    return { elementId, objectType: "MultiLanguage", dictionaryReference: entry.ref, valueDataType: "rdf:langString", value: value === null ? [] : [{ language: "en", text: value }, ...others] };
  }
  if (Array.isArray(value)) {
    // A list of objects is a collection even when empty (its dictionary says so), a list of values is MultiValued.
    if (entry.objectType !== "DataElementCollection" && value.every((item) => typeof item !== "object" || item === null)) {
      return { elementId, objectType: "MultiValued", dictionaryReference: entry.ref, valueDataType: entry.type ?? xsdTypeOf(value[0]), value };
    }
    return { elementId, objectType: "DataElementCollection", dictionaryReference: entry.ref, elements: value.map((item, i) => elementOf(`${path}.${i}`, String(i), item, translations)) };
  }
  if (typeof value === "object" && value !== null) {
    return {
      elementId,
      objectType: "DataElementCollection",
      dictionaryReference: entry.ref,
      elements: Object.entries(value).map(([key, item]) => elementOf(path === "" ? key : `${path}.${key}`, key, item, translations)),
    };
  }
  return { elementId, objectType: entry.objectType ?? "SingleValued", dictionaryReference: entry.ref, valueDataType: entry.type ?? xsdTypeOf(value), value };
}

/** The content section as one collection of elements, keyed by its content specification id. */
export function fullElements(content: PassportContent, translations: Translations): DataElement[] {
  const section = elementOf("", content.schema, content, translations);
  return [{ ...section, dictionaryReference: `${VOCAB}${content.schema.replace(/\//g, "-")}` }];
}

/** Splits an element path into its steps; undefined for a malformed one (an empty step). */
export function pathSteps(path: string): string[] | undefined {
  const steps = path.split(".");
  return steps.length > 0 && steps.every((step) => step.length > 0 && step.length <= 64) ? steps : undefined;
}

/** The value at `steps` inside `root`, or undefined when there is none. */
export function valueAt(root: unknown, steps: string[]): unknown {
  let node: unknown = root;
  for (const step of steps) {
    if (Array.isArray(node) && /^\d+$/.test(step)) node = node[Number(step)];
    else if (typeof node === "object" && node !== null && !Array.isArray(node) && Object.hasOwn(node, step)) node = (node as Record<string, unknown>)[step];
    else return undefined;
  }
  return node;
}

/**
 * The merge patch that sets the element at `steps` to `value` (merging when both are objects). A step into an array
 * replaces the whole array with that one item changed, since RFC 7396 replaces arrays whole.
 */
export function patchAt(root: Json, steps: string[], value: Json): Json {
  const [head, ...rest] = steps;
  if (head === undefined) return value;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[Number(head)] = rest.length === 0 ? value : (applyAt(copy[Number(head)] ?? null, rest, value));
    return copy;
  }
  const child = typeof root === "object" && root !== null ? (root as Record<string, Json>)[head] ?? null : null;
  if (Array.isArray(child)) return { [head]: patchAt(child, rest, value) };
  return { [head]: rest.length === 0 ? value : patchAt(child, rest, value) };
}

/** The item of an array with the element at `steps` set to `value` (a full value, not a patch). */
function applyAt(node: Json, steps: string[], value: Json): Json {
  const [head, ...rest] = steps;
  if (head === undefined) return value;
  if (Array.isArray(node)) {
    const copy = [...node];
    copy[Number(head)] = applyAt(copy[Number(head)] ?? null, rest, value);
    return copy;
  }
  const object = typeof node === "object" && node !== null ? { ...node } : {};
  object[head] = applyAt(object[head] ?? null, rest, value);
  return object;
}
