// The registry's own words inside a passport, in Bengali: categories, EU fibre names and the built-in care texts
// (only when the passport says the text is the built-in one).
import { expect } from "chai";
import { careText, categoryName, fibreName } from "../../api/src/i18n/product-words";
import { EU_FIBRE_NAMES } from "../../api/src/passports/fibres";
import { CARE_BY_CATEGORY, GARMENT_CARE } from "../../api/src/products/defaults";

const BENGALI = /[\u0980-\u09FF]/u;

describe("Bengali words of passports", () => {
  const content = (category: string, care: string, source: "declared" | "category_default" | "brand_default") => ({
    care_instructions: care,
    product: { sku: "S", name: "N", category, fabric_type: null, description: null },
    provenance: { fiber_composition: "declared" as const, care_instructions: source, country_of_manufacture: "declared" as const },
  });

  it("names the categories the registry knows, by the brand's word or its canonical one; another stays the brand's", () => {
    expect(categoryName("t-shirt", "bn")).to.equal("টি-শার্ট");
    expect(categoryName(" Tshirt ", "bn")).to.equal("টি-শার্ট");
    expect(categoryName("Hoodie", "bn")).to.equal("হুডি");
    expect(categoryName("kurta", "bn")).to.equal("kurta");
    expect(categoryName("t-shirt", "en")).to.equal("t-shirt");
    for (const category of Object.keys(CARE_BY_CATEGORY)) expect(categoryName(category, "bn"), category).to.match(BENGALI);
  });

  it("names every EU fibre in Bengali; a fibre the brand named otherwise stays its word", () => {
    for (const fibre of EU_FIBRE_NAMES) expect(fibreName(fibre, "bn"), fibre).to.match(BENGALI);
    expect(fibreName("Cotton", "bn")).to.equal("তুলা");
    expect(fibreName("bamboo silk blend", "bn")).to.equal("bamboo silk blend");
    expect(fibreName("cotton", "en")).to.equal("cotton");
  });

  it("translates a built-in care text only where the passport says it is the built-in one, word for word", () => {
    for (const [category, text] of Object.entries(CARE_BY_CATEGORY)) {
      expect(careText(content(category, text, "category_default"), "bn"), category).to.match(BENGALI);
    }
    expect(careText(content("kurta", GARMENT_CARE, "category_default"), "bn")).to.match(BENGALI);
    // The brand's own words stay the brand's, even when they happen to equal the built-in text.
    expect(careText(content("t-shirt", CARE_BY_CATEGORY["t-shirt"]!, "declared"), "bn")).to.equal(CARE_BY_CATEGORY["t-shirt"]);
    expect(careText(content("t-shirt", "Hand wash only.", "brand_default"), "bn")).to.equal("Hand wash only.");
    // A category's text from before a change of the built-in one is not guessed at.
    expect(careText(content("t-shirt", "Machine wash at 40 °C.", "category_default"), "bn")).to.equal("Machine wash at 40 °C.");
    expect(careText(content("t-shirt", CARE_BY_CATEGORY["t-shirt"]!, "category_default"), "en")).to.equal(CARE_BY_CATEGORY["t-shirt"]);
  });
});
