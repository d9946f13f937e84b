// Reads a compressed GS1 Digital Link URI (GS1 Digital Link standard 1.1/1.2, "compression": `/DBFRJxlqTtBy4v2mmmo`)
// back into the GS1 element strings and other key=value pairs it carries, and writes its uncompressed path and query.
//
// The path segment is base64url (A-Z a-z 0-9 - _, six bits a character, zero bits padding the end) of a bit string:
// a run of elements, each either
// - a GS1 Application Identifier as 4-bit digits (2, 3 or 4 of them, by its first two digits) and its value;
// - an optimisation code (two 4-bit hex digits, one of them A-F) naming a fixed run of AIs whose values follow;
// - hex F, a 7-bit key length, the key in base64url characters, and its value: a key=value pair that is not an AI.
// A fixed-length numeric value is a binary number of ceil(n·log2 10) bits. A variable-length numeric value has a
// length first. Any other value has a 3-bit encoding (0 digits as one number, 1 lower-case hex, 2 upper-case hex,
// 3 base64url, 4 7-bit ASCII), its length in characters, then the characters.

/** Why a compressed Digital Link cannot be read, in words for the person holding it (shown after "the path "). */
export class CompressedDigitalLinkError extends Error {}

/** The uncompressed form: the path (`/01/{gtin}[/22/…][/10/…][/21/…]`, values percent-encoded) and the query pairs. */
export type UncompressedDigitalLink = { path: string; query: Array<[string, string]> };

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Longest segment read: a Digital Link in a QR code is far shorter; a longer one is refused before any work. */
const MAX_SEGMENT = 1024;

/** Shortest segment that can hold a GTIN: 8 bits of code and 47 of value, so 10 characters. */
const MIN_SEGMENT = 10;

/**
 * Length of an AI by its first two digits (GS1 General Specifications, the AI prefixes table). A prefix not listed
 * begins no AI.
 */
const AI_LENGTH: Record<string, 2 | 3 | 4> = {
  ...Object.fromEntries(["00", "01", "02", "10", "11", "12", "13", "15", "16", "17", "20", "21", "22", "30", "37"].map((p) => [p, 2] as const)),
  ...Object.fromEntries(["90", "91", "92", "93", "94", "95", "96", "97", "98", "99"].map((p) => [p, 2] as const)),
  ...Object.fromEntries(["23", "24", "25", "40", "41", "42", "71"].map((p) => [p, 3] as const)),
  ...Object.fromEntries(["31", "32", "33", "34", "35", "36", "39", "43", "70", "72", "80", "81", "82"].map((p) => [p, 4] as const)),
};

/** A value's format: fixed-length digits, up to `max` digits, or up to `max` characters of GS1's set 82. */
type Format = { kind: "digits"; length: number } | { kind: "digits-up-to"; max: number } | { kind: "characters-up-to"; max: number };

const DIGITS = (length: number): Format => ({ kind: "digits", length });
const CHARACTERS = (max: number): Format => ({ kind: "characters-up-to", max });

/**
 * The AIs this resolver reads from a compressed link, with their formats (GS1 General Specifications): the GTIN and
 * its key qualifiers, and the data attributes GS1's optimisation codes pair with a GTIN (dates, expiry date and time,
 * count, net weight, company internal information). Any other AI is refused by name: without its format the rest of
 * the bit string cannot be read.
 */
const FORMATS: Record<string, Format> = {
  "01": DIGITS(14),
  "10": CHARACTERS(20),
  "21": CHARACTERS(20),
  "22": CHARACTERS(20),
  "11": DIGITS(6),
  "12": DIGITS(6),
  "13": DIGITS(6),
  "15": DIGITS(6),
  "16": DIGITS(6),
  "17": DIGITS(6),
  "20": DIGITS(2),
  "30": { kind: "digits-up-to", max: 8 },
  "7003": DIGITS(10),
  ...Object.fromEntries(["310", "320"].flatMap((ai) => [0, 1, 2, 3, 4, 5].map((decimals) => [`${ai}${decimals}`, DIGITS(6)]))),
  "90": CHARACTERS(30),
  ...Object.fromEntries(["91", "92", "93", "94", "95", "96", "97", "98", "99"].map((ai) => [ai, CHARACTERS(90)])),
};

/**
 * GS1's optimisation codes that begin with a GTIN and whose AIs this resolver reads: each stands for its run of AIs
 * (GS1 Digital Link standard). Codes A0-A9 (GTIN and an amount payable, 392n) are left out: a link with one is not
 * taken, as one of another primary key is not.
 */
