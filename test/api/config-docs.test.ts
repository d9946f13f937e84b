// docs/configuration.md's table is generated from the variables api/src/config.ts declares: the two never drift.
import { expect } from "chai";
import { VARIABLES } from "../../api/src/config";
import { configurationTable, readConfigurationPage, withCurrentTable } from "../../scripts/lib/config-docs";

describe("configuration page", function () {
  it("holds the table generated from the declarations (run `npm run docs:config` after changing a variable)", function () {
    const page = readConfigurationPage();
    expect(page).to.include(configurationTable());
    expect(withCurrentTable(page)).to.equal(page);
  });

  it("lists every declared variable, each with one line of documentation", function () {
    const table = configurationTable();
    for (const [name, declared] of Object.entries(VARIABLES)) {
      expect(table, name).to.include(`| \`${name}\` |`);
      expect(declared.doc, name).to.match(/^\S[^\n]*\.$/);
    }
  });
});
