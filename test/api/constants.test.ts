// The code lists the service still declares by hand equal the ones generated from the contracts' NatSpec
// (api/src/generated/contract-constants.ts, checked against the deployed contracts in test/contracts/). Once every
// place imports the generated module, the comparisons here that have become identities can go.
import { expect } from "chai";
import * as generated from "../../api/src/generated/contract-constants";
import { CERTIFICATION_CODES } from "../../api/src/factories/reputation";
import { CERTIFICATION_SYNONYMS } from "../../api/src/marketplace/vocabulary";
import { STAGES } from "../../api/src/passports/stages";
import { CERTIFICATION_BITS } from "../../scripts/lib/seed";

describe("contract code lists", function () {
  it("names the certification bits as FactoryRegistry does, wherever the service lists them", function () {
    const codes = [...generated.CERTIFICATION_CODES];
    expect([...CERTIFICATION_CODES], "api/src/factories/reputation.ts").to.deep.equal(codes);
    expect([...CERTIFICATION_BITS], "scripts/lib/seed.ts").to.deep.equal(codes);
    expect(Object.keys(CERTIFICATION_SYNONYMS), "api/src/marketplace/vocabulary.ts").to.deep.equal(codes);
  });

  it("names the supply-chain stages as ProductPassport does", function () {
    const stages = Object.fromEntries(generated.SUPPLY_CHAIN_STAGES.map(({ code, name }) => [code, name]));
    expect({ ...STAGES }, "api/src/passports/stages.ts").to.deep.equal(stages);
  });
});