const OPTIMISATIONS: Record<string, string[]> = {
  "0A": ["01", "22"],
  "0B": ["01", "10"],
  "0C": ["01", "21"],
  "0D": ["01", "17"],
  "0E": ["01", "7003"],
  "0F": ["01", "30"],
  "1A": ["01", "10", "21", "17"],
  "1B": ["01", "15"],
  "1C": ["01", "11"],
  "1D": ["01", "16"],
  "1E": ["01", "91"],
  "1F": ["01", "10", "15"],
  ...Object.fromEntries([0, 1, 2, 3, 4, 5].flatMap((decimals) => [[`2${"ABCDEF"[decimals]}`, ["01", `310${decimals}`]], [`3${"ABCDEF"[decimals]}`, ["01", `320${decimals}`]]])),
};

/** The key qualifiers of a GTIN, in the order the path gives them (GS1 Digital Link standard). */
const GTIN_QUALIFIERS = ["22", "10", "21"];

const HEX = "0123456789ABCDEF";

/** 7-bit key and value lengths of a key=value pair that is not an AI. */
const PAIR_LENGTH_BITS = 7;

/**
 * Whether a path is a compressed Digital Link of a GTIN: one segment of base64url, long enough for a GTIN, whose first
 * byte is AI 01 or an optimisation code beginning with it. Anything else (the app's own pages, another key's link)
 * is not taken, and goes on to the routes as before.
 */
export function compressedSegment(path: string): string | undefined {
  const match = /^\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (!match || match[1]!.length < MIN_SEGMENT) return undefined;
  const segment = match[1]!;
  const firstByte = (BASE64URL.indexOf(segment[0]!) << 2) | (BASE64URL.indexOf(segment[1]!) >> 4);
  const code = HEX[firstByte >> 4]! + HEX[firstByte & 15]!;
  return code === "01" || OPTIMISATIONS[code] ? segment : undefined;
}

