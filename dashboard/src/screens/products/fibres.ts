// Fibre composition written as one line, "cotton:95;elastane:5" (the CSV import's notation), to and from the API's
// list; fibre names are the EU textile regulation's (1007/2011), as the API accepts them.
import { EU_FIBRE_NAMES } from "../../../../api/src/passports/fibres";
import type { CreateProductBody } from "../../api/types";

export type FibreShare = NonNullable<CreateProductBody["fiber_composition"]>[number];
type FibreName = FibreShare["fiber"];

// The API's own list (a plain module with no imports, bundled as it is), so the two cannot differ.
const FIBRE_NAMES = EU_FIBRE_NAMES satisfies readonly FibreName[];

// The list above is the API's whole list: a name the API adds or drops fails the type-check here.
type Missing = Exclude<FibreName, (typeof FIBRE_NAMES)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

function isFibreName(name: string): name is FibreName {
  return (FIBRE_NAMES as readonly string[]).includes(name);
}

export function parseFibres(text: string): { fibres: FibreShare[]; problem?: string } {
  const parts = text.split(";").map((part) => part.trim()).filter(Boolean);
  const fibres: FibreShare[] = [];
  for (const part of parts) {
    const [name, percent] = part.split(":").map((piece) => piece.trim().toLowerCase());
    const value = Number(percent);
    if (!name || !percent || !Number.isFinite(value)) return { fibres, problem: `"${part}" is not fibre:percent` };
    if (!isFibreName(name)) return { fibres, problem: `"${name}" is not an EU fibre name (e.g. cotton, polyester, elastane, viscose)` };
    fibres.push({ fiber: name, percent: value });
  }
  const total = fibres.reduce((sum, share) => sum + share.percent, 0);
  if (fibres.length && Math.abs(total - 100) > 0.01) return { fibres, problem: `the percentages add up to ${total}, not 100` };
  return { fibres };
}

/** The shares as stored (the API describes them only as objects), read defensively. */
export function fibresOf(items: readonly object[]): { fiber: string; percent: number }[] {
  return items.flatMap((item) =>
    "fiber" in item && "percent" in item && typeof item.fiber === "string" && typeof item.percent === "number" ? [{ fiber: item.fiber, percent: item.percent }] : [],
  );
}

export function formatFibres(fibres: readonly { fiber: string; percent: number }[]): string {
  return fibres.map((share) => `${share.fiber}:${share.percent}`).join(";");
}
