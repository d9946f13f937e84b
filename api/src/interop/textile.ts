// The textile section of a passport (content version 4, docs/textile.md) as the UNTP credential and the Catena-X export
// carry it: the names, identifiers and classifications both need, and the section's parts in UNTP's terms.
import type { Config } from "../config";
import type { PassportContent } from "../passports/content";
import type { FacilityRef, TextileData } from "../passports/textile";
import type { PublicRecord } from "../passports/public-record";
import { CERTIFICATION_STANDARDS, conformityTopicOf } from "./certifications";
import { REGISTRY_VOCAB } from "./contexts";

type Json = Record<string, unknown>;
type Stage = NonNullable<TextileData["stages"]>[number];
type Material = NonNullable<TextileData["materials"]>[number];

/** Each processing stage as a value chain process is named in UNTP (its example: "Spinning"). */
export const STAGE_NAMES: Readonly<Record<Stage["stage"], string>> = {
  recycling: "Recycling",
  fibre: "Fibre production",
  spinning: "Spinning",
  weaving_knitting: "Weaving or knitting",
  dyeing_printing_finishing: "Dyeing, printing and finishing",
  making_up: "Making-up",
};

/** The identifier schemes a stage's facility may be named by, as UNTP identifier schemes. */
function facilityScheme(config: Pick<Config, "publicBaseUrl">, scheme: NonNullable<FacilityRef["id"]>["scheme"]) {
  if (scheme === "gln") return { id: "https://id.gs1.org/414/", name: "Global Location Number (GLN)" };
  if (scheme === "osh") return { id: "https://opensupplyhub.org/facilities/", name: "Open Supply Hub ID" };
  return { id: `${config.publicBaseUrl}/api/factory/`, name: "Passport Registry factory registry" };
}

/** The facility's address as a URI: its GS1 Digital Link, its Open Supply Hub page, or its registry reputation page. */
export function facilityUri(config: Pick<Config, "publicBaseUrl">, facility: FacilityRef): string | undefined {
  const id = facility.id;
  if (!id) return undefined;
  if (id.scheme === "gln") return `https://id.gs1.org/414/${id.value}`;
  if (id.scheme === "osh") return `https://opensupplyhub.org/facilities/${id.value}`;
  return `${config.publicBaseUrl}/api/factory/${id.value}/reputation`;
}

/** A facility's confirmation of its stage, as the record shows it (outside the anchored content). */
export type StageConfirmationLike = { tx_hash: string; explorer_url: string; block_number: number; details_hash: string; confirmed_at: string };
type RecordStage = { index: number; attribution?: string; confirmation?: StageConfirmationLike | null };

/** The record's view of each stage (whether its facility confirmed it), by index; empty where the record has none. */
export function stageConfirmations(record: PublicRecord): Map<number, StageConfirmationLike | null> {
  // `textile_stages` is the record's since facilities confirm their stages (issue 26); read loosely, so an older record works.
  const stages = (record as unknown as { textile_stages?: RecordStage[] }).textile_stages ?? [];
  return new Map(stages.map((stage) => [stage.index, stage.confirmation ?? null]));
}

/** The commodity code as classifications: HS-6 (World Customs Organization) and CN-8 (the EU's Combined Nomenclature). */
export function commodityClassifications(code: TextileData["commodity_code"]): Array<{ scheme: "HS" | "CN"; code: string; schemeName: string }> {
  return [
    ...(code?.hs6 ? [{ scheme: "HS" as const, code: code.hs6, schemeName: "Harmonized System (HS), World Customs Organization" }] : []),
    ...(code?.cn8 ? [{ scheme: "CN" as const, code: code.cn8, schemeName: "Combined Nomenclature (CN), Council Regulation (EEC) No 2658/87" }] : []),
  ];
}

/** The EU's TARIC consultation page of a code: the public page that names an HS or CN heading and its measures. */
export function taricUrl(code: string): string {
  return `https://ec.europa.eu/taxation_customs/dds2/taric/measures.jsp?Lang=en&Taric=${code}`;
}

