// The textile section of a passport (content version 4; issue 26): what the 2027 textiles delegated act is expected
// to ask for, from the JRC textile DPP study and the STOA study PE 757.808: who made each processing stage and where,
// materials with their recycled content and its origin, substances of concern (ESPR Art. 7(5)), durability tested to
// named standards, care as ISO 3758 symbols, repair and end of life, images, production date, commodity code, and
// the carbon figure with its method. Its JSON Schema checks shapes; textileProblems checks what a schema cannot.
import type { ErrorDetail } from "../errors";
import type { SupplyChainStageName } from "../generated/contract-constants";
import { EU_FIBRE_NAMES } from "./fibres";

/** Processing stages of a garment (TRICK / CEN CWA 18291, the JRC study): fibre to making-up. */
export const TEXTILE_STAGES = ["recycling", "fibre", "spinning", "weaving_knitting", "dyeing_printing_finishing", "making_up"] as const;

/** ISO 3758:2023 care symbols, as codes (the standard's pictograms are drawn from these on the pages). */
export const CARE_SYMBOLS = [
  "wash_95", "wash_70", "wash_60", "wash_60_mild", "wash_50", "wash_50_mild", "wash_40", "wash_40_mild", "wash_40_very_mild",
  "wash_30", "wash_30_mild", "wash_30_very_mild", "hand_wash", "do_not_wash",
  "bleach_any", "bleach_oxygen_only", "do_not_bleach",
  "tumble_dry_normal", "tumble_dry_low", "do_not_tumble_dry", "line_dry", "line_dry_shade", "drip_line_dry", "drip_line_dry_shade",
  "dry_flat", "dry_flat_shade", "drip_dry_flat", "drip_dry_flat_shade",
  "iron_high", "iron_medium", "iron_low", "do_not_iron",
  "dry_clean_p", "dry_clean_p_mild", "dry_clean_f", "dry_clean_f_mild", "do_not_dry_clean",
  "wet_clean", "wet_clean_mild", "wet_clean_very_mild", "do_not_wet_clean",
] as const;

export const DURABILITY_PROPERTIES = [
  "pilling", "abrasion", "dimensional_change", "colour_fastness_washing", "colour_fastness_rubbing", "colour_fastness_light",
  "colour_fastness_perspiration", "tensile_strength", "tear_strength", "seam_slippage", "appearance_after_washing",
] as const;

export type TextileStage = (typeof TEXTILE_STAGES)[number];

/**
 * The contract's supply-chain stage (IProductPassport's `@custom:stages`) under which a facility's confirmation of a
 * textile stage is recorded on chain. The contract has no recycling or finishing codes of its own: recycled fibre is
 * fibre sourced, and making-up is sewing.
 */
export const CHAIN_STAGE_OF: Readonly<Record<TextileStage, SupplyChainStageName>> = {
  recycling: "fibre_sourced",
  fibre: "fibre_sourced",
  spinning: "spun",
  weaving_knitting: "woven_or_knitted",
  dyeing_printing_finishing: "dyed_or_printed",
  making_up: "sewn",
};

export type FacilityRef = { name: string; country: string; id?: { scheme: "gln" | "osh" | "registry"; value: string } };

export type TextileStageEntry = { stage: TextileStage; facility: FacilityRef; started?: string; completed?: string };

/**
 * Whether a stage's facility is this registry factory, as proof that lets the factory confirm the stage: only its
 * registry id, the factory's identity on chain, is. A GLN or Open Supply Hub id on a factory is what its own operator
 * typed in (PUT /api/factories/{id}/identifiers): nothing verifies it and two factories may set the same one, so
 * a match on one proves nothing (any operator could copy another facility's GLN and confirm its stage). A facility
 * named without an identifier is no factory's: a name alone could be anyone's.
 */
export function facilityIsFactory(facility: FacilityRef, factoryId: number): boolean {
  const id = facility.id;
  return id?.scheme === "registry" && /^[0-9]+$/.test(id.value) && Number(id.value) === factoryId;
}

export type TextileData = {
  production_date?: string;
  commodity_code?: { hs6?: string; cn8?: string };
  stages?: TextileStageEntry[];
  materials?: Array<{
    fibre: string;
    mass_percent: number;
    origin_country?: string;
    recycled_percent?: number;
    recycled_origin?: "pre_consumer" | "post_consumer";
    certification?: { code: string; number: string };
  }>;
  substances_of_concern?: Array<{ name: string; cas?: string; ec?: string; concentration_percent: number; location: string; safe_use?: string }>;
  durability?: Array<{ property: (typeof DURABILITY_PROPERTIES)[number]; standard: string; result: string; class?: string }>;
  care?: { symbols: Array<(typeof CARE_SYMBOLS)[number]>; text?: string };
  repair?: { instructions?: string; spare_parts?: string[]; service_url?: string };
  end_of_life?: { recyclability?: string; take_back?: string; take_back_url?: string };
  images?: string[];
  carbon?: { method: "pef_study" | "estimate"; kg_co2e: number; study_reference?: string };
};

const text = (maxLength: number) => ({ type: "string", minLength: 1, maxLength }) as const;
const date = { type: "string", format: "date", maxLength: 10 } as const;
const country = { type: "string", pattern: "^[A-Z]{2}$", maxLength: 2 } as const;
const url = { type: "string", format: "uri", pattern: "^https://", maxLength: 500 } as const;
const percent = { type: "number", minimum: 0, maximum: 100 } as const;

