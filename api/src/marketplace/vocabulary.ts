// The words RFQ matching understands: the registry's product types with their synonyms, related types, and the
// certification names. Product types are those of scripts/data/factories.json.

export const PRODUCT_TYPES = [
  "t-shirt",
  "polo",
  "shirt",
  "trousers",
  "jeans",
  "denim",
  "dress",
  "jacket",
  "outerwear",
  "workwear",
  "knitwear",
  "sweater",
  "kidswear",
  "sportswear",
  "underwear",
  "socks",
  "scarf",
  "towel",
  "home-textile",
  "fabric",
  "yarn",
] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/**
 * Phrases (lower case, punctuation read as spaces) that name each product type. The matcher prefers the longest
 * phrase, so "polo shirts" is a polo and "dress shirt" a shirt, not a dress.
 */
export const PRODUCT_SYNONYMS: Record<ProductType, string[]> = {
  "t-shirt": ["t shirt", "t shirts", "tshirt", "tshirts", "tee", "tees", "tee shirt", "tee shirts", "crew neck", "crewneck", "crewnecks", "v neck", "v necks", "henley", "henleys"],
  polo: ["polo", "polos", "polo shirt", "polo shirts", "pique polo", "pique polos", "pique polo shirt", "pique polo shirts", "golf shirt", "golf shirts"],
  shirt: ["shirt", "shirts", "button down", "button downs", "button up", "oxford shirt", "oxford shirts", "dress shirt", "dress shirts", "blouse", "blouses", "flannel shirt", "flannel shirts"],
  trousers: ["trousers", "trouser", "pants", "chinos", "chino", "slacks", "cargo pants"],
  jeans: ["jeans", "jean", "five pocket", "5 pocket"],
  denim: ["denim", "denims", "selvedge", "selvage"],
  dress: ["dress", "dresses", "gown", "gowns", "skirt", "skirts", "jumpsuit", "jumpsuits"],
  jacket: ["jacket", "jackets", "blazer", "blazers", "bomber", "bombers"],
  outerwear: ["outerwear", "coat", "coats", "parka", "parkas", "windbreaker", "windbreakers", "puffer", "puffers", "anorak", "anoraks", "raincoat", "raincoats", "gilet", "gilets"],
  workwear: ["workwear", "work wear", "uniform", "uniforms", "coverall", "coveralls", "overalls", "scrubs", "hi vis", "high visibility", "safety wear"],
  knitwear: ["knitwear", "knit", "knits", "knitted", "hoodie", "hoodies", "sweatshirt", "sweatshirts", "fleece"],
  sweater: ["sweater", "sweaters", "jumper", "jumpers", "pullover", "pullovers", "cardigan", "cardigans"],
  kidswear: ["kidswear", "kids wear", "kids", "children", "childrens", "childrenswear", "children s wear", "baby", "babies", "babywear", "infant", "infants", "toddler", "toddlers", "onesie", "onesies"],
  sportswear: ["sportswear", "sports wear", "activewear", "active wear", "athleisure", "leggings", "gym wear", "athletic wear", "jerseys", "tracksuit", "tracksuits", "joggers", "swimwear", "performance wear"],
  underwear: ["underwear", "briefs", "boxers", "boxer shorts", "lingerie", "bra", "bras", "intimates", "innerwear", "undershirt", "undershirts", "panties", "trunks"],
  socks: ["socks", "sock", "hosiery"],
  scarf: ["scarf", "scarves", "shawl", "shawls", "stole", "stoles"],
  towel: ["towel", "towels", "terry towel", "terry towels", "bath towel", "bath towels", "bathrobe", "bathrobes", "washcloth", "washcloths"],
  "home-textile": ["home textile", "home textiles", "bedding", "bed linen", "bed linens", "bedsheet", "bedsheets", "bed sheets", "duvet", "duvets", "duvet cover", "duvet covers", "pillowcase", "pillowcases", "curtain", "curtains", "table linen", "table linens", "cushion cover", "cushion covers"],
  fabric: ["fabric", "fabrics", "cloth", "greige", "yardage", "woven fabric", "knit fabric", "knitted fabric"],
  yarn: ["yarn", "yarns", "spun yarn", "thread", "threads"],
};

/** Plural labels for reasons ("Makes t-shirts and knitwear"). */
export const PRODUCT_LABELS: Record<ProductType, string> = {
  "t-shirt": "t-shirts",
  polo: "polos",
  shirt: "shirts",
  trousers: "trousers",
  jeans: "jeans",
  denim: "denim",
  dress: "dresses",
  jacket: "jackets",
  outerwear: "outerwear",
  workwear: "workwear",
  knitwear: "knitwear",
  sweater: "sweaters",
  kidswear: "kidswear",
  sportswear: "sportswear",
  underwear: "underwear",
  socks: "socks",
  scarf: "scarves",
  towel: "towels",
  "home-textile": "home textiles",
  fabric: "fabric",
  yarn: "yarn",
};

/**
 * Types made on the same kind of lines: a factory making a related type earns part of the product-type points
 * (RELATED_CREDIT), one making none of the asked types or their relatives is not listed.
 */
export const PRODUCT_FAMILIES: ProductType[][] = [
  ["t-shirt", "polo", "knitwear", "sweater"],
  ["shirt", "trousers", "dress"],
  ["denim", "jeans"],
  ["jacket", "outerwear", "workwear"],
  ["underwear", "socks", "sportswear"],
  ["towel", "home-textile"],
  ["fabric", "yarn"],
];
export const RELATED_CREDIT = 0.5;

export function relatedTypes(type: ProductType): ProductType[] {
  return PRODUCT_FAMILIES.filter((family) => family.includes(type)).flatMap((family) => family.filter((t) => t !== type));
}

/** Registry certification codes (the on-chain bit order of IFactoryRegistry) and the phrases that name them. */
export const CERTIFICATION_SYNONYMS: Record<string, string[]> = {
  GOTS: ["gots", "global organic textile standard"],
  "OEKO-TEX": ["oeko tex", "oekotex", "oeko", "oeko tex standard 100", "oeko tex 100", "standard 100"],
  ISO9001: ["iso 9001", "iso9001"],
  GRS: ["grs", "global recycled standard"],
  BCI: ["bci", "better cotton", "better cotton initiative"],
  SA8000: ["sa8000", "sa 8000"],
  bluesign: ["bluesign", "blue sign"],
};

/**
 * Words that suggest a certification without requiring it: "organic cotton" is not a GOTS requirement, but the
 * summary says GOTS can be required explicitly.
 */
export const CERTIFICATION_HINTS: Record<string, string> = { organic: "GOTS", recycled: "GRS" };

/** Lower case, accents removed, every run of other characters one space: the form all phrases are matched in. */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}
