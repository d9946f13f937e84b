// WCAG 2.x contrast of a brand's colours, so the brand editor can warn before a choice makes its pages hard to read.

/** WCAG AA for normal text (success criterion 1.4.3). */
export const AA_NORMAL_TEXT = 4.5;
/** The text colour the pages put on a brand colour (header bar, buttons, chips). */
export const WHITE = "#FFFFFF";
/** The pages' background (body in pages/layout.ts), on which a brand colour shows as accents and borders. */
export const PAGE_BACKGROUND = "#F3F4F6";

/** WCAG relative luminance of a #RRGGBB colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const channel = parseInt(hex.slice(i, i + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** (L1 + 0.05) / (L2 + 0.05) with L1 the lighter: 1 (same colour) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

export type ColourContrast = {
  /** The lower of the two ratios below, rounded to two decimals: what the warning is about. */
  ratio: number;
  /** Whether both pairings reach 4.5:1. */
  aa: boolean;
  against_white_text: number;
  against_page_background: number;
  /** A sentence for the editor when `aa` is false, else null. */
  warning: string | null;
};

const round = (ratio: number) => Math.floor(ratio * 100) / 100;

/**
 * The colour as the pages use it: under white text (header, buttons) and on the page background (accents). Rounded
 * down, so a ratio shown as 4.5 really reaches 4.5.
 */
export function colourContrast(hex: string): ColourContrast {
  const againstWhite = round(contrastRatio(hex, WHITE));
  const againstBackground = round(contrastRatio(hex, PAGE_BACKGROUND));
  const ratio = Math.min(againstWhite, againstBackground);
  const aa = ratio >= AA_NORMAL_TEXT;
  const weak = againstWhite <= againstBackground ? `white text on ${hex.toUpperCase()}` : `${hex.toUpperCase()} on the page background`;
  return {
    ratio,
    aa,
    against_white_text: againstWhite,
    against_page_background: againstBackground,
    warning: aa ? null : `${weak} has a contrast of ${ratio}:1, below the ${AA_NORMAL_TEXT}:1 WCAG AA asks for normal text.`,
  };
}
