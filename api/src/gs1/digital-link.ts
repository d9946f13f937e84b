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
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(input)) return undefined;
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
