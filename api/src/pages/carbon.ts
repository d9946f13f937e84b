// Words and colours for the carbon rating letters of spec 2.8, shared by the pages and the badge.
import { carbonRating, type CarbonRating } from "../products/carbon";

/** The qualitative scale of the badge and the scan page: A ≤ 2, B ≤ 5, C ≤ 10, D > 10 kg CO2e. */
export const CARBON_LABELS: Readonly<Record<CarbonRating, string>> = {
  A: "Low impact",
  B: "Moderate",
  C: "High",
  D: "Very high",
};

/** Disc colours, green to red; white text keeps at least 4.5:1 contrast on each. */
export const CARBON_COLORS: Readonly<Record<CarbonRating, string>> = {
  A: "#1A7F37",
  B: "#4D7C0F",
  C: "#B35900",
  D: "#B42318",
};

export function isCarbonRating(value: string): value is CarbonRating {
  return value === "A" || value === "B" || value === "C" || value === "D";
}

/** The stored letter, or the letter of the figure when the stored one is not a rating. */
export function ratingOf(rating: string, kg: number): CarbonRating {
  const letter = rating.trim();
  return isCarbonRating(letter) ? letter : carbonRating(kg);
}

/** "1.59 kg CO2e", always two decimals. */
export function formatKg(kg: number): string {
  return `${kg.toFixed(2)} kg CO2e`;
}
