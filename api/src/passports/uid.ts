// Product UIDs: `<PREFIX>-<CODE>`, the prefix from the brand and a random, unguessable code in Crockford base32.
import { randomBytes } from "node:crypto";

/** `<PREFIX>-<CODE>` as requests may write it: case-insensitive (stored upper case). */
export const UID_PATTERN = "^[A-Za-z0-9]{2,10}-[A-Za-z0-9]{4,32}$";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** 10 characters of base32: 50 random bits, so UIDs cannot be enumerated. */
export const UID_CODE_LENGTH = 10;

export function newUid(prefix: string): string {
  const bytes = randomBytes(UID_CODE_LENGTH);
  let code = "";
  for (const byte of bytes) code += CROCKFORD[byte & 31];
  return `${prefix.toUpperCase()}-${code}`;
}
