// The Bengali web font of the shopper pages: Noto Sans Bengali (SIL OFL 1.1) from @fontsource/noto-sans-bengali,
// served from our own origin under a path that names the package version, so browsers may keep it a year.
import path from "node:path";
import { version as FONT_VERSION } from "@fontsource/noto-sans-bengali/package.json";

export const FONT_PACKAGE_DIR = path.dirname(require.resolve("@fontsource/noto-sans-bengali/package.json"));

/** The URL prefix of the font files; a new package version is a new URL. */
export const FONT_PATH_PREFIX = `/assets/fonts/noto-sans-bengali-${FONT_VERSION}`;

/** The files served (Bengali subset, regular and bold, WOFF2 and WOFF); any other name is a 404. */
export const FONT_FILES: Readonly<Record<string, { file: string; type: string }>> = Object.fromEntries(
  ["400", "700"].flatMap((weight) => [
    [`bengali-${weight}.woff2`, { file: `noto-sans-bengali-bengali-${weight}-normal.woff2`, type: "font/woff2" }],
    [`bengali-${weight}.woff`, { file: `noto-sans-bengali-bengali-${weight}-normal.woff`, type: "font/woff" }],
  ]),
);

/** The Bengali block, the danda, ZWNJ/ZWJ and the dotted circle: what the subset covers and all Bengali text needs. */
export const BENGALI_UNICODE_RANGE = "U+0964-0965,U+0980-09FE,U+200C-200D,U+25CC";

/** @font-face rules of the pages' stylesheet (part of the CSS the Content-Security-Policy hashes). */
export const BENGALI_FONT_FACES = ["400", "700"]
  .map(
    (weight) =>
      `@font-face{font-family:"Noto Sans Bengali";font-style:normal;font-weight:${weight};font-display:swap;` +
      `src:url(${FONT_PATH_PREFIX}/bengali-${weight}.woff2) format("woff2"),url(${FONT_PATH_PREFIX}/bengali-${weight}.woff) format("woff");` +
      `unicode-range:${BENGALI_UNICODE_RANGE}}`,
  )
  .join("\n");
