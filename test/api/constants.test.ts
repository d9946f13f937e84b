// Tables the service keys by certification code cover exactly the codes generated from the contracts' NatSpec
// (api/src/generated/contract-constants.ts, itself checked against the deployed contracts in test/contracts/).
import { expect } from "chai";
import * as generated from "../../api/src/generated/contract-constants";
import { CERTIFICATION_SYNONYMS } from "../../api/src/marketplace/vocabulary";

describe("contract code lists", function () {
  it("gives the RFQ vocabulary one entry per certification bit of FactoryRegistry, in bit order", function () {
    expect(Object.keys(CERTIFICATION_SYNONYMS)).to.deep.equal([...generated.CERTIFICATION_CODES]);
  });
});
