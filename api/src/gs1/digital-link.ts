// GS1 identifiers of a product and its GS1 Digital Link URI (GS1 Digital Link standard 1.2): a GTIN (8, 12, 13 or 14
// digits, stored as GTIN-14) with a valid check digit, an optional lot (AI 10) and serial (AI 21). Shared by the
// resolver, the credential and the QR codes.

export type Gs1Identifiers = { gtin: string; lot?: string | null; serial?: string | null };

/** GS1 check digit of the digits before the last one (mod 10, weights 3 and 1 from the right). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** The GTIN-14 form of a GTIN-8/12/13/14 whose check digit is right; undefined for anything else. */
export function normalizeGtin(input: string): string | undefined {
  if (!/^(?:\d{8}|\d{12}|\d{13}|\d{14})$/.test(input)) return undefined;
  const gtin = input.padStart(14, "0");
  return gs1CheckDigit(gtin.slice(0, 13)) === Number(gtin[13]) ? gtin : undefined;
}

/** `/01/{gtin}[/10/{lot}][/21/{serial}]`, each value percent-encoded as the standard asks. */
export function digitalLinkPath(ids: Gs1Identifiers): string {
  let path = `/01/${ids.gtin}`;
  if (ids.lot) path += `/10/${encodeURIComponent(ids.lot)}`;
  if (ids.serial) path += `/21/${encodeURIComponent(ids.serial)}`;
  return path;
}

/** GS1 General Specifications figure 7.11-1, "AI encodable character set 82": what a lot (AI 10) or serial (AI 21) may hold. */
export const AI_VALUE_PATTERN = /^[!"%&'()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$/;

export function isAiValue(value: string): boolean {
  return AI_VALUE_PATTERN.test(value);
}

/** Why a GTIN is refused, in words a person fixing it can act on; undefined when it is a valid GTIN-8/12/13/14. */
export function gtinProblem(input: string): string | undefined {
  if (!/^\d+$/.test(input)) return "must be digits only";
  if (![8, 12, 13, 14].includes(input.length)) return "must have 8, 12, 13 or 14 digits";
  const expected = gs1CheckDigit(input.slice(0, -1));
  if (expected !== Number(input[input.length - 1])) return `has a wrong check digit (the last digit should be ${expected})`;
  return undefined;
}

/** Why a lot or serial is refused; undefined when it is 1 to 20 characters of GS1's set 82. */
export function aiValueProblem(value: string): string | undefined {
  if (value.length === 0 || value.length > 20) return "must be 1 to 20 characters";
  if (!isAiValue(value)) return "may hold only letters A-Z a-z, digits and ! \" % & ' ( ) * + , - . / : ; < = > ? _ (GS1 character set 82)";
  return undefined;
}

/** The parts of a GS1 Digital Link path this resolver answers: `/01/{gtin}[/10/{lot}][/21/{serial}]`, decoded. */
export type DigitalLinkRequest = { gtin: string; lot?: string; serial?: string };
