// The catalogue of a language: what the pages and the PDF read their fixed words from.
import { BN } from "./catalogue.bn";
import { EN, type Messages } from "./catalogue.en";
import type { Lang } from "./languages";

export type { Messages } from "./catalogue.en";

const CATALOGUES: Readonly<Record<Lang, Messages>> = { en: EN, bn: BN };

export function messagesFor(lang: Lang): Messages {
  return CATALOGUES[lang];
}
