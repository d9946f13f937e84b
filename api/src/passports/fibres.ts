// Fibre names of Regulation (EU) No 1007/2011, Annex I, in the lower-case English form the passport uses.
export const EU_FIBRE_NAMES = [
  "wool", "alpaca", "llama", "camel", "cashmere", "mohair", "angora", "vicuna", "yak", "guanaco", "cashgora", "beaver",
  "otter", "silk", "cotton", "kapok", "flax", "linen", "hemp", "jute", "abaca", "alfa", "coir", "broom", "ramie", "sisal",
  "sunn", "henequen", "maguey", "acetate", "alginate", "cupro", "modal", "protein", "triacetate", "viscose", "lyocell",
  "acrylic", "chlorofibre", "fluorofibre", "modacrylic", "polyamide", "nylon", "aramid", "polyimide", "polyester",
  "polyethylene", "polypropylene", "polycarbamide", "polyurethane", "vinylal", "trivinyl", "elastodiene", "elastane",
  "glass fibre", "elastomultiester", "elastolefin", "melamine", "polypropylene/polyamide bicomponent", "polyacrylate",
  "polylactide", "other fibres",
] as const;

/** What spec 2.5's fiber_composition string says when no composition was declared or read from fabric_type. */
export const COMPOSITION_NOT_DECLARED = "not declared";

/** "60% cotton, 40% polyester": the one-line form of spec 2.5's fiber_composition; never empty. */
export function describeComposition(shares: Array<{ fiber: string; percent: number }>): string {
  if (shares.length === 0) return COMPOSITION_NOT_DECLARED;
  return shares.map((s) => `${s.percent}% ${s.fiber}`).join(", ");
}

export type FibreName = (typeof EU_FIBRE_NAMES)[number];

/** Trade and common names a brand writes in fabric_type, with the EU name they stand for. */
const FIBRE_SYNONYMS: Readonly<Record<string, FibreName>> = {
  spandex: "elastane",
  lycra: "elastane",
  rayon: "viscose",
  tencel: "lyocell",
  merino: "wool",
  lambswool: "wool",
};

/**
 * Words that describe how a fibre was grown, spun or finished without changing what it is ("organic cotton" is
 * cotton). Anything not listed here, a fibre name or a share makes the composition unknown: "cotton blend", "denim"
 * or "jersey" do not say which fibres in which shares, and a guess would be anchored on chain as a claim.
 */
const FIBRE_QUALIFIERS = new Set([
  "organic", "recycled", "virgin", "pure", "pima", "supima", "egyptian", "combed", "ring", "spun", "ringspun",
  "mercerised", "mercerized", "bci", "mulberry", "bamboo", "extra", "fine", "long", "staple", "and",
]);

/** EU names as word sequences, longest first, so "glass fibre" is one fibre and not "glass" and a stray word. */
const FIBRE_WORDS: ReadonlyArray<{ words: string[]; name: FibreName }> = EU_FIBRE_NAMES.map((name) => ({
  words: name.split(/[^a-z]+/),
  name,
})).sort((a, b) => b.words.length - a.words.length);

/** One token of a fabric_type: a word, or a percentage ("60%", "97.5 %"); separators are skipped. */
const TOKEN = /(\d{1,3}(?:\.\d{1,2})?) ?%|([a-z]+)|[\s,/+&;()-]+/y;

function tokenize(text: string): Array<{ percent: number } | { word: string }> | undefined {
  const tokens: Array<{ percent: number } | { word: string }> = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const match = TOKEN.exec(text);
    // A character no token covers (a bare number, a letter outside a-z): not a composition this reads.
    if (!match) return undefined;
    if (match[1] !== undefined) tokens.push({ percent: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ word: match[2] });
  }
  return tokens;
}

/**
 * The fibre composition a fabric_type names, or undefined when it names none for certain. "cotton" and
 * "organic cotton" are 100% cotton; "60% cotton 40% polyester" and "cotton 60%, polyester 40%" list shares that
 * must sum to 100; two fibres without shares ("cotton-polyester") are unknown. Runs in one pass over at most the
 * 60 characters registration allows.
 */
export function compositionFromFabricType(fabricType: string): Array<{ fiber: FibreName; percent: number }> | undefined {
  const tokens = tokenize(fabricType.trim().toLowerCase());
  if (!tokens) return undefined;
  // Words to fibres (qualifiers dropped), keeping the shares in place.
  const items: Array<{ percent: number } | { fiber: FibreName }> = [];
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i]!;
    if ("percent" in token) {
      items.push(token);
      i += 1;
      continue;
    }
    const fibre = FIBRE_WORDS.find(({ words }) => words.every((word, k) => {
      const at = tokens[i + k];
      return at !== undefined && "word" in at && (at.word === word || (word === "fibre" && at.word === "fiber") || (word === "fibres" && at.word === "fibers"));
    }));
    const named = fibre?.name ?? FIBRE_SYNONYMS[token.word];
    if (named) {
      // "merino wool" names wool once.
      const previous = items[items.length - 1];
      if (!(previous && "fiber" in previous && previous.fiber === named)) items.push({ fiber: named });
      i += fibre?.words.length ?? 1;
    } else if (FIBRE_QUALIFIERS.has(token.word)) {
      i += 1;
    } else {
      return undefined;
    }
  }
  const fibres = items.filter((item): item is { fiber: FibreName } => "fiber" in item);
  const shares = items.filter((item): item is { percent: number } => "percent" in item);
  if (fibres.length === 0) return undefined;
  // One fibre (perhaps named twice, "cotton, organic cotton") and no shares, or "100% cotton".
  if (shares.length === 0) return new Set(fibres.map((f) => f.fiber)).size === 1 ? [{ fiber: fibres[0]!.fiber, percent: 100 }] : undefined;
  // Shares before every fibre ("60% cotton") or after every fibre ("cotton 60%"), alternating.
  if (shares.length !== fibres.length) return undefined;
  const sharesFirst = "percent" in items[0]!;
  const pairs = fibres.map((fibre, n) => {
    const share = items[2 * n + (sharesFirst ? 0 : 1)];
    const named = items[2 * n + (sharesFirst ? 1 : 0)];
    return share && "percent" in share && named === fibre ? { fiber: fibre.fiber, percent: share.percent } : undefined;
  });
  if (pairs.some((pair) => pair === undefined || pair.percent <= 0 || pair.percent > 100)) return undefined;
  // The same fibre twice ("50% organic cotton 50% recycled cotton") is one share of it.
  const merged = new Map<FibreName, number>();
  for (const pair of pairs) merged.set(pair!.fiber, (merged.get(pair!.fiber) ?? 0) + pair!.percent);
  const total = [...merged.values()].reduce((sum, percent) => sum + percent, 0);
  if (Math.abs(total - 100) > 1e-9) return undefined;
  // Largest share first, as Regulation (EU) 1007/2011 labels list them.
  return [...merged].map(([fiber, percent]) => ({ fiber, percent: Math.round(percent * 100) / 100 })).sort((a, b) => b.percent - a.percent);
}
