// Our reader of compressed GS1 Digital Links against GS1's own toolkit: whatever GS1's code compresses (a GTIN, a lot,
// a serial in any alphabet, data attributes, other query pairs) we read back as the very URI it was given; any other
// string is read or refused in words, never with another error.
import { expect } from "chai";
import fc from "fast-check";
import { CompressedDigitalLinkError, compressedSegment, decompressDigitalLink } from "../../api/src/gs1/compression";
import { compressWithGs1, gs1Toolkit } from "../support/gs1-compression-toolkit";

/** GS1's AI encodable character set 82, what a lot or serial may hold. */
const SET_82 = [..."!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"];
const BASE64URL = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"];

const gtin = fc.stringMatching(/^\d{13}$/).map((body) => `${body}${gs1Toolkit.calculateCheckDigit("01", `${body}0`)}`);
/** Values that take each of the compression's alphabets: digits, lower- and upper-case hex, base64url, any of set 82. */
const aiValue = fc.oneof(
  fc.stringMatching(/^\d{1,15}$/),
  fc.stringMatching(/^[0-9a-f]{1,20}$/),
  fc.stringMatching(/^[0-9A-F]{1,20}$/),
  fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(...SET_82), minLength: 1, maxLength: 20 }),
);
/** Query pairs that are not AIs: a name GS1's toolkit does not take for an AI or a short name (gtin, lot…), any printable value. */
const otherPairs = fc.uniqueArray(
  fc.tuple(fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 12 }).map((name) => `q${name}`), fc.string({ unit: fc.constantFrom(...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))), maxLength: 30 })),
  { selector: ([name]) => name, maxLength: 3 },
);

/** Whether GS1's toolkit, reading back its own compressed link, finds the GTIN it was given (its bugs aside). */
function gs1ReadsItsGtin(compressed: string, gtin: string): boolean {
  try {
    return String(gs1Toolkit.decompressGS1DigitalLink(`https://id.gs1.org${compressed}`, false, "https://id.gs1.org")).includes(`/01/${gtin}`);
  } catch {
    return false;
  }
}

describe("Compressed GS1 Digital Links (read against GS1's toolkit)", () => {
  it("reads back every URI GS1's toolkit compresses: GTIN, lot, serial in every alphabet, data attributes and other pairs", () => {
    fc.assert(
      fc.property(gtin, fc.option(aiValue, { nil: undefined }), fc.option(aiValue, { nil: undefined }), fc.option(fc.stringMatching(/^\d{6}$/), { nil: undefined }), otherPairs, (gtin, lot, serial, expiry, pairs) => {
        let path = `/01/${gtin}`;
        if (lot !== undefined) path += `/10/${encodeURIComponent(lot)}`;
        if (serial !== undefined) path += `/21/${encodeURIComponent(serial)}`;
        const query: Array<[string, string]> = [...(expiry !== undefined ? [["17", expiry] as [string, string]] : []), ...pairs];
        const uri = query.length ? `${path}?${query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}` : path;
        const compressed = compressWithGs1(uri);
        // GS1's toolkit writes some short lots and serials ("00", "01") as bits its own decompression cannot read
        // back, or as nothing at all: not a case to read. Whatever GS1's own reader finds the GTIN in, ours must read.
        fc.pre(compressed !== "/" && gs1ReadsItsGtin(compressed, gtin));
        expect(compressedSegment(compressed), compressed).to.equal(compressed.slice(1));
        expect(decompressDigitalLink(compressed.slice(1)), uri).to.deep.equal({ path, query });
      }),
      { numRuns: 500 },
    );
  });

  it("reads the demo Digital Link as GS1's toolkit compresses it, and keeps a serial's leading zeros", () => {
    const shirt = compressWithGs1("/01/09520123000103/21/OXF-0001");
    expect(shirt).to.equal("/DBFRJxlqTtBy4v2mmmo");
    expect(decompressDigitalLink(shirt.slice(1))).to.deep.equal({ path: "/01/09520123000103/21/OXF-0001", query: [] });
    // GS1's own decompression gives "42" here; the length in the bit string says four digits.
    expect(decompressDigitalLink(compressWithGs1("/01/09520123000103/21/0042").slice(1)).path).to.equal("/01/09520123000103/21/0042");
  });

  it("takes only a path of one base64url segment that begins with a GTIN; the app's own paths go on to their routes", () => {
    for (const path of ["/dashboard", "/docs", "/healthz", "/readyz", "/scan/DEMO-7K3M9Q2X", "/01/09520123000103", "/ARFRJxlqT", "/robots.txt", "/Dashboard"]) {
      expect(compressedSegment(path), path).to.equal(undefined);
    }
    expect(compressedSegment("/ARFRJxlqTg/")).to.equal("ARFRJxlqTg");
  });

  it("refuses, in words, whatever is not a whole compressed link, and throws nothing else", () => {
    const refusal = (segment: string) => {
      try {
        decompressDigitalLink(segment);
      } catch (error) {
        if (error instanceof CompressedDigitalLinkError) return error.message;
        throw error;
      }
      return undefined;
    };
    expect(refusal("DBFRJxlqTtBy4v2m")).to.match(/^ends in the middle of/);
    expect(refusal("DBFRJxlqTtBy4v2mmmp")).to.equal("ends with stray bits");
    expect(refusal(compressWithGs1("/01/09520123000103/21/X?240=ABC").slice(1))).to.equal("carries AI 240, which this resolver does not read");
    expect(refusal("A".repeat(2000))).to.match(/longer than/);
    fc.assert(
      fc.property(fc.constantFrom("AR", "DB", "Cx", "GR", "KR"), fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 8, maxLength: 60 }), (start, rest) => {
        const message = refusal(start + rest);
        if (message !== undefined) expect(message).to.be.a("string").and.not.equal("");
      }),
      { numRuns: 2000 },
    );
  });
});
