// Country names for RFQ matching: ISO 3166-1 alpha-2 code → English name, and the names and demonyms buyers write.
// Covers the registry's countries (scripts/data/factories.json) and the other main garment-sourcing countries.
import { normalizeText } from "./vocabulary";

type Country = { name: string; names: string[]; demonyms: string[] };

export const COUNTRIES: Record<string, Country> = {
  BD: { name: "Bangladesh", names: ["bangladesh"], demonyms: ["bangladeshi"] },
  IN: { name: "India", names: ["india"], demonyms: ["indian"] },
  VN: { name: "Vietnam", names: ["vietnam", "viet nam"], demonyms: ["vietnamese"] },
  TR: { name: "Türkiye", names: ["turkiye", "turkey"], demonyms: ["turkish"] },
  PT: { name: "Portugal", names: ["portugal"], demonyms: ["portuguese"] },
  PK: { name: "Pakistan", names: ["pakistan"], demonyms: ["pakistani"] },
  LK: { name: "Sri Lanka", names: ["sri lanka"], demonyms: ["sri lankan"] },
  KH: { name: "Cambodia", names: ["cambodia"], demonyms: ["cambodian"] },
  MA: { name: "Morocco", names: ["morocco"], demonyms: ["moroccan"] },
  CN: { name: "China", names: ["china", "prc"], demonyms: ["chinese"] },
  ID: { name: "Indonesia", names: ["indonesia"], demonyms: ["indonesian"] },
  MM: { name: "Myanmar", names: ["myanmar", "burma"], demonyms: ["burmese"] },
  TH: { name: "Thailand", names: ["thailand"], demonyms: ["thai"] },
  MY: { name: "Malaysia", names: ["malaysia"], demonyms: ["malaysian"] },
  PH: { name: "Philippines", names: ["philippines"], demonyms: ["filipino"] },
  NP: { name: "Nepal", names: ["nepal"], demonyms: ["nepalese", "nepali"] },
  LA: { name: "Laos", names: ["laos"], demonyms: ["lao", "laotian"] },
  JO: { name: "Jordan", names: ["jordan"], demonyms: ["jordanian"] },
  UZ: { name: "Uzbekistan", names: ["uzbekistan"], demonyms: ["uzbek"] },
  ET: { name: "Ethiopia", names: ["ethiopia"], demonyms: ["ethiopian"] },
  KE: { name: "Kenya", names: ["kenya"], demonyms: ["kenyan"] },
  EG: { name: "Egypt", names: ["egypt"], demonyms: ["egyptian"] },
  TN: { name: "Tunisia", names: ["tunisia"], demonyms: ["tunisian"] },
  MU: { name: "Mauritius", names: ["mauritius"], demonyms: ["mauritian"] },
  MG: { name: "Madagascar", names: ["madagascar"], demonyms: ["malagasy"] },
  ZA: { name: "South Africa", names: ["south africa"], demonyms: ["south african"] },
  IT: { name: "Italy", names: ["italy"], demonyms: ["italian"] },
  ES: { name: "Spain", names: ["spain"], demonyms: ["spanish"] },
  FR: { name: "France", names: ["france"], demonyms: ["french"] },
  DE: { name: "Germany", names: ["germany"], demonyms: ["german"] },
  GB: { name: "United Kingdom", names: ["united kingdom", "uk", "britain", "great britain", "england"], demonyms: ["british"] },
  PL: { name: "Poland", names: ["poland"], demonyms: ["polish"] },
  RO: { name: "Romania", names: ["romania"], demonyms: ["romanian"] },
  BG: { name: "Bulgaria", names: ["bulgaria"], demonyms: ["bulgarian"] },
  GR: { name: "Greece", names: ["greece"], demonyms: ["greek"] },
  US: { name: "United States", names: ["united states", "usa", "u s a", "america"], demonyms: ["american"] },
  MX: { name: "Mexico", names: ["mexico"], demonyms: ["mexican"] },
  GT: { name: "Guatemala", names: ["guatemala"], demonyms: ["guatemalan"] },
  HN: { name: "Honduras", names: ["honduras"], demonyms: ["honduran"] },
  SV: { name: "El Salvador", names: ["el salvador"], demonyms: ["salvadoran"] },
  PE: { name: "Peru", names: ["peru"], demonyms: ["peruvian"] },
  CO: { name: "Colombia", names: ["colombia"], demonyms: ["colombian"] },
  BR: { name: "Brazil", names: ["brazil"], demonyms: ["brazilian"] },
  JP: { name: "Japan", names: ["japan"], demonyms: ["japanese"] },
  KR: { name: "South Korea", names: ["south korea", "korea"], demonyms: ["korean"] },
  TW: { name: "Taiwan", names: ["taiwan"], demonyms: ["taiwanese"] },
};

/** The English name for a code ("BD" → "Bangladesh"); an unknown code is shown as given. */
export function countryName(code: string): string {
  return COUNTRIES[code.toUpperCase()]?.name ?? code;
}

/** A known ISO2 code for a code or an English name or demonym, else undefined. */
export function countryCode(value: string): string | undefined {
  const trimmed = value.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed) && COUNTRIES[trimmed.toUpperCase()]) return trimmed.toUpperCase();
  const wanted = normalizeText(trimmed);
  for (const [code, country] of Object.entries(COUNTRIES)) {
    if (country.names.includes(wanted) || country.demonyms.includes(wanted)) return code;
  }
  return undefined;
}
