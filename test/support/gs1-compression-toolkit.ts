// GS1's own Digital Link compression toolkit (test/vendor/gs1-digital-link-compression), loaded in Node: the
// reference our decoder (api/src/gs1/compression.ts) is checked against. It runs in a context of its own, with no
// access to this process.
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";

type Toolkit = {
  compressGS1DigitalLink(uri: string, useShortText: boolean, uriStem: string, uncompressedPrimary: boolean, useOptimisations: boolean, compressOtherKeyValuePairs: boolean): string;
  compressGS1AIarrayToBinary(elements: Record<string, string>, useOptimisations: boolean, otherPairs: Record<string, string>): string;
  binaryEncodingOfGS1AIKey(ai: string): string;
  binaryEncodingOfValue(elements: Record<string, string>, ai: string): string;
  bin2base64(bits: string): string;
  /** GS1's own reading of a compressed link (it drops a lot's or serial's leading zeros: only a cross-check). */
  decompressGS1DigitalLink(uri: string, useShortText: boolean, uriStem: string): string;
  /** The check digit of a key whose last digit is a placeholder: ("01", "09520123000100") is 3. */
  calculateCheckDigit(ai: string, value: string): number;
};

const STEM = "https://example.org";

function load(): Toolkit {
  const source = readFileSync(path.join(__dirname, "..", "vendor", "gs1-digital-link-compression", "GS1DigitalLinkToolkit.js"), "utf8");
  const Toolkit = vm.runInNewContext(`${source}\nGS1DigitalLinkToolkit`, {}) as new () => Toolkit;
  return new Toolkit();
}

export const gs1Toolkit = load();

/**
 * The compressed form GS1's toolkit gives an uncompressed Digital Link path (and query): `/DBFRJxlqTtBy4v2mmmo`, with
 * GS1's optimisations. `compressQuery: false` leaves the pairs that are not AIs in the query, uncompressed.
 */
export function compressWithGs1(pathAndQuery: string, { compressQuery = true } = {}): string {
  const compressed = gs1Toolkit.compressGS1DigitalLink(`${STEM}${pathAndQuery}`, false, STEM, false, true, compressQuery);
  return compressed.slice(STEM.length);
}

/** A compressed segment of the given bits, padded with zeros as GS1's toolkit pads them. */
export function segmentOfBits(bits: string): string {
  return gs1Toolkit.bin2base64(bits);
}
