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

/** "60% cotton, 40% polyester": the one-line form of spec 2.5's fiber_composition. */
export function describeComposition(shares: Array<{ fiber: string; percent: number }>): string {
  return shares.map((s) => `${s.percent}% ${s.fiber}`).join(", ");
}
