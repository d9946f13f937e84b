// ProductPassport's storage layout, from the compiler: no variable shadows an inherited one by name, and the table
// in docs/contracts.md is the layout the bytecode uses.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import path from "node:path";
import { storageLayout, type StorageSlot } from "../../scripts/storage-layout";

describe("ProductPassport storage layout", function () {
  let layout: StorageSlot[];

  before(function () {
    // From the build info of the compilation that made the bytecode (hardhat.config.ts asks solc for the layout).
    layout = storageLayout("ProductPassport");
  });

  it("declares no variable under a name an inherited contract already uses", function () {
    const declarers = new Map<string, string[]>();
    for (const { name, declaredIn } of layout) declarers.set(name, [...(declarers.get(name) ?? []), declaredIn]);
    const shadowed = [...declarers].filter(([, contracts]) => contracts.length > 1);
    expect(shadowed, "variables declared twice").to.deep.equal([]);
  });

  it("places its own state after OpenZeppelin's, as docs/contracts.md documents it", function () {
    const docs = readFileSync(path.join(__dirname, "..", "..", "docs", "contracts.md"), "utf8");
    const documented = [...docs.matchAll(/^\| (\d+) \| `(\w+)` \|/gm)].map(([, slot, name]) => ({ slot: Number(slot), name }));
    const own = layout.filter((entry) => entry.declaredIn === "ProductPassport");
    expect(documented).to.deep.equal(own.map(({ slot, name }) => ({ slot, name })));
    const inheritedSlots = layout.filter((entry) => entry.declaredIn !== "ProductPassport").map((entry) => entry.slot);
    expect(Math.min(...own.map((entry) => entry.slot))).to.be.greaterThan(Math.max(...inheritedSlots));
  });
});
