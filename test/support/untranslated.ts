// Finds interface words left in English on a page shown in another language: the English catalogue's sentences that
// have a translation, and any Latin-script word that is not a proper noun, a code or the brand's own data.
import type { Page } from "playwright-core";
import { EN } from "../../api/src/i18n/catalogue.en";
import { messagesFor } from "../../api/src/i18n/messages";
import type { Lang } from "../../api/src/i18n/languages";

/**
 * Latin-script words a translated page may still show: names of payment services, formats and standards, units,
 * "UTC" after a time, and "English" (the language switch names each language in itself). Anything else in Latin
 * script must come from the page's data (passed to untranslatedWords), or be one capital letter (a carbon rating, °C).
 */
export const ALLOWED_LATIN = new Set([
  "English", "bKash", "Nagad", "SSLCommerz", "QR", "PDF", "UTC", "kg", "CO2e", "UNTP", "JWT", "JSON", "LD", "JSON-LD", "Catena-X", "GS1",
  "NFC", "NTAG", "DNA", "SKU", "UID", "RFC",
]);

/** What a person meets on the page: its title, the rendered text, and the names and descriptions of its images and controls. */
export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
    const texts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll("[alt], [aria-label], [title], [placeholder]")) {
      if (!shown(el) && !el.closest("[aria-label]")) continue;
      for (const name of ["alt", "aria-label", "title", "placeholder"]) {
        const value = el.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts;
  })()`) as Promise<string[]>;
}

type Leaf = { key: string; english: string };

/** The English catalogue's fixed words whose translation differs: whole strings, and the fixed parts of sentences with blanks. */
export function translatedEnglish(lang: Lang): Leaf[] {
  const leaves: Leaf[] = [];
  const sample = ["\u0001", "\u0001", "\u0001", "\u0001"];
  const walk = (english: unknown, other: unknown, key: string) => {
    if (typeof english === "string") {
      if (english !== other) leaves.push({ key, english });
    } else if (typeof english === "function") {
      let filled: unknown;
      try {
        filled = (english as (...args: unknown[]) => unknown)(...sample);
      } catch {
        return;
      }
      if (typeof filled !== "string") return;
      // The fixed fragments between the blanks, when they say something (two words or more).
      for (const fragment of filled.split("\u0001")) {
        // From its first letter to its last letter or full stop.
        const start = fragment.search(/[A-Za-z]/);
        if (start < 0) continue;
        let end = fragment.length;
        while (end > start && !/[A-Za-z.]/.test(fragment[end - 1]!)) end -= 1;
        const words = fragment.slice(start, end);
        if (/[A-Za-z]\s[A-Za-z]/.test(words)) leaves.push({ key, english: words });
      }
    } else if (english && typeof english === "object") {
      for (const [name, value] of Object.entries(english)) walk(value, (other as Record<string, unknown> | undefined)?.[name], `${key}.${name}`);
    }
  };
  walk(EN, messagesFor(lang), "EN");
  return leaves;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The English left on a page: each catalogue string found (as whole words, case-insensitive since CSS may change
 * case), then each Latin-script word that is neither allowed nor part of `data` (the brand's names, the product's
 * UID, the order's id: words the brand wrote or codes). Empty when the page is all in `lang`.
 */
export function untranslatedWords(texts: string[], lang: Lang, data: string[]): string[] {
  let text = texts.join("\n").replace(/\s+/g, " ");
  // The brand's own words and the codes are not the interface's: take them out first, longest first.
  for (const value of [...data].sort((a, b) => b.length - a.length)) if (value) text = text.split(value).join(" ");
  const found = new Set<string>();
  for (const { key, english } of translatedEnglish(lang)) {
    if (!/[A-Za-z]{2}/.test(english)) continue;
    if (ALLOWED_LATIN.has(english)) continue;
    const pattern = new RegExp(`(?<![A-Za-z])${escapeRegExp(english)}(?![A-Za-z])`, "i");
    if (pattern.test(text)) found.add(`${key}: "${english}"`);
  }
  for (const word of text.match(/[A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*/g) ?? []) {
    if (!ALLOWED_LATIN.has(word) && !/^[A-Z]$/.test(word)) found.add(`Latin word: "${word}"`);
  }
  return [...found];
}