/** The recycled share of the whole garment by mass (0-1), when every material declares its recycled percent. */
export function recycledContent(materials: Material[] | undefined): number | undefined {
  if (!materials?.length || materials.some((m) => m.recycled_percent === undefined)) return undefined;
  return round4(materials.reduce((sum, m) => sum + (m.mass_percent * (m.recycled_percent ?? 0)) / 10_000, 0));
}

export const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** The EN 18222 element a part of the textile section is read at (public, like the record). */
export function elementUrl(config: Pick<Config, "publicBaseUrl">, content: PassportContent, path: string): string | undefined {
  const dppId = content.passport?.id;
  return dppId ? `${config.publicBaseUrl}/api/dpp-lifecycle/v1/dpps/${encodeURIComponent(dppId)}/elements/${path}` : undefined;
}

/**
 * The textile materials as UNTP `materialsProvenance` entries, or undefined when the section lists none. Declared with
 * no substances of concern (an empty list), no fibre is hazardous; declared with some, which fibre holds each is not
 * recorded (a substance names its location as text), so a fibre's `hazardous` is left out rather than guessed.
 */
export function untpFibres(textile: TextileData): Json[] | undefined {
  if (!textile.materials?.length) return undefined;
  const substances = textile.substances_of_concern;
  const fibreHazardous = substances !== undefined && substances.length === 0 ? { hazardous: false } : {};
  return textile.materials.map((m) => ({
    name: m.fibre,
    massFraction: round4(m.mass_percent / 100),
    ...(m.origin_country ? { originCountry: m.origin_country } : {}),
    ...(m.recycled_percent !== undefined ? { recycledMassFraction: round4(m.recycled_percent / 100) } : {}),
    ...(m.recycled_origin ? { recycledOrigin: m.recycled_origin } : {}),
    ...fibreHazardous,
  }));
}

/** Each substance of concern as a hazardous ingredient, its safety information the EN 18222 element that holds it. */
export function untpSubstances(config: Pick<Config, "publicBaseUrl">, content: PassportContent, textile: TextileData): Json[] {
  return (textile.substances_of_concern ?? []).map((s, index) => {
    const url = elementUrl(config, content, `textile.substances_of_concern.${index}`);
    return {
      name: s.name,
      // No massFraction: the fibres' fractions already sum to 1 and the substance is inside them.
      hazardous: true,
      substanceOfConcern: true,
      ...(s.cas ? { casNumber: s.cas } : {}),
      ...(s.ec ? { ecNumber: s.ec } : {}),
      concentrationPercentage: s.concentration_percent,
      substanceLocation: s.location,
      ...(s.safe_use ? { safeUse: s.safe_use } : {}),
      ...(url ? { materialSafetyInformation: { linkURL: url, linkName: `${s.name}: concentration, location and safe use (EN 18222 element)`, linkType: `${REGISTRY_VOCAB}SubstanceOfConcern` } } : {}),
    };
  });
}

/** A processing stage as a UNTP traceability entry: the value chain process, the facility that ran it, its dates. */
export function untpStage(config: Pick<Config, "publicBaseUrl">, stage: Stage, confirmation: StageConfirmationLike | null | undefined): Json {
  const { facility } = stage;
  const uri = facilityUri(config, facility);
  return {
    valueChainProcess: STAGE_NAMES[stage.stage],
    processingStage: stage.stage,
    processingFacility: {
      type: ["Facility"],
      ...(uri ? { id: uri } : {}),
      name: facility.name,
      ...(facility.id ? { registeredId: facility.id.value, idScheme: { type: ["IdentifierScheme"], ...facilityScheme(config, facility.id.scheme) } } : {}),
      countryOfOperation: facility.country,
    },
    ...(stage.started ? { stageStarted: stage.started } : {}),
    ...(stage.completed ? { stageCompleted: stage.completed } : {}),
    // The brand declares every stage (anchored in its content); a facility may confirm its own on chain afterwards.
    confirmedByFacility: Boolean(confirmation),
    ...(confirmation
      ? {
          traceabilityEvent: [
            {
              linkURL: confirmation.explorer_url,
              linkName: `${STAGE_NAMES[stage.stage]} confirmed by ${facility.name}, recorded on chain`,
              linkType: `${REGISTRY_VOCAB}ChainTransaction`,
            },
          ],
          transactionHash: confirmation.tx_hash,
          blockNumber: confirmation.block_number,
          eventTime: confirmation.confirmed_at,
          detailsHash: confirmation.details_hash,
        }
      : {}),
  };
}

