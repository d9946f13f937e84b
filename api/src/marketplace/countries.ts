// Country names for RFQ matching: ISO 3166-1 alpha-2 code → English name, and the names and demonyms buyers write;
// and the ports and cities buyers name instead of a country ("FOB Chittagong", "CIF Hamburg").
// Covers the registry's countries (scripts/data/factories.json), the other main garment-sourcing countries and the
// main buying countries.
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
  NL: { name: "Netherlands", names: ["netherlands", "the netherlands", "holland"], demonyms: ["dutch"] },
  BE: { name: "Belgium", names: ["belgium"], demonyms: ["belgian"] },
  SE: { name: "Sweden", names: ["sweden"], demonyms: ["swedish"] },
  DK: { name: "Denmark", names: ["denmark"], demonyms: ["danish"] },
  NO: { name: "Norway", names: ["norway"], demonyms: ["norwegian"] },
  FI: { name: "Finland", names: ["finland"], demonyms: ["finnish"] },
  IE: { name: "Ireland", names: ["ireland"], demonyms: ["irish"] },
  AT: { name: "Austria", names: ["austria"], demonyms: ["austrian"] },
  CH: { name: "Switzerland", names: ["switzerland"], demonyms: ["swiss"] },
  AE: { name: "United Arab Emirates", names: ["united arab emirates", "uae"], demonyms: ["emirati"] },
  SA: { name: "Saudi Arabia", names: ["saudi arabia", "ksa"], demonyms: ["saudi"] },
  AU: { name: "Australia", names: ["australia"], demonyms: ["australian"] },
  NZ: { name: "New Zealand", names: ["new zealand"], demonyms: [] },
  CA: { name: "Canada", names: ["canada"], demonyms: ["canadian"] },
};

/**
 * Ports, airports and cities buyers name, by country. Only names that are not ordinary English words: a place is
 * read wherever it appears, and what it means (where the goods are made, or where they go) comes from its context.
 */
export const PLACES: Record<string, string[]> = {
  BD: ["chittagong", "chattogram", "ctg", "mongla", "dhaka", "gazipur", "narayanganj", "ashulia", "savar", "tongi", "narsingdi"],
  IN: ["tiruppur", "tirupur", "chennai", "mumbai", "nhava sheva", "mundra", "tuticorin", "kolkata", "bengaluru", "bangalore", "ahmedabad", "ludhiana", "new delhi", "delhi", "noida", "gurgaon", "panipat", "karur"],
  VN: ["ho chi minh", "ho chi minh city", "saigon", "hcmc", "cat lai", "hai phong", "haiphong", "hanoi", "da nang", "bien hoa"],
  TR: ["istanbul", "izmir", "mersin", "denizli", "bursa", "ambarli"],
  PT: ["porto", "leixoes", "lisbon", "lisboa", "guimaraes", "famalicao", "barcelos"],
  PK: ["karachi", "port qasim", "qasim", "faisalabad", "lahore", "sialkot"],
  LK: ["colombo", "biyagama", "katunayake"],
  KH: ["phnom penh", "sihanoukville"],
  MA: ["tangier", "tanger", "tanger med", "casablanca"],
  CN: ["shanghai", "ningbo", "shenzhen", "yantian", "guangzhou", "qingdao", "xiamen", "hong kong"],
  ID: ["jakarta", "tanjung priok", "semarang", "bandung"],
  MM: ["yangon"],
  TH: ["laem chabang", "bangkok"],
  MY: ["port klang", "kuala lumpur"],
  EG: ["alexandria", "port said"],
  DE: ["hamburg", "bremerhaven", "bremen", "berlin", "munich", "frankfurt", "dusseldorf", "cologne"],
  NL: ["rotterdam", "amsterdam"],
  BE: ["antwerp", "antwerpen", "zeebrugge", "brussels"],
  FR: ["le havre", "paris", "marseille", "lyon"],
  IT: ["genoa", "genova", "la spezia", "milan", "milano"],
  ES: ["barcelona", "valencia", "algeciras", "madrid"],
  GB: ["felixstowe", "southampton", "london", "london gateway", "manchester", "liverpool", "leeds", "glasgow", "birmingham"],
  IE: ["dublin"],
  PL: ["gdansk", "gdynia", "warsaw"],
  SE: ["gothenburg", "stockholm", "malmo"],
  DK: ["copenhagen", "aarhus"],
  NO: ["oslo", "bergen"],
  FI: ["helsinki"],
  US: ["los angeles", "long beach", "new york", "newark", "savannah", "seattle", "houston", "oakland", "san francisco", "miami", "chicago", "austin"],
  CA: ["toronto", "vancouver", "montreal", "halifax"],
  AE: ["dubai", "jebel ali", "abu dhabi"],
  SA: ["jeddah", "riyadh", "dammam"],
  AU: ["sydney", "melbourne", "brisbane", "fremantle", "perth"],
  NZ: ["auckland"],
  JP: ["tokyo", "yokohama", "osaka", "kobe"],
  KR: ["busan", "seoul"],
  ZA: ["durban", "cape town"],
  KE: ["mombasa", "nairobi"],
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
