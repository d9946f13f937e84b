// A product registered with only spec 4.8's fields reads back complete (spec 2.5): fibres read from fabric_type,
// care text and country of manufacture from the brand's defaults, and the record saying which values were declared.
import { expect } from "chai";
import { createBrand, setProductDefaults } from "../../api/src/brands/service";
import { dataHashOf } from "../../api/src/passports/content";
import { compositionFromFabricType } from "../../api/src/passports/fibres";
import { CARE_BY_CATEGORY, GARMENT_CARE } from "../../api/src/products/defaults";
import { compile } from "../../api/src/validation";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { runAdmin } from "../support/admin-cli";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

type Client = { slug: string; key: string };

describe("product defaults: a product with only the spec's fields reads back complete", () => {
  let api: InProcessApi;
  let databaseUrl: string;
  let counter = 0;

  before(async () => {
    databaseUrl = await createTestDatabase("product_defaults");
    // Registration and reads need no chain: nothing here mints. Nothing listens on this RPC port.
    api = await startInProcessApi({ DATABASE_URL: databaseUrl, RPC_URL: `http://127.0.0.1:${await freePort()}` });
  });
  after(() => api?.close());

  async function newBrand(): Promise<Client & { id: number }> {
    counter += 1;
    const { brand, key } = await createBrand(api.db, { slug: `defaults-${counter}`, name: `Defaults ${counter}`, uidPrefix: `PD${counter}` });
    return { slug: brand.slug, key: key.key, id: brand.id };
  }

  function call(client: Client, method: string, path: string, body?: unknown) {
    return fetch(`${api.url}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${client.key}`, "X-Service-Brand": client.slug, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** Registers a product and returns its v1 record (spec 2.5). */
  async function registerAndRead(client: Client, product: Record<string, unknown>) {
    const created = await call(client, "POST", "/products", { sku: `SKU-${(counter += 1)}`, name: "Plain Shirt", price: 1200, ...product });
    const body = await json(created);
    expect(created.status, JSON.stringify(body)).to.equal(201);
    const read = await call(client, "GET", `/products/${body.data.uid}`);
    expect(read.status).to.equal(200);
    return (await json(read)).data;
  }

  describe("fibre composition read from fabric_type", () => {
    let brand: Client;
    before(async () => {
      brand = await newBrand();
    });

    const TABLE: Array<[string, string]> = [
      ["cotton", "100% cotton"],
      ["Cotton", "100% cotton"],
      ["organic cotton", "100% cotton"],
      ["100% linen", "100% linen"],
      ["60% cotton 40% polyester", "60% cotton, 40% polyester"],
      ["Cotton 95%, Elastane 5%", "95% cotton, 5% elastane"],
      ["95% cotton / 5% spandex", "95% cotton, 5% elastane"],
      ["recycled polyester", "100% polyester"],
      ["70% merino wool, 30% nylon", "70% wool, 30% nylon"],
      ["97.5% cotton 2.5% elastane", "97.5% cotton, 2.5% elastane"],
    ];
    for (const [fabricType, expected] of TABLE) {
      it(`reads "${fabricType}" as ${expected}, derived from fabric_type`, async () => {
        const record = await registerAndRead(brand, { category: "shirt", fabric_type: fabricType });
        expect(record.fiber_composition).to.equal(expected);
        expect(record.provenance.fiber_composition).to.equal("derived_from_fabric_type");
      });
    }

    // Names of fabrics, weaves or blends without shares: guessing would put a false claim in an anchored passport.
    for (const fabricType of ["denim", "cotton-polyester", "cotton blend", "60% cotton 30% polyester", "bamboo", "jersey", "poly"]) {
      it(`registers "${fabricType}" but leaves the composition unknown, and says so`, async () => {
        const record = await registerAndRead(brand, { category: "shirt", fabric_type: fabricType });
        expect(record.fiber_composition).to.equal("not declared");
        expect(record.provenance.fiber_composition).to.equal("unknown");
      });
    }
  });

  describe("a product with only spec 4.8's fields", () => {
    // sku, name, category, price and the optional fabric_type and description: nothing else.
    const SPEC_ONLY = { sku: "SH-001", name: "Oxford Shirt", category: "shirt", fabric_type: "organic cotton", price: 2450, description: "Button-down" };

    it("reads back complete (spec 2.5 types) with the brand's default country and the category's care text", async () => {
      const brand = await newBrand();
      await setProductDefaults(api.db, brand.slug, { countryOfManufacture: "bd" });
      const record = await registerAndRead(brand, SPEC_ONLY);
      expect(record.fiber_composition).to.equal("100% cotton");
      expect(record.care_instructions).to.equal(CARE_BY_CATEGORY.shirt);
      expect(record.country_of_manufacture).to.equal("BD");
      expect(record.provenance).to.deep.equal({
        fiber_composition: "derived_from_fabric_type",
        care_instructions: "category_default",
        country_of_manufacture: "brand_default",
      });
    });

    it("says so, in spec 2.5's types, when nobody gave a country or named a fibre", async () => {
      const brand = await newBrand();
      const record = await registerAndRead(brand, { sku: "X-1", name: "Kurta", category: "kurta", price: 900 });
      expect(record.fiber_composition).to.equal("not declared");
      // A category without its own text gets the generic garment care.
      expect(record.care_instructions).to.equal(GARMENT_CARE);
      expect(record.country_of_manufacture).to.equal("ZZ");
      expect(record.provenance).to.deep.equal({ fiber_composition: "unknown", care_instructions: "category_default", country_of_manufacture: "unknown" });
    });

    it("keeps what the brand declared, and marks it declared", async () => {
      const brand = await newBrand();
      await setProductDefaults(api.db, brand.slug, { countryOfManufacture: "BD", care: { shirt: "Brand care." } });
      const record = await registerAndRead(brand, {
        ...SPEC_ONLY,
        fiber_composition: [{ fiber: "linen", percent: 100 }],
        care_instructions: "Hand wash only.",
        country_of_manufacture: "IN",
      });
      expect(record).to.include({ fiber_composition: "100% linen", care_instructions: "Hand wash only.", country_of_manufacture: "IN" });
      expect(record.provenance).to.deep.equal({ fiber_composition: "declared", care_instructions: "declared", country_of_manufacture: "declared" });
    });

    it("anchors the filled-in values with their provenance in the public record's content, and the hash covers both", async () => {
      const brand = await newBrand();
      await setProductDefaults(api.db, brand.slug, { countryOfManufacture: "BD" });
      const created = await json(await call(brand, "POST", "/products", { ...SPEC_ONLY, category: "saree", fabric_type: "60% cotton 40% silk" }));
      const record = await json(await fetch(`${api.url}/api/dpp/${created.data.uid}`, { headers: { Accept: "application/json" } }));
      // Version 3 since migration 033: version 2's provenance, plus the passport's id and granularity.
      expect(record.content.schema).to.equal("passport-registry/dpp-content/3");
      expect(record.content.passport).to.deep.equal({ id: record.content.passport.id, granularity: "item" });
      expect(record.content.fiber_composition).to.deep.equal([{ fiber: "cotton", percent: 60 }, { fiber: "silk", percent: 40 }]);
      expect(record.content.care_instructions).to.equal(CARE_BY_CATEGORY.saree);
      expect(record.content.country_of_manufacture).to.equal("BD");
      expect(record.content.provenance).to.deep.equal({
        fiber_composition: "derived_from_fabric_type",
        care_instructions: "category_default",
        country_of_manufacture: "brand_default",
      });
      expect(record.blockchain.computed_data_hash).to.equal(dataHashOf(record.content));
    });

    it("leaves the content of a product registered before provenance existed as it was, so its anchored hash still matches", async () => {
      const brand = await newBrand();
      const uid = `PD${counter}-LEGACY0001`;
      await api.db("app.products").insert({
        brand_id: brand.id, uid, sku: "OLD-1", name: "Old Tee", category: "t-shirt", fabric_type: "cotton", price: 500,
        carbon_kg: 1.5, carbon_rating: "A",
      });
      const record = await json(await fetch(`${api.url}/api/dpp/${uid}`, { headers: { Accept: "application/json" } }));
      expect(record.content.schema).to.equal("passport-registry/dpp-content/1");
      expect(record.content).to.not.have.property("provenance");
      expect(record.content).to.include({ care_instructions: "", country_of_manufacture: null });
      // The v1 record keeps spec 2.5's types and says nothing was declared.
      const v1 = (await json(await call(brand, "GET", `/products/${uid}`))).data;
      expect(v1).to.include({ fiber_composition: "not declared", care_instructions: "not declared", country_of_manufacture: "ZZ" });
      expect(v1.provenance).to.deep.equal({ fiber_composition: "unknown", care_instructions: "unknown", country_of_manufacture: "unknown" });
    });
  });

  describe("brand defaults", () => {
    it("override the built-in care text per category, with a brand-wide fallback, for that brand only", async () => {
      const brand = await newBrand();
      const other = await newBrand();
      await setProductDefaults(api.db, brand.slug, { care: { Shirt: "Our shirt care.", "*": "Our care for everything else." } });
      const shirt = await registerAndRead(brand, { category: "shirt" });
      expect(shirt.care_instructions).to.equal("Our shirt care.");
      expect(shirt.provenance.care_instructions).to.equal("brand_default");
      const saree = await registerAndRead(brand, { category: "saree" });
      expect(saree.care_instructions).to.equal("Our care for everything else.");
      expect(saree.provenance.care_instructions).to.equal("brand_default");
      const otherShirt = await registerAndRead(other, { category: "shirt" });
      expect(otherShirt.care_instructions).to.equal(CARE_BY_CATEGORY.shirt);
      expect(otherShirt.provenance.care_instructions).to.equal("category_default");
      // Removing the brand's text brings the built-in one back; a product registered earlier keeps what it anchored.
      await setProductDefaults(api.db, brand.slug, { care: { shirt: null } });
      expect((await registerAndRead(brand, { category: "shirt" })).care_instructions).to.equal("Our care for everything else.");
      const earlier = (await json(await call(brand, "GET", `/products/${shirt.uid}`))).data;
      expect(earlier.care_instructions).to.equal("Our shirt care.");
    });

    it("take the registry factory's country before the brand's default", async () => {
      const brand = await newBrand();
      await setProductDefaults(api.db, brand.slug, { countryOfManufacture: "BD" });
      await api.db("app.factory_profiles").insert({
        factory_id: 424242, name: "Izmir Knits", city: "Izmir", country: "TR", capacity_units_per_month: 1000,
        min_order_units: 100, lead_time_days: 30, metadata_hash: "0x00",
      });
      const record = await registerAndRead(brand, { category: "knitwear", factory_id: 424242 });
      expect(record.country_of_manufacture).to.equal("TR");
      expect(record.provenance.country_of_manufacture).to.equal("factory");
    });

    it("are set and shown with the operator CLI", async function () {
      this.timeout(120_000);
      const admin = (args: string[]) => runAdmin(args, { DATABASE_URL: databaseUrl });
      const brand = await newBrand();
      const set = await admin(["set-product-defaults", "--brand", brand.slug, "--country", "bd", "--category", "saree", "--care", "Dry clean only.", "--json"]);
      expect(set.code, set.stderr).to.equal(0);
      expect(JSON.parse(set.stdout)).to.deep.equal({ slug: brand.slug, country_of_manufacture: "BD", care_by_category: { saree: "Dry clean only." } });
      const record = await registerAndRead(brand, { category: "saree" });
      expect(record).to.include({ care_instructions: "Dry clean only.", country_of_manufacture: "BD" });
      expect(record.provenance).to.include({ care_instructions: "brand_default", country_of_manufacture: "brand_default" });

      const shown = await admin(["show-product-defaults", "--brand", brand.slug]);
      expect(shown.code, shown.stderr).to.equal(0);
      expect(shown.stdout).to.include("country of manufacture BD").and.include("Dry clean only.  (brand)").and.include(`${CARE_BY_CATEGORY.shirt}  (built-in)`);
      const wrongCountry = await admin(["set-product-defaults", "--brand", brand.slug, "--country", "XX"]);
      expect(wrongCountry.code).to.equal(2);
      expect(wrongCountry.stderr).to.include("country_of_manufacture");
      expect((await admin(["set-product-defaults", "--brand", brand.slug, "--category", "shirt"])).code).to.equal(2);
      const cleared = await admin(["set-product-defaults", "--brand", brand.slug, "--country", "", "--clear-care", "--json"]);
      expect(JSON.parse(cleared.stdout)).to.deep.equal({ slug: brand.slug, country_of_manufacture: null, care_by_category: {} });
    });

    it("refuse a country that is not an ISO 3166-1 alpha-2 code, naming the field", async () => {
      const brand = await newBrand();
      for (const code of ["XX", "ZZ", "EU", "BGD", "B1", ""]) {
        const refused = await setProductDefaults(api.db, brand.slug, { countryOfManufacture: code }).then(
          () => undefined,
          (error: { code?: string; details?: Array<{ field: string }> }) => error,
        );
        expect(refused?.code, code).to.equal("VALIDATION_ERROR");
        expect(refused?.details?.map((d) => d.field)).to.deep.equal(["country_of_manufacture"]);
      }
    });
  });

  describe("the fabric_type reader", () => {
    // Bounded work: fabric_type is at most 60 characters, and the reader makes one pass over them.
    it("reads a table of fabric types", () => {
      const TABLE: Array<[string, Array<{ fiber: string; percent: number }> | undefined]> = [
        ["cotton", [{ fiber: "cotton", percent: 100 }]],
        ["organic cotton", [{ fiber: "cotton", percent: 100 }]],
        ["60% cotton 40% polyester", [{ fiber: "cotton", percent: 60 }, { fiber: "polyester", percent: 40 }]],
        ["40% polyester, 60% cotton", [{ fiber: "cotton", percent: 60 }, { fiber: "polyester", percent: 40 }]],
        ["cotton 60% polyester 40%", [{ fiber: "cotton", percent: 60 }, { fiber: "polyester", percent: 40 }]],
        ["50% organic cotton 50% recycled cotton", [{ fiber: "cotton", percent: 100 }]],
        ["glass fiber", [{ fiber: "glass fibre", percent: 100 }]],
        ["tencel", [{ fiber: "lyocell", percent: 100 }]],
        ["cotton 60% 40% polyester", undefined],
        ["60 cotton 40 polyester", undefined],
        ["180 gsm cotton", undefined],
        ["120% cotton", undefined],
        ["coton", undefined],
        ["", undefined],
      ];
      for (const [fabricType, expected] of TABLE) expect(compositionFromFabricType(fabricType), fabricType).to.deep.equal(expected);
    });
  });

  describe("the OpenAPI document", () => {
    type Schema = { properties?: Record<string, Schema>; items?: Schema };
    /** Paths of fields a value has that its schema does not declare. */
    function undeclared(schema: Schema, value: unknown, at = ""): string[] {
      if (Array.isArray(value)) return schema.items ? value.flatMap((item, i) => undeclared(schema.items!, item, `${at}[${i}]`)) : [];
      if (value === null || typeof value !== "object" || !schema.properties) return [];
      return Object.entries(value).flatMap(([key, inner]) =>
        schema.properties![key] ? undeclared(schema.properties![key]!, inner, `${at}.${key}`) : [`${at}.${key}`],
      );
    }

    it("declares every field of the product examples and of a real record, and the examples are valid", async () => {
      const doc = await json(await fetch(`${api.url}/api/openapi.json`));
      const post = doc.paths["/api/v1/products"].post;
      const request = post.requestBody.content["application/json"];
      expect(compile(request.schema)(request.example), "request example").to.equal(true);
      const read = doc.paths["/api/v1/products/{uid}"].get.responses["200"].content["application/json"];
      expect(undeclared(read.schema, read.example)).to.deep.equal([]);
      const validRecord = compile(read.schema);
      expect(validRecord(read.example), JSON.stringify(validRecord.errors)).to.equal(true);

      const brand = await newBrand();
      const created = await json(await call(brand, "POST", "/products", { sku: "OA-1", name: "Tee", category: "t-shirt", price: 1 }));
      const live = await json(await call(brand, "GET", `/products/${created.data.uid}`));
      expect(undeclared(read.schema, live)).to.deep.equal([]);
      expect(validRecord(live), JSON.stringify(validRecord.errors)).to.equal(true);
    });
  });
});