/** The uncompressed path and query of a compressed Digital Link segment; throws CompressedDigitalLinkError. */
export function decompressDigitalLink(segment: string): UncompressedDigitalLink {
  const { elements, pairs } = readElements(segment);
  const gtin = elements.get("01");
  if (gtin === undefined) throw new CompressedDigitalLinkError("holds no GTIN (AI 01)");
  let path = `/01/${gtin}`;
  for (const ai of GTIN_QUALIFIERS) {
    const value = elements.get(ai);
    if (value !== undefined) path += `/${ai}/${encodeURIComponent(value)}`;
  }
  // Data attributes go in the query, by AI in ascending order, then the other pairs as they were compressed.
  const attributes = [...elements].filter(([ai]) => ai !== "01" && !GTIN_QUALIFIERS.includes(ai)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { path, query: [...attributes, ...pairs] };
}

/** The AIs (by AI) and the other key=value pairs (in order) a segment encodes. */
function readElements(segment: string): { elements: Map<string, string>; pairs: Array<[string, string]> } {
  if (segment.length > MAX_SEGMENT) throw new CompressedDigitalLinkError(`is longer than ${MAX_SEGMENT} characters`);
  const bits = new BitReader(segment);
  const elements = new Map<string, string>();
  const pairs: Array<[string, string]> = [];
  const add = (ai: string, value: string) => {
    if (elements.has(ai)) throw new CompressedDigitalLinkError(`gives AI ${ai} twice`);
    elements.set(ai, value);
  };
  // Fewer than six bits left is the padding of the last character; six or more must be another element.
  while (bits.remaining >= 6) {
    const first = bits.readNumber(4, "an AI");
    const second = bits.readNumber(4, "an AI");
    const code = HEX[first]! + HEX[second]!;
    if (first <= 9 && second <= 9) {
      const length = AI_LENGTH[code];
      if (length === undefined) throw new CompressedDigitalLinkError(`names no GS1 Application Identifier (${code}…)`);
      let ai = code;
      for (let i = 2; i < length; i++) {
        const digit = bits.readNumber(4, "an AI");
        if (digit > 9) throw new CompressedDigitalLinkError(`names no GS1 Application Identifier (${ai}${HEX[digit]}…)`);
        ai += String(digit);
      }
      add(ai, readValue(bits, ai));
    } else if (OPTIMISATIONS[code]) {
      for (const ai of OPTIMISATIONS[code]) add(ai, readValue(bits, ai));
    } else if (first === 15) {
      // Hex F: the second hex digit is the top of the 7-bit key length.
      const keyLength = (second << 3) | bits.readNumber(3, "a parameter's name");
      if (keyLength === 0) throw new CompressedDigitalLinkError("has a parameter with an empty name");
      let key = "";
      for (let i = 0; i < keyLength; i++) key += BASE64URL[bits.readNumber(6, "a parameter's name")];
      pairs.push([key, readCharacters(bits, `the parameter ${key}`, PAIR_LENGTH_BITS, 2 ** PAIR_LENGTH_BITS - 1)]);
    } else {
      throw new CompressedDigitalLinkError(`uses an optimisation code (${code}) this resolver does not read`);
    }
  }
  if (bits.readNumber(bits.remaining, "padding") !== 0) throw new CompressedDigitalLinkError("ends with stray bits");
  return { elements, pairs };
}

function readValue(bits: BitReader, ai: string): string {
  const format = FORMATS[ai];
  if (!format) throw new CompressedDigitalLinkError(`carries AI ${ai}, which this resolver does not read`);
  const name = `AI ${ai}`;
  if (format.kind === "digits") return readDigits(bits, name, format.length);
  if (format.kind === "characters-up-to") return readCharacters(bits, name, lengthBits(format.max), format.max);
  const length = bits.readNumber(lengthBits(format.max), `the length of ${name}`);
  if (length > format.max) throw new CompressedDigitalLinkError(`gives ${name} ${length} digits, more than its ${format.max}`);
  return readDigits(bits, name, length);
}

/** `count` digits as one binary number, zeros kept in front ("0042" is 42 in 14 bits). */
function readDigits(bits: BitReader, name: string, count: number): string {
  if (count === 0) return "";
  const digits = bits.readBigInt(digitBits(count), `the value of ${name}`).toString();
  if (digits.length > count) throw new CompressedDigitalLinkError(`gives ${name} a value of more than ${count} digits`);
  return digits.padStart(count, "0");
}

/** Characters: a 3-bit encoding, the length in `lengthWidth` bits, then the characters in that encoding. */
function readCharacters(bits: BitReader, name: string, lengthWidth: number, max: number): string {
  const encoding = bits.readNumber(3, `the encoding of ${name}`);
  const length = bits.readNumber(lengthWidth, `the length of ${name}`);
  if (length > max) throw new CompressedDigitalLinkError(`gives ${name} ${length} characters, more than its ${max}`);
  switch (encoding) {
    case 0:
      return readDigits(bits, name, length);
    case 1:
      return readAlphabet(bits, name, length, 4, HEX).toLowerCase();
    case 2:
      return readAlphabet(bits, name, length, 4, HEX);
    case 3:
      return readAlphabet(bits, name, length, 6, BASE64URL);
    case 4:
      return String.fromCharCode(...Array.from({ length }, () => bits.readNumber(7, `the value of ${name}`)));
    default:
      throw new CompressedDigitalLinkError(`gives ${name} an unknown encoding (${encoding})`);
  }
}

function readAlphabet(bits: BitReader, name: string, length: number, width: number, alphabet: string): string {
  let value = "";
  for (let i = 0; i < length; i++) value += alphabet[bits.readNumber(width, `the value of ${name}`)];
  return value;
}

/** Bits of a number of `digits` decimal digits: ceil(digits · log2 10), as the standard computes it. */
function digitBits(digits: number): number {
  return Math.ceil(digits * Math.log2(10) + 0.01);
}

/** Bits of a length up to `max`, as the standard computes it (5 for 20 or 30, 7 for 90). */
function lengthBits(max: number): number {
  return Math.ceil(Math.log2(max) + 0.01);
}

/** Reads a base64url string as bits, most significant first. */
class BitReader {
  private readonly bits: string;
  private cursor = 0;

  constructor(segment: string) {
    let bits = "";
    for (const char of segment) bits += BASE64URL.indexOf(char).toString(2).padStart(6, "0");
    this.bits = bits;
  }

  get remaining(): number {
    return this.bits.length - this.cursor;
  }

  readNumber(width: number, what: string): number {
    return Number(this.readBigInt(width, what));
  }

  readBigInt(width: number, what: string): bigint {
    if (width > this.remaining) throw new CompressedDigitalLinkError(`ends in the middle of ${what}`);
    const chunk = this.bits.slice(this.cursor, this.cursor + width);
    this.cursor += width;
    return width === 0 ? 0n : BigInt(`0b${chunk}`);
  }
}