/** The circularity scorecard: recycled content, and the repair and end-of-life information the brand gave. */
export function untpCircularity(textile: TextileData): Json | undefined {
  const { repair, end_of_life: end } = textile;
  const recycled = recycledContent(textile.materials);
  const scorecard: Json = {
    ...(recycled !== undefined ? { recycledContent: recycled } : {}),
    ...(repair?.service_url ? { repairInformation: { linkURL: repair.service_url, linkName: "Repair service" } } : {}),
    ...(end?.take_back_url ? { recyclingInformation: { linkURL: end.take_back_url, linkName: "Take-back service" } } : {}),
    ...(repair?.instructions ? { repairInstructions: repair.instructions } : {}),
    ...(repair?.spare_parts?.length ? { spareParts: repair.spare_parts } : {}),
    ...(end?.recyclability ? { recyclability: end.recyclability } : {}),
    ...(end?.take_back ? { takeBack: end.take_back } : {}),
  };
  return Object.keys(scorecard).length > 0 ? scorecard : undefined;
}

/** Durability results and ISO 3758 care symbols: UNTP's `characteristics`, its extension point for a product category. */
export function untpCharacteristics(textile: TextileData): Json | undefined {
  const characteristics: Json = {
    ...(textile.durability?.length
      ? {
          durability: textile.durability.map((d) => ({
            testedProperty: d.property,
            testStandard: d.standard,
            testResult: d.result,
            ...(d.class ? { performanceClass: d.class } : {}),
          })),
        }
      : {}),
    ...(textile.care?.symbols.length ? { careSymbols: textile.care.symbols } : {}),
    ...(textile.care?.text ? { careText: textile.care.text } : {}),
  };
  return Object.keys(characteristics).length > 0 ? characteristics : undefined;
}

/** A material's certification (e.g. GRS for recycled polyester) as a claim the brand declared. */
export function materialClaims(credentialId: string, materials: Material[] | undefined): Json[] {
  return (materials ?? []).flatMap((m, index) => {
    if (!m.certification) return [];
    const { code, number } = m.certification;
    const standard = CERTIFICATION_STANDARDS[code];
    return [
      {
        type: ["Claim", "Declaration"],
        id: `${credentialId}#material-certification-${index + 1}`,
        description: `${code} certificate ${number} for the ${m.fibre} (${m.mass_percent} % of the garment); declared by the brand.`,
        ...(standard ? { referenceStandard: { type: ["Standard"], name: standard.name, issuingParty: standard.body } } : {}),
        conformance: true,
        conformityTopic: conformityTopicOf(code),
      },
    ];
  });
}

/**
 * The brand's PEF study as a claim: its figure is the brand's declaration, and UNTP's emissions scorecard would need
 * its scope and primary-data share, which the passport does not hold.
 */
export function pefClaim(credentialId: string, carbon: TextileData["carbon"]): Json[] {
  if (carbon?.method !== "pef_study") return [];
  return [
    {
      type: ["Claim", "Declaration"],
      id: `${credentialId}#pef-study`,
      description: `Carbon footprint ${carbon.kg_co2e} kg CO2e per item from the brand's Product Environmental Footprint study: ${carbon.study_reference ?? "reference not given"}; declared by the brand.`,
      referenceStandard: {
        type: ["Standard"],
        name: "Product Environmental Footprint (PEF) method, Commission Recommendation (EU) 2021/2279",
        issuingParty: { id: "https://commission.europa.eu", name: "European Commission" },
      },
      declaredValue: [{ metricName: "Climate change, total (carbon footprint)", metricValue: { value: carbon.kg_co2e, unit: "KGM" } }],
      conformance: true,
      conformityTopic: "environment.emissions",
    },
  ];
}
