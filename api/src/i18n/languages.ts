// Which language a shopper page or certificate is shown in: ?lang=, else the `lang` cookie the page's switch set,
// else Accept-Language, else English. No Koa here: the routes pass the three inputs in.
export const LANGUAGES = ["en", "bn"] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = "en";

/** The cookie the language switch sets (via ?lang=), so the choice sticks from page to page. */
export const LANGUAGE_COOKIE = "lang";
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** Names of each language in itself, as the switch shows them. */
export const LANGUAGE_NAMES: Readonly<Record<Lang, string>> = { en: "English", bn: "বাংলা" };

/**
 * Locales for Intl. Bengali keeps Latin digits (nu-latn): the pages are full of hashes, token ids, UIDs and SKUs in
 * Latin digits, and one kind of digit throughout reads better than two; month and weekday names are Bengali.
 */
export const INTL_LOCALES: Readonly<Record<Lang, string>> = { en: "en-GB", bn: "bn-BD-u-nu-latn" };

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The language of a ?lang= value: one of ours, case-insensitive, else undefined (an unknown value is ignored). */
export function langParam(value: unknown): Lang | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first !== "string" || first.length > 8) return undefined;
  const lower = first.trim().toLowerCase();
  return isLang(lower) ? lower : undefined;
}

/**
 * The best of our languages for an Accept-Language header (RFC 9110 12.5.4): by q-value, then by order; a range
 * matches by its primary subtag ("bn-BD" and "bn-IN" are Bengali, "en-US" English); "*" means any, so English.
 * Undefined when the header names none of ours (then the caller's default applies).
 */
export function fromAcceptLanguage(header: string | undefined): Lang | undefined {
  if (!header) return undefined;
  const ranges = header
    .slice(0, 1000)
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
      return { tag: range.trim().toLowerCase(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((r) => r.tag.length > 0 && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    if (tag === "*") return DEFAULT_LANG;
    const primary = tag.split("-")[0];
    if (isLang(primary)) return primary;
  }
  return undefined;
}

export type LanguageChoice = {
  lang: Lang;
  /** Where the choice came from; "query" means the caller should remember it in the cookie. */
  source: "query" | "cookie" | "accept-language" | "default";
};

/** The order of the brief: an explicit ?lang=, the remembered switch, the browser's preference, English. */
export function chooseLanguage(input: { query?: unknown; cookie?: string | undefined; acceptLanguage?: string | undefined }): LanguageChoice {
  const fromQuery = langParam(input.query);
  if (fromQuery) return { lang: fromQuery, source: "query" };
  const fromCookie = langParam(input.cookie);
  if (fromCookie) return { lang: fromCookie, source: "cookie" };
  const accepted = fromAcceptLanguage(input.acceptLanguage);
  if (accepted) return { lang: accepted, source: "accept-language" };
  return { lang: DEFAULT_LANG, source: "default" };
}

/** "22 November 2026, 09:10 UTC" in English, "22 নভেম্বর, 2026, 09:10 UTC" in Bengali: always UTC, one time for every reader. */
export function formatDateTime(value: Date, lang: Lang): string {
  const locale = INTL_LOCALES[lang];
  const date = new Intl.DateTimeFormat(locale, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(value);
  const time = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" }).format(value);
  return `${date}, ${time} UTC`;
}
