// The passport's hashes, computed by the `keccak` package's native add-on, are the ones ethers computes (and the
// contract, Ponder and any auditor with ethers or viem): for ASCII, Bengali, emoji and a large content object.
import { expect } from "chai";
import canonicalize from "canonicalize";
import { keccak256, toUtf8Bytes } from "ethers";
import { dataHashOf, tokenIdOf } from "../../api/src/passports/content";

describe("passport hashes", () => {
  it("are ethers' keccak256 of the canonical JSON, and of the upper-case UID as a decimal token id", () => {
    const contents = [
      {},
      { name: "Organic Cotton Tee", price: 890, fibers: [{ fiber: "cotton", percent: 100 }] },
      { name: "সুতির শাড়ি", description: "হাতে বোনা 🧵 — ঢাকা", care: "ঠান্ডা জলে ধুন" },
      { lines: Array.from({ length: 400 }, (_, i) => ({ i, text: `line ${i} ✓`, nested: { ok: i % 2 === 0, n: i / 7 } })) },
    ];
    for (const content of contents) expect(dataHashOf(content)).to.equal(keccak256(toUtf8Bytes(canonicalize(content)!)));
    for (const uid of ["demo-7k3m9q2x", "BRAND-0000000001", "a"]) expect(tokenIdOf(uid)).to.equal(BigInt(keccak256(toUtf8Bytes(uid.toUpperCase()))).toString());
  });
});
