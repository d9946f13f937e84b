// The textile section (issue 26) in the page's language, shared by the scan page and the certificate PDF: country
// names, the stages in processing order and the recycled share of the whole garment.
import { TEXTILE_STAGES, type TextileData } from "../passports/textile";
import { INTL_LOCALES, type Lang } from "./languages";

export type TextileStageEntry = NonNullable<TextileData["stages"]>[number];

const regionNames = new Map<Lang, Intl.DisplayNames>();

/** "BD" → "Bangladesh" (বাংলাদেশ in Bengali), from the runtime's CLDR data; an unknown code stays the code. */
export function countryName(code: string, lang: Lang): string {
  let names = regionNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([INTL_LOCALES[lang]], { type: "region", fallback: "code" });
    regionNames.set(lang, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The stages from fibre to making-up (TEXTILE_STAGES), stages of one kind in the brand's order; each keeps its index
 * in the section, which a facility's confirmation names.
 */
export function stagesInOrder(stages: readonly TextileStageEntry[]): Array<{ stage: TextileStageEntry; index: number }> {
  const rank = (stage: TextileStageEntry) => TEXTILE_STAGES.indexOf(stage.stage);
  return stages.map((stage, index) => ({ stage, index })).sort((a, b) => rank(a.stage) - rank(b.stage) || a.index - b.index);
}

/**
 * A facility's confirmation of its own stage, as the public record carries it beside the anchored content (the
 * brand's declaration stays the brand's); null while the stage is only declared by the brand.
 */
export type StageAttestation = { confirmed_at: string; explorer_url?: string } | null;

/** The recycled share of the whole garment by weight (each fibre's share × its recycled share), one decimal; null without any. */
export function recycledPercentOfWeight(materials: TextileData["materials"]): string | null {
  const total = (materials ?? []).reduce((sum, m) => sum + (m.mass_percent * (m.recycled_percent ?? 0)) / 100, 0);
  if (total <= 0) return null;
  return Number(total.toFixed(1)).toString();
}
