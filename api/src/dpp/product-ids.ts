// What ReadDPPByProductId accepts as a product identifier: our UID, a GS1 Digital Link URI (on any host, so the
// id.gs1.org form and a brand's own both work), its path alone, or a GS1 element string `(01)…(21)…`.
import { aiValueProblem, gtinProblem, normalizeGtin } from "../gs1/digital-link";
import { UID_PATTERN } from "../passports/uid";
import type { ProductKey } from "./dpp.repo";

const UID = new RegExp(UID_PATTERN);
const ELEMENT_STRING = /^\(01\)(\d{8,14})(?:\(10\)([^()]{1,20}))?(?:\(21\)([^()]{1,20}))?$/;
const DIGITAL_LINK_PATH = /^.*?\/01\/(\d{8,14})(?:\/10\/([^/]+))?(?:\/21\/([^/]+))?\/?$/;

/** The key a product identifier names, or the reason it names none (for a 400 that says what to send). */
export function productKeyOf(input: string): ProductKey | { problem: string } {
  const value = input.trim();
  if (UID.test(value)) return { uid: value.toUpperCase() };
  let parts = ELEMENT_STRING.exec(value);
  if (!parts) {
    let path = value;
    if (/^https?:\/\//i.test(value)) {
      try {
        path = new URL(value).pathname;
      } catch {
        return { problem: "is not a valid URI" };
      }
    }
    parts = DIGITAL_LINK_PATH.exec(path);
  }
  if (!parts) return { problem: "is not a UID (<PREFIX>-<CODE>), a GS1 Digital Link URI (…/01/{gtin}[/10/{lot}][/21/{serial}]) or a GS1 element string ((01){gtin}(21){serial})" };
  const [, rawGtin, rawLot, rawSerial] = parts;
  const gtin = normalizeGtin(rawGtin!);
  if (!gtin) return { problem: `names GTIN ${rawGtin}, which ${gtinProblem(rawGtin!) ?? "is not valid"}` };
  const lot = rawLot === undefined ? undefined : safeDecode(rawLot);
  const serial = rawSerial === undefined ? undefined : safeDecode(rawSerial);
  for (const [name, part] of [["lot", lot], ["serial", serial]] as const) {
    const problem = part === undefined ? undefined : part === null ? "is not valid percent-encoding" : aiValueProblem(part);
    if (problem) return { problem: `has a ${name} that ${problem}` };
  }
  return { gtin, ...(lot ? { lot } : {}), ...(serial ? { serial } : {}) };
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
