// The EN 18222 update's JSON Merge Patch against every example of RFC 7396 Appendix A, the element patch built from
// a path, and the product identifiers ReadDPPByProductId accepts. Pure functions: no stack.
import { expect } from "chai";
import { patchAt } from "../../api/src/dpp/elements";
import { applyMergePatch, type Json } from "../../api/src/dpp/merge-patch";
import { productKeyOf } from "../../api/src/dpp/product-ids";

/** RFC 7396 Appendix A: original, patch, result. */
const APPENDIX_A: Array<[Json, Json, Json]> = [
  [{ a: "b" }, { a: "c" }, { a: "c" }],
  [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
  [{ a: "b" }, { a: null }, {}],
  [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
  [{ a: ["b"] }, { a: "c" }, { a: "c" }],
  [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
  [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
  [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
  [["a", "b"], ["c", "d"], ["c", "d"]],
  [{ a: "b" }, ["c"], ["c"]],
  [{ a: "foo" }, null, null],
  [{ a: "foo" }, "bar", "bar"],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: "b", c: null }, { a: "b" }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe("EN 18222 merge patch and product identifiers", () => {
  it("applies every example of RFC 7396 Appendix A", () => {
    for (const [original, patch, result] of APPENDIX_A) {
      expect(applyMergePatch(original, patch), JSON.stringify([original, patch])).to.deep.equal(result);
    }
  });

  it("leaves the original untouched", () => {
    const original: Json = { a: { b: "c" } };
    applyMergePatch(original, { a: { b: null } });
    expect(original).to.deep.equal({ a: { b: "c" } });
  });

  it("builds an element's patch: merged into objects, the whole array replaced with one item changed", () => {
    const section: Json = { product: { name: "Tee", sku: "T-1" }, fiber_composition: [{ fiber: "cotton", percent: 100 }] };
    expect(patchAt(section, ["product", "name"], "Polo")).to.deep.equal({ product: { name: "Polo" } });
    const patch = patchAt(section, ["fiber_composition", "0", "percent"], 95);
    expect(patch).to.deep.equal({ fiber_composition: [{ fiber: "cotton", percent: 95 }] });
    expect(applyMergePatch(section, patch)).to.deep.equal({ product: { name: "Tee", sku: "T-1" }, fiber_composition: [{ fiber: "cotton", percent: 95 }] });
  });

  it("reads a UID, a Digital Link URI or path, and a GS1 element string; says why anything else is refused", () => {
    expect(productKeyOf("demo-4f7k9m2qxa")).to.deep.equal({ uid: "DEMO-4F7K9M2QXA" });
    expect(productKeyOf("https://id.gs1.org/01/4006381333931/10/L%2F1/21/S-1")).to.deep.equal({ gtin: "04006381333931", lot: "L/1", serial: "S-1" });
    expect(productKeyOf("/01/04006381333931/21/S-1/")).to.deep.equal({ gtin: "04006381333931", serial: "S-1" });
    expect(productKeyOf("(01)04006381333931(10)L1(21)S-1")).to.deep.equal({ gtin: "04006381333931", lot: "L1", serial: "S-1" });
    expect(productKeyOf("(01)04006381333932")).to.deep.equal({ problem: "names GTIN 04006381333932, which has a wrong check digit (the last digit should be 1)" });
    expect(productKeyOf("https://id.gs1.org/01/04006381333931/21/%E0%A4%A")).to.have.property("problem").that.matches(/serial that is not valid percent-encoding/);
    expect(productKeyOf("(01)04006381333931(21)bad space")).to.have.property("problem").that.matches(/serial that may hold only/);
    expect(productKeyOf("hello")).to.have.property("problem").that.matches(/is not a UID/);
  });
});
