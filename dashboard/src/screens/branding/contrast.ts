// WCAG contrast of a brand colour as the shopper pages use it (the API's brands/contrast.ts computes the same for the
// saved colours): under white text, and on the pages' #F3F4F6 background. Computed here to warn while typing.
export const AA_NORMAL_TEXT = 4.5;
const WHITE = "#FFFFFF";
const PAGE_BACKGROUND = "#F3F4F6";
export const HEX = /^#[0-9A-Fa-f]{6}$/;

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const channel = parseInt(hex.slice(i, i + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function ratio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** Rounded down, so a ratio shown as 4.5 really reaches 4.5. */
const floor2 = (value: number) => Math.floor(value * 100) / 100;

export type Contrast = { ratio: number; aa: boolean; warning: string | null };

export function colourContrast(hex: string): Contrast {
  const onWhiteText = floor2(ratio(hex, WHITE));
  const onBackground = floor2(ratio(hex, PAGE_BACKGROUND));
  const lowest = Math.min(onWhiteText, onBackground);
  const aa = lowest >= AA_NORMAL_TEXT;
  const weak = onWhiteText <= onBackground ? `White text on ${hex.toUpperCase()}` : `${hex.toUpperCase()} on the page background`;
  return { ratio: lowest, aa, warning: aa ? null : `${weak} has a contrast of ${lowest}:1, below the ${AA_NORMAL_TEXT}:1 that WCAG AA asks for text.` };
}
