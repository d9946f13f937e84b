// GS1 Global Location Numbers (GS1 General Specifications 4.4.2): 13 digits, the last a check digit computed as a
// GTIN's. Identify a party (an economic operator) or a place (a factory) in the EN 18223 passport header.
import { gs1CheckDigit } from "./digital-link";

export const GLN_PATTERN = /^[0-9]{13}$/;

/** Why `input` is not a GLN, in words a person fixing it can act on; undefined when it is one. */
export function glnProblem(input: string): string | undefined {
  if (!GLN_PATTERN.test(input)) return "must be a GLN of 13 digits";
  const expected = gs1CheckDigit(input.slice(0, 12));
  if (expected !== Number(input[12])) return `is not a valid GLN: the check digit (the last digit) should be ${expected}`;
  return undefined;
}
