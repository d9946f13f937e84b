// ISO 3758 care pictograms as small inline SVG, drawn from the codes of a textile passport (passports/textile.ts):
// washtub, triangle, square, iron and circle, with their temperatures, dots, bars and crosses. Inline, so the page
// needs no image host and the pictograms take the text colour; the words under each are the accessible label.
import type { CARE_SYMBOLS } from "../passports/textile";
import { html, SafeHtml } from "./html";

export type CareSymbol = (typeof CARE_SYMBOLS)[number];

const CROSS = `<path d="M5 5L43 43M43 5L5 43"/>`;
/** One bar under a symbol for a mild process, two for a very mild one. */
const bars = (count: number, y: number) => [`<path d="M9 ${y}H39"/>`, `<path d="M9 ${y + 5}H39"/>`].slice(0, count).join("");
const dots = (count: number, cx: number, cy: number, gap: number) =>
  Array.from({ length: count }, (_, i) => `<circle cx="${cx + (i - (count - 1) / 2) * gap}" cy="${cy}" r="2.2" fill="currentColor" stroke="none"/>`).join("");
const label = (text: string, x: number, y: number, size: number) =>
  `<text x="${x}" y="${y}" text-anchor="middle" font-size="${size}" font-weight="700" font-family="system-ui,sans-serif" fill="currentColor" stroke="none">${text}</text>`;

const TUB = `<path d="M7 15L11 36H37L41 15"/><path d="M5 15q4.75-5 9.5 0t9.5 0t9.5 0t9.5 0"/>`;
const HAND = `<path d="M17 33v-9M20.5 31v-12M24 31v-13M27.5 31v-12M31 31.5l3-6M17 31q1 3 7 3t7-2.5"/>`;
const TRIANGLE = `<path d="M24 6L44 40H4Z"/>`;
const SQUARE = `<path d="M6 6H42V42H6Z"/>`;
const SHADE = `<path d="M6 15L15 6M6 22L22 6"/>`;
const IRON = `<path d="M5 36Q8 20 21 20H42V36Z"/><path d="M20 20V13H38V20"/>`;
const RING = `<circle cx="24" cy="21" r="16"/>`;

function wash(code: string): string {
  if (code === "hand_wash") return TUB + HAND;
  if (code === "do_not_wash") return TUB + CROSS;
  const [, temperature, mildness] = /^wash_(\d+)(?:_(mild|very_mild))?$/.exec(code) ?? [];
  const gentle = mildness === "very_mild" ? 2 : mildness === "mild" ? 1 : 0;
  return TUB + label(temperature ?? "", 24, 31, 13) + bars(gentle, 41);
}

function drying(code: string): string {
  if (code.startsWith("tumble_dry") || code === "do_not_tumble_dry") {
    const circle = `<circle cx="24" cy="24" r="14"/>`;
    if (code === "do_not_tumble_dry") return SQUARE + circle + CROSS;
    return SQUARE + circle + dots(code === "tumble_dry_normal" ? 2 : 1, 24, 24, 8);
  }
  const shade = code.endsWith("_shade") ? SHADE : "";
  const kind = code.replace(/_shade$/, "");
  const lines: Record<string, string> = {
    line_dry: `<path d="M24 11V37"/>`,
    drip_line_dry: `<path d="M20 11V37M28 11V37"/>`,
    dry_flat: `<path d="M11 24H37"/>`,
    drip_dry_flat: `<path d="M11 20H37M11 28H37"/>`,
  };
  return SQUARE + (lines[kind] ?? "") + shade;
}

function ironing(code: string): string {
  if (code === "do_not_iron") return IRON + CROSS;
  return IRON + dots(code === "iron_high" ? 3 : code === "iron_medium" ? 2 : 1, 29, 29, 6);
}

function professional(code: string): string {
  if (code === "do_not_dry_clean" || code === "do_not_wet_clean") return RING + (code === "do_not_wet_clean" ? label("W", 24, 27, 16) : "") + CROSS;
  const letter = code.startsWith("wet_clean") ? "W" : code.startsWith("dry_clean_f") ? "F" : "P";
  const gentle = code.endsWith("_very_mild") ? 2 : code.endsWith("_mild") ? 1 : 0;
  return RING + label(letter, 24, 27, 16) + bars(gentle, 42);
}

/** The pictogram's drawing, by family: wash, bleach, dry, iron, professional cleaning. */
function drawing(code: CareSymbol): string {
  if (code.startsWith("wash_") || code === "hand_wash" || code === "do_not_wash") return wash(code);
  if (code === "bleach_any") return TRIANGLE;
  if (code === "bleach_oxygen_only") return TRIANGLE + `<path d="M17 36L27 19M23 36L33 19"/>`;
  if (code === "do_not_bleach") return TRIANGLE + CROSS;
  if (code.startsWith("iron_") || code === "do_not_iron") return ironing(code);
  if (code.includes("clean")) return professional(code);
  return drying(code);
}

/** One pictogram, hidden from screen readers: the visible text label under it says the same. */
export function careSymbolSvg(code: CareSymbol): SafeHtml {
  // Built from this file's constants and a code the schema allows, never from input text.
  return html`<svg class="care-icon" viewBox="0 0 48 48" width="48" height="48" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${new SafeHtml(drawing(code))}</svg>`;
}
