// The finality rule shared by the public record, the product list, the webhook watcher, the ledger and the mint pump.
import { expect } from "chai";
import fc from "fast-check";
import { confirmationsAt, finalBlockUpTo, isFinal, requiredConfirmations } from "../../api/src/chain/finality";

const block = fc.integer({ min: 0, max: 50_000_000 });
const confirmations = fc.integer({ min: 0, max: 1000 });

describe("chain finality", function () {
  it("counts a block's own inclusion as its first confirmation, so 0 and 1 both mean final in its own block", function () {
    fc.assert(
      fc.property(block, (n) => {
        expect(isFinal(n, n, 0)).to.equal(true);
        expect(isFinal(n, n, 1)).to.equal(true);
        expect(isFinal(n, n, 2)).to.equal(false);
        expect(confirmationsAt(n, n)).to.equal(1);
      }),
    );
    expect(requiredConfirmations(0)).to.equal(1);
    expect(requiredConfirmations(1)).to.equal(1);
    expect(requiredConfirmations(3)).to.equal(3);
  });

  it("needs exactly CONFIRMATIONS blocks: final at head = block + depth - 1, not one block before", function () {
    fc.assert(
      fc.property(block, fc.integer({ min: 1, max: 1000 }), (n, depth) => {
        expect(isFinal(n, n + depth - 1, depth)).to.equal(true);
        expect(isFinal(n, n + depth - 2, depth)).to.equal(false);
      }),
    );
  });

  it("never calls final a block the head has not reached, whatever the depth", function () {
    fc.assert(
      fc.property(block, fc.integer({ min: 1, max: 100 }), confirmations, (n, ahead, depth) => {
        expect(isFinal(n + ahead, n, depth)).to.equal(false);
        expect(confirmationsAt(n + ahead, n)).to.equal(0);
      }),
    );
  });

  it("stays final as the head grows", function () {
    fc.assert(
      fc.property(block, fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }), confirmations, (n, later, more, depth) => {
        fc.pre(isFinal(n, n + later, depth));
        expect(isFinal(n, n + later + more, depth)).to.equal(true);
      }),
    );
  });

  it("agrees with finalBlockUpTo: a block is final exactly when it is at or below the highest final block", function () {
    fc.assert(
      fc.property(block, block, confirmations, (n, head, depth) => {
        expect(isFinal(n, head, depth)).to.equal(n <= finalBlockUpTo(head, depth));
        expect(isFinal(n, head, depth)).to.equal(confirmationsAt(n, head) >= requiredConfirmations(depth));
      }),
    );
  });
});
