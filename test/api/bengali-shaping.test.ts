// The Bengali shaping cache of the certificate PDF (certificates/bengali-shaping.ts) is bounded: brand-written text
// cannot grow it without end; the least recently used run goes first, and a long run is not kept.
import { expect } from "chai";
import { bengaliFace, SHAPING_CACHE } from "../../api/src/certificates/bengali-shaping";

/** A distinct Bengali run for each n: ক followed by n in Bengali digits (০ to ৯). */
const run = (n: number) => `ক${[...String(n)].map((digit) => String.fromCodePoint(0x09e6 + Number(digit))).join("")}`;

describe("certificates: the Bengali shaping cache", () => {
  it("keeps at most its documented number of runs, dropping the least recently used first", async function () {
    this.timeout(60_000);
    const face = await bengaliFace(700);
    const limit = SHAPING_CACHE.runs;
    const first = face.shape(run(0));
    const kept = face.shape(run(1));
    expect(face.shape(run(0)), "a run shaped again comes from the cache").to.equal(first);
    for (let n = 2; n < limit + 50; n += 1) {
      // run(1) is used all along: it stays while runs around it are evicted.
      if (n % 100 === 0) expect(face.shape(run(1))).to.equal(kept);
      face.shape(run(n));
    }
    expect(face.cachedRuns).to.equal(limit);
    const again = face.shape(run(0));
    expect(again, "the least recently used run was evicted and is shaped anew").not.to.equal(first);
    expect(again).to.deep.equal(first);
    expect(face.shape(run(1)), "a run used recently is still cached").to.equal(kept);
    expect(face.cachedRuns).to.equal(limit);
  });

  it("shapes a run longer than the cache keeps without keeping it", async () => {
    const face = await bengaliFace(700);
    const long = "কি".repeat(SHAPING_CACHE.maxRunLength);
    const glyphs = face.shape(long);
    expect(glyphs.length).to.be.greaterThan(SHAPING_CACHE.maxRunLength);
    expect(face.shape(long)).not.to.equal(glyphs);
    expect(face.shape(long)).to.deep.equal(glyphs);
  });
});
