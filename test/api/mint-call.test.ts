// Reading a mint's passports from its transaction's input, as the indexer (indexer/src/mint-call.ts) and the API
// (api/src/chain/mint-call.ts) do now that no log carries a passport's hash: a direct mint or mintBatch call of the
// passport contract decodes; anything else is refused with the transaction named, never guessed. No stack needed.
import { expect } from "chai";
import { ethers } from "ethers";
import { ProductPassport__factory } from "../../typechain-types";
import { mintedHashOf } from "../../api/src/chain/mint-call";
import { mintCallOf } from "../../indexer/src/mint-call";

const passport = ProductPassport__factory.createInterface();
const CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const WALLET = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const TX = `0x${"ab".repeat(32)}` as const;
const ids = [1n, 2n, 3n].map((n) => BigInt(ethers.id(`MINT-CALL-${n}`)));
const hashes = ids.map((tokenId) => ethers.id(`hash ${tokenId}`));
const batchInput = passport.encodeFunctionData("mintBatch", [WALLET, 7n, ids, hashes]) as `0x${string}`;
const mintInput = passport.encodeFunctionData("mint", [WALLET, ids[0]!, 0n, hashes[0]!]) as `0x${string}`;

/** A PassportsMinted as Ponder hands it to the handler. */
const event = (input: `0x${string}`, to: string | null, factoryId: bigint, count: bigint) => ({
  log: { address: CONTRACT as `0x${string}` },
  transaction: { hash: TX, to: to as `0x${string}` | null, input },
  args: { factoryId, count },
});

describe("a mint's passports, read from its call", () => {
  describe("in the indexer", () => {
    it("reads every passport of a mintBatch, in order, and the one of a mint", () => {
      expect(mintCallOf(event(batchInput, CONTRACT.toLowerCase(), 7n, 3n))).to.deep.equal({
        factoryId: 7n,
        passports: ids.map((tokenId, i) => ({ tokenId, dataHash: hashes[i] })),
      });
      expect(mintCallOf(event(mintInput, CONTRACT, 0n, 1n))).to.deep.equal({ factoryId: 0n, passports: [{ tokenId: ids[0], dataHash: hashes[0] }] });
    });

    it("refuses, naming the transaction, a call through another contract, another function, or a call the event contradicts", () => {
      const refusals: Array<[ReturnType<typeof event>, RegExp]> = [
        [event(batchInput, WALLET, 7n, 3n), /not the passport contract; the minter must call it directly/],
        [event(batchInput, null, 7n, 3n), /calls no address/],
        [event(passport.encodeFunctionData("updateDataHash", [ids[0]!, hashes[1]!]) as `0x${string}`, CONTRACT, 7n, 1n), /calls updateDataHash, not mint or mintBatch/],
        [event("0xdeadbeef", CONTRACT, 7n, 3n), /does not decode/],
        [event(batchInput, CONTRACT, 7n, 2n), /mints 3 passport\(s\) for factory 7, the event says 2 for factory 7/],
        [event(batchInput, CONTRACT, 8n, 3n), /the event says 3 for factory 8/],
      ];
      for (const [given, reason] of refusals) {
        expect(() => mintCallOf(given)).to.throw(`PassportsMinted in transaction ${TX} cannot be indexed`);
        expect(() => mintCallOf(given)).to.throw(reason);
      }
    });
  });

  describe("in the API (back-up anchors, the archive's kit does the same)", () => {
    it("finds the token's hash in a mintBatch or a mint", () => {
      expect(mintedHashOf({ hash: TX, to: CONTRACT, data: batchInput }, CONTRACT.toLowerCase(), ids[2]!.toString())).to.equal(hashes[2]);
      expect(mintedHashOf({ hash: TX, to: CONTRACT, data: mintInput }, CONTRACT, ids[0]!.toString())).to.equal(hashes[0]);
    });

    it("refuses a call through another contract, another function, or a call without the token", () => {
      expect(() => mintedHashOf({ hash: TX, to: WALLET, data: batchInput }, CONTRACT, ids[0]!.toString())).to.throw(`mint transaction ${TX}: calls ${WALLET}`);
      expect(() => mintedHashOf({ hash: TX, to: CONTRACT, data: "0xdeadbeef" }, CONTRACT, ids[0]!.toString())).to.throw("not mint or mintBatch");
      expect(() => mintedHashOf({ hash: TX, to: CONTRACT, data: mintInput }, CONTRACT, ids[1]!.toString())).to.throw(`does not mint token ${ids[1]}`);
    });
  });
});