/** The section's JSON Schema (the v1 registration, the EN 18222 API and the CSV import check it). */
export const textileSchema = {
  type: "object",
  additionalProperties: false,
  description: "the textile section (content version 4): docs/textile.md",
  properties: {
    production_date: date,
    commodity_code: {
      type: "object",
      additionalProperties: false,
      properties: { hs6: { type: "string", pattern: "^[0-9]{6}$" }, cn8: { type: "string", pattern: "^[0-9]{8}$" } },
    },
    stages: {
      type: "array",
      maxItems: 20,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["stage", "facility"],
        properties: {
          stage: { enum: TEXTILE_STAGES },
          facility: {
            type: "object",
            additionalProperties: false,
            required: ["name", "country"],
            properties: {
              name: text(200),
              country,
              id: {
                type: "object",
                additionalProperties: false,
                required: ["scheme", "value"],
                properties: { scheme: { enum: ["gln", "osh", "registry"] }, value: { type: "string", pattern: "^[A-Z0-9]{1,20}$" } },
              },
            },
          },
          started: date,
          completed: date,
        },
      },
    },
    materials: {
      type: "array",
      maxItems: 10,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["fibre", "mass_percent"],
        properties: {
          fibre: { enum: EU_FIBRE_NAMES, description: "an EU 1007/2011 fibre name" },
          mass_percent: { type: "number", exclusiveMinimum: 0, maximum: 100 },
          origin_country: country,
          recycled_percent: percent,
          recycled_origin: { enum: ["pre_consumer", "post_consumer"] },
          certification: { type: "object", additionalProperties: false, required: ["code", "number"], properties: { code: text(20), number: text(80) } },
        },
      },
    },
    substances_of_concern: {
      type: "array",
      maxItems: 20,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name", "concentration_percent", "location"],
        properties: {
          name: text(200),
          cas: { type: "string", pattern: "^[0-9]{2,7}-[0-9]{2}-[0-9]$" },
          ec: { type: "string", pattern: "^[0-9]{3}-[0-9]{3}-[0-9]$" },
          concentration_percent: percent,
          location: text(200),
          safe_use: text(500),
        },
      },
    },
    durability: {
      type: "array",
      maxItems: 20,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["property", "standard", "result"],
        properties: { property: { enum: DURABILITY_PROPERTIES }, standard: text(60), result: text(120), class: text(20) },
      },
    },
    care: {
      type: "object",
      additionalProperties: false,
      required: ["symbols"],
      properties: { symbols: { type: "array", maxItems: 10, uniqueItems: true, items: { enum: CARE_SYMBOLS } }, text: text(500) },
    },
    repair: {
      type: "object",
      additionalProperties: false,
      properties: { instructions: text(1000), spare_parts: { type: "array", maxItems: 20, items: text(120) }, service_url: url },
    },
    end_of_life: {
      type: "object",
      additionalProperties: false,
      properties: { recyclability: text(500), take_back: text(500), take_back_url: url },
    },
    images: { type: "array", maxItems: 10, items: url },
    carbon: {
      type: "object",
      additionalProperties: false,
      required: ["method", "kg_co2e"],
      properties: {
        method: { enum: ["pef_study", "estimate"] },
        kg_co2e: { type: "number", minimum: 0, maximum: 10_000 },
        study_reference: text(300),
      },
    },
  },
} as const;

/** CAS Registry Number check digit: the digits before it, weighted 1, 2, 3… from the right, sum mod 10. */
export function casValid(cas: string): boolean {
  const digits = cas.replace(/-/g, "");
  const body = digits.slice(0, -1);
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) sum += Number(body[body.length - 1 - i]) * (i + 1);
  return sum % 10 === Number(digits.at(-1));
}

/** EC number check digit: the first six digits weighted 1..6, sum mod 11 (10 is never issued). */
export function ecValid(ec: string): boolean {
  const digits = ec.replace(/-/g, "");
  let sum = 0;
  for (let i = 0; i < 6; i += 1) sum += Number(digits[i]) * (i + 1);
  return sum % 11 === Number(digits[6]);
}

/** What the schema cannot check: sums, check digits, the order of dates, a study's reference. */
export function textileProblems(textile: TextileData | null | undefined, field = "textile"): ErrorDetail[] {
  if (!textile) return [];
  const problems: ErrorDetail[] = [];
  const materials = textile.materials ?? [];
  const total = materials.reduce((sum, m) => sum + m.mass_percent, 0);
  if (materials.length > 0 && Math.abs(total - 100) > 0.01) problems.push({ field: `${field}.materials`, problem: `mass percentages sum to ${Number(total.toFixed(2))}, not 100` });
  materials.forEach((m, i) => {
    if ((m.recycled_percent ?? 0) > 0 && !m.recycled_origin) problems.push({ field: `${field}.materials.${i}.recycled_origin`, problem: "is required when recycled_percent is above 0 (pre_consumer or post_consumer)" });
  });
  (textile.substances_of_concern ?? []).forEach((s, i) => {
    if (s.cas && !casValid(s.cas)) problems.push({ field: `${field}.substances_of_concern.${i}.cas`, problem: `has a wrong check digit (${s.cas})` });
    if (s.ec && !ecValid(s.ec)) problems.push({ field: `${field}.substances_of_concern.${i}.ec`, problem: `has a wrong check digit (${s.ec})` });
  });
  (textile.stages ?? []).forEach((s, i) => {
    if (s.started && s.completed && s.completed < s.started) problems.push({ field: `${field}.stages.${i}.completed`, problem: "is before started" });
  });
  const code = textile.commodity_code;
  if (code?.hs6 && code.cn8 && !code.cn8.startsWith(code.hs6)) problems.push({ field: `${field}.commodity_code.cn8`, problem: `does not start with the HS-6 code ${code.hs6}` });
  if (textile.carbon?.method === "pef_study" && !textile.carbon.study_reference) {
    problems.push({ field: `${field}.carbon.study_reference`, problem: "is required for a PEF study (name the study, its PEFCR and its verifier)" });
  }
  return problems;
}
