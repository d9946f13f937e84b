// The GS1 Digital Link resolver on the seeded stack: a browser is redirected to the passport page, a client asking
// for the linkset gets one (RFC 9264, valid against GS1's linkset schema), ?linkType picks one link (404 when there is
// none), other query parameters pass on, an unknown lot or serial walks up to the GTIN, a wrong check digit or an
// extra segment is a 400, an unknown GTIN a 404, OPTIONS answers CORS, a brand's host resolves only its own products,
// and the well-known resolver description is valid against GS1's description-file schema. A compressed Digital Link
// (compressed by GS1's own toolkit) is answered exactly as its uncompressed URI. The demo garment's EN 18222 entry in
// demo.json, read by its Digital Link, replays.
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { expect } from "chai";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createBrand } from "../../api/src/brands/service";
import { insertDomain } from "../../api/src/domains/domains.repo";
import { registerProduct } from "../../api/src/products/service";
import { emulateTap } from "../../scripts/lib/tap-emulator";
import { sharedStack, type SeededStack } from "../support/shared-stack";
import { compressWithGs1, gs1Toolkit, segmentOfBits } from "../support/gs1-compression-toolkit";
import { json, rawGet, type RawAnswer } from "../support/http";

const get = rawGet;

/** GS1's own schemas (test/vendor): the linkset schema of gs1/linkset and the resolver description-file schema 1.2.0. */
const vendored = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(__dirname, "..", "vendor", file), "utf8")) as Record<string, unknown>;

/** Ajv as GS1's test suite runs it (draft-07, `strict: false`: the schemas carry annotations such as `name`), with formats checked. */
function gs1Validator(file: string) {
  return addFormats(new Ajv({ allErrors: true, strict: false })).compile(vendored(file));
}

const GS1 = "https://gs1.org/voc/";

describe("GS1 Digital Link resolver", () => {
  let stack: SeededStack;
  let base: string;
  const validLinkset = gs1Validator("gs1-linkset/gs1-linkset-schema.json");
  const validDescription = gs1Validator("gs1-resolver-description-file-schema/description-file-schema.json");
  // The demo shirt: minted, GTIN 09520123000103, serial OXF-0001; the saree has a lot; the sweater is not minted.
  const SHIRT = { uid: "DEMO-7K3M9Q2X", path: "/01/09520123000103/21/OXF-0001" };
  const SAREE = { uid: "DEMO-4VH8N1TR", path: "/01/09520123000202/10/JAM2026-07/21/SAR-0014" };
  const SWEATER = { uid: "DEMO-6MJ4R8YA", path: "/01/09520123000400/21/KNT-0031" };
  const OTHER = { host: "shop.gs1-other.test", gtin: "04012345000030", serial: "OTHER-1", uid: "" };
  // Items whose serials take each alphabet of GS1's compression: digits (with leading zeros), lower- and upper-case
  // hex, base64url, and characters a URI path must percent-encode.
  const ALPHABETS = { gtin: "09520999000016", serials: ["0042", "123456789012345", "abc123", "ABC123", "Ab-_9z", "A/B%C?:;<=>"], uids: [] as string[] };

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
    // Another brand with a verified custom domain and its own item.
    const other = await createBrand(stack.api.db, { slug: "gs1-other", name: "Other GS1 Brand", uidPrefix: "GSO", plan: "growth" });
    OTHER.uid = (
      await registerProduct(stack.api.db, { id: other.brand.id, slug: "gs1-other", uidPrefix: "GSO" }, {
        sku: "GSO-1", name: "Other shirt", category: "shirt", price: 10, gtin: OTHER.gtin, serial: OTHER.serial,
      })
    ).uid;
    await insertDomain(stack.api.db, { brandId: other.brand.id, hostname: OTHER.host, verifyToken: "0".repeat(32) });
    await stack.api.db("app.custom_domains").where({ hostname: OTHER.host }).update({ status: "verified", verified_at: stack.api.db.fn.now(), next_check_at: null });
    const alphabets = await createBrand(stack.api.db, { slug: "gs1-alphabets", name: "GS1 Alphabets Brand", uidPrefix: "GSA", plan: "growth" });
    for (const [i, serial] of ALPHABETS.serials.entries()) {
      const brand = { id: alphabets.brand.id, slug: "gs1-alphabets", uidPrefix: "GSA" };
      ALPHABETS.uids.push((await registerProduct(stack.api.db, brand, { sku: `GSA-${i}`, name: "Alphabet tee", category: "t-shirt", price: 5, gtin: ALPHABETS.gtin, serial })).uid);
    }
  });

  it("seeds the demo products with their GTIN and serial, as .data/demo.json lists them", () => {
    const shirt = stack.demo.products.find((p) => p.uid === SHIRT.uid)!;
    expect(shirt).to.include({ gtin: "09520123000103", serial: "OXF-0001", minted: true });
    expect(stack.demo.products.filter((p) => p.gtin && p.serial).length).to.be.at.least(3);
  });

  it("seeds a garment's model, batch and item passports whose demo.json en18222 entry replays (docs/dpp-api.md)", async function () {
    this.timeout(120_000);
    const { en18222 } = stack.demo;
    const read = await fetch(en18222.read_url);
    expect(read.status, await read.clone().text()).to.equal(200);
    const item = await json(read);
    const section = item.contentSpecificationIds[0] as string;
    expect(item).to.include({ digitalProductPassportId: en18222.dpp_id, granularity: "item", dppStatus: "active" });
    expect(item.anchor.status).to.equal("anchored");
    expect(item[section].passport.model.id).to.equal(en18222.model_dpp_id);
    expect(item[section].passport.batch.id).to.equal(en18222.batch_dpp_id);
    // Its product id, a GS1 Digital Link URI on id.gs1.org, names it.
    const byProduct = await json(await fetch(`${base}/api/dpp-lifecycle/v1/dppsByProductId/${encodeURIComponent(en18222.product_id)}`));
    expect(byProduct.digitalProductPassportId).to.equal(en18222.dpp_id);

    // The merge patch, with the demo brand's key, sets the element to the new value in a new anchored version.
    const valueAt = (root: unknown): unknown => en18222.element_path.split(".").reduce((node, step) => (node as Record<string, unknown> | undefined)?.[step], root);
    expect(valueAt(item[section])).to.not.equal(en18222.new_value);
    const patched = await fetch(en18222.read_url, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${stack.demo.api_key}`, "X-Service-Brand": stack.demo.brand_slug, "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify(en18222.merge_patch),
    });
    expect(patched.status, await patched.clone().text()).to.equal(200);
    const after = await json(patched);
    expect(valueAt(after[section])).to.equal(en18222.new_value);
    expect(after.anchor.version).to.equal(item.anchor.version + 1);
    const element = await json(await fetch(`${en18222.read_url}/elements/${en18222.element_path}`));
    expect(element).to.deep.equal({ [en18222.element_path.split(".").at(-1)!]: en18222.new_value });
  });

  describe("an item's link (/01/{gtin}/21/{serial})", () => {
    it("redirects a browser (307) to the passport page, names the linkset in Link and varies on Accept", async () => {
      const res = await get(base, SHIRT.path, { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
      expect(res.status).to.equal(307);
      expect(res.headers.location).to.equal(`${base}/scan/${SHIRT.uid}`);
      expect(res.headers.link).to.contain(`<${base}${SHIRT.path}?linkType=linkset>; rel="linkset"; type="application/linkset+json"`);
      expect(res.headers.vary).to.match(/accept/i);
      expect(res.headers["access-control-allow-origin"]).to.equal("*");
      // A client that says nothing (*/*) is a browser too.
      expect((await get(base, SHIRT.path)).headers.location).to.equal(`${base}/scan/${SHIRT.uid}`);
    });

    it("answers the RFC 9264 linkset to Accept: application/linkset+json, listing page, credential, certificate and brand", async () => {
      const res = await get(base, SHIRT.path, { Accept: "application/linkset+json" });
      expect(res.status).to.equal(200);
      expect(res.headers["content-type"]).to.match(/^application\/linkset\+json/);
      const body = JSON.parse(res.body) as { linkset: Array<Record<string, Array<{ href: string; type?: string }>> & { anchor: string }> };
      expect(validLinkset(body), JSON.stringify(validLinkset.errors)).to.equal(true);
      const [context] = body.linkset;
      expect(context!.anchor).to.equal(`${base}${SHIRT.path}`);
      expect((context as unknown as { itemDescription: string }).itemDescription).to.match(/, serial OXF-0001$/);
      // The default link carries a title and nothing else (resolver standard 1.2).
      expect(context![`${GS1}defaultLink`]).to.deep.equal([{ href: `${base}/scan/${SHIRT.uid}`, title: `Product passport ${SHIRT.uid}` }]);
      // GS1's JSON-LD context makes the linkset JSON-LD.
      expect(res.headers.link).to.contain('<https://ref.gs1.org/standards/resolver/1.2.0/linkset-context>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"');
      expect(context![`${GS1}pip`]![0]).to.include({ href: `${base}/scan/${SHIRT.uid}`, type: "text/html" });
      const dpp = context![`${GS1}dpp`]!;
      expect(dpp.map((l) => l.type)).to.include.members(["application/vc+jwt", "application/ld+json"]);
      expect(dpp[0]!.href).to.equal(`${base}/api/dpp/${SHIRT.uid}/credential`);
      expect(context!.dpp, "IANA dpp lists the same targets").to.deep.equal(dpp);
      expect(context![`${GS1}certificationInfo`]!.map((l) => l.href)).to.deep.equal([`${base}/dpp-certificate/${SHIRT.uid}`, `${base}/certificates/${SHIRT.uid}.pdf`]);
      expect(context![`${GS1}homepage`]![0]!.href).to.equal(`${base}/brand/demo-apparel`);
    });

    it("answers the linkset to ?linkType=linkset (and all) whatever the Accept header", async () => {
      for (const type of ["linkset", "all"]) {
        const res = await get(base, `${SHIRT.path}?linkType=${type}`, { Accept: "text/html" });
        expect(res.status).to.equal(200);
        expect(validLinkset(JSON.parse(res.body))).to.equal(true);
      }
    });

    it("redirects to the link ?linkType names, chosen by Accept among several, and answers 404 for a type the item lacks", async () => {
      const location = async (linkType: string) => (await get(base, `${SHIRT.path}?linkType=${encodeURIComponent(linkType)}`)).headers.location;
      expect(await location("gs1:dpp")).to.equal(`${base}/api/dpp/${SHIRT.uid}/credential`);
      expect(await location("dpp")).to.equal(`${base}/api/dpp/${SHIRT.uid}/credential`);
      expect(await location(`${GS1}dpp`)).to.equal(`${base}/api/dpp/${SHIRT.uid}/credential`);
      expect(await location("gs1:certificationInfo")).to.equal(`${base}/dpp-certificate/${SHIRT.uid}`);
      expect(await location("gs1:homepage")).to.equal(`${base}/brand/demo-apparel`);
      expect(await location("iana:dpp")).to.equal(`${base}/api/dpp/${SHIRT.uid}/credential`);
      for (const unknown of ["gs1:recipeInfo", "gs1:nosuchlt", "nonsense"]) {
        expect((await get(base, `${SHIRT.path}?linkType=${unknown}`, { Accept: "application/json" })).status, unknown).to.equal(404);
      }
      const pdf = await get(base, `${SHIRT.path}?linkType=gs1:certificationInfo`, { Accept: "application/pdf" });
      expect(pdf.headers.location).to.equal(`${base}/certificates/${SHIRT.uid}.pdf`);
      // Two JSON passports (Catena-X and the record): asked for JSON, the client chooses (300 with both).
      const both = await get(base, `${SHIRT.path}?linkType=gs1:dpp`, { Accept: "application/json" });
      expect(both.status).to.equal(300);
      const choices = JSON.parse(both.body) as { linkset: Array<Record<string, Array<{ href: string }>>> };
      expect(validLinkset(choices), JSON.stringify(validLinkset.errors)).to.equal(true);
      expect(choices.linkset[0]![`${GS1}dpp`]!.map((l) => l.href)).to.deep.equal([`${base}/api/dpp/${SHIRT.uid}/catena-x`, `${base}/api/dpp/${SHIRT.uid}`]);
    });

    it("passes other query parameters on when redirecting, but not linkType", async () => {
      expect((await get(base, `${SHIRT.path}?foo=bar&lang=bn`)).headers.location).to.equal(`${base}/scan/${SHIRT.uid}?foo=bar&lang=bn`);
      expect((await get(base, `${SHIRT.path}?linkType=gs1:homepage&foo=bar`)).headers.location).to.equal(`${base}/brand/demo-apparel?foo=bar`);
    });

    it("answers OPTIONS with CORS headers and the linkset in Link", async () => {
      const res = await fetch(`${base}${SHIRT.path}`, { method: "OPTIONS", headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET" } });
      expect(res.status).to.equal(204);
      expect(res.headers.get("access-control-allow-origin")).to.equal("*");
      expect(res.headers.get("access-control-allow-methods")).to.equal("GET, HEAD, OPTIONS");
      expect(res.headers.get("link")).to.contain(`<${base}${SHIRT.path}?linkType=linkset>; rel="linkset"`);
    });

    it("passes a tag's SUN parameters on to the passport page, which checks them, and to no other link", async () => {
      const tag = stack.demo.tags.find((t) => t.product_uid === SHIRT.uid)!;
      const tap = emulateTap({ uid: tag.tag_uid, counter: 7, keys: { sdmMetaRead: Buffer.from(tag.sdm_meta_read_key!, "hex"), sdmFileRead: Buffer.from(tag.sdm_file_read_key!, "hex") } });
      const res = await get(base, `${SHIRT.path}?picc_data=${tap.picc_data}&cmac=${tap.cmac}&utm_source=label`);
      expect(res.status).to.equal(307);
      expect(res.headers.location).to.equal(`${base}/scan/${SHIRT.uid}?picc_data=${tap.picc_data}&cmac=${tap.cmac}&utm_source=label`);
      // Not to the credential: only the page checks taps.
      expect((await get(base, `${SHIRT.path}?linkType=gs1:dpp&picc_data=${tap.picc_data}&cmac=${tap.cmac}`)).headers.location).to.equal(`${base}/api/dpp/${SHIRT.uid}/credential`);
    });

    it("offers no credential for a passport not minted yet", async () => {
      const body = JSON.parse((await get(base, SWEATER.path, { Accept: "application/linkset+json" })).body) as { linkset: Array<Record<string, unknown>> };
      expect(body.linkset[0]).to.have.property(`${GS1}pip`);
      expect(body.linkset[0]).not.to.have.property(`${GS1}dpp`);
      expect(body.linkset[0]).not.to.have.property("dpp");
      expect((await get(base, `${SWEATER.path}?linkType=gs1:dpp`, { Accept: "application/json" })).status).to.equal(404);
    });

    it("resolves a lot-and-serial link; a lot or serial nobody registered walks up to the GTIN: the brand, never another item", async () => {
      expect((await get(base, SAREE.path)).headers.location).to.equal(`${base}/scan/${SAREE.uid}`);
      for (const path of ["/01/09520123000202/10/OTHER-LOT/21/SAR-0014", "/01/09520123000103/21/NO-SUCH-SERIAL", "/01/09520123000103/10/KL8G"]) {
        const res = await get(base, path);
        expect(res.status, path).to.equal(307);
        expect(res.headers.location, path).to.equal(`${base}/brand/demo-apparel`);
        const linkset = JSON.parse((await get(base, `${path}?linkType=linkset`)).body) as { linkset: Array<Record<string, unknown>> };
        expect(validLinkset(linkset), JSON.stringify(validLinkset.errors)).to.equal(true);
        expect(linkset.linkset[0]).to.include({ anchor: `${base}${path}` });
        expect(linkset.linkset[0]).not.to.have.property(`${GS1}pip`);
      }
    });

    it("accepts a GTIN-13 in the path, anchoring the linkset at the GTIN-14 form", async () => {
      const res = await get(base, "/01/9520123000103/21/OXF-0001", { Accept: "application/linkset+json" });
      expect(res.status).to.equal(200);
      expect((JSON.parse(res.body) as { linkset: Array<{ anchor: string }> }).linkset[0]!.anchor).to.equal(`${base}${SHIRT.path}`);
      expect(res.headers.link).to.contain(`<${base}${SHIRT.path}>; rel="owl:sameAs"`);
    });
  });

  describe("errors", () => {
    it("refuses a GTIN with a wrong check digit: 400 INVALID_DIGITAL_LINK naming the right digit", async () => {
      const res = await get(base, "/01/09520123000104/21/OXF-0001", { Accept: "application/json" });
      expect(res.status).to.equal(400);
      const { error } = JSON.parse(res.body) as { error: { code: string; message: string; details: Array<{ field: string; problem: string }> } };
      expect(error.code).to.equal("INVALID_DIGITAL_LINK");
      expect(error.details).to.deep.equal([{ field: "gtin", problem: "has a wrong check digit (the last digit should be 3)" }]);
      for (const path of ["/01/123/21/X", "/01/0952012300010A/21/X"]) expect((await get(base, path, { Accept: "application/json" })).status).to.equal(400);
    });

    it("refuses a serial outside GS1's character set, and shows a browser an HTML page", async () => {
      const res = await get(base, "/01/09520123000103/21/%C3%A9t%C3%A9", { Accept: "application/json" });
      expect(res.status).to.equal(400);
      expect((JSON.parse(res.body) as { error: { details: Array<{ field: string }> } }).error.details[0]!.field).to.equal("serial");
      const page = await get(base, "/01/09520123000104/21/OXF-0001", { Accept: "text/html" });
      expect(page.status).to.equal(400);
      expect(page.headers["content-type"]).to.match(/text\/html/);
    });

    it("answers 404 NOT_FOUND for a GTIN nobody registered, with or without a serial", async () => {
      const res = await get(base, "/01/09506000134352/21/NO-SUCH-SERIAL", { Accept: "application/linkset+json" });
      expect(res.status).to.equal(404);
      expect((JSON.parse(res.body) as { error: { code: string } }).error.code).to.equal("NOT_FOUND");
      expect((await get(base, "/01/09506000134352", { Accept: "application/json" })).status).to.equal(404);
    });

    it("refuses a path with segments a Digital Link of a GTIN does not have: 400, not 404", async () => {
      for (const path of [`${SHIRT.path}/foo`, "/01/09520123000103/foo", "/01/09520123000103/22/A1"]) {
        const res = await get(base, path, { Accept: "application/json" });
        expect(res.status, path).to.equal(400);
        expect((JSON.parse(res.body) as { error: { code: string } }).error.code).to.equal("INVALID_DIGITAL_LINK");
      }
      // A trailing slash is tolerated.
      expect((await get(base, `${SHIRT.path}/`)).headers.location).to.equal(`${base}/scan/${SHIRT.uid}`);
    });
  });

  describe("a compressed Digital Link (GS1 Digital Link compression, compressed by GS1's toolkit)", () => {
    const BROWSER = { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    const CLIENTS = [BROWSER, { Accept: "application/linkset+json" }, { Accept: "application/json" }];

    /** What a client notices of an answer; an error's request id differs from one request to the next. */
    function seen(answer: RawAnswer) {
      const json = /json/.test(String(answer.headers["content-type"])) ? (JSON.parse(answer.body) as { error?: Record<string, unknown> }) : undefined;
      if (json?.error) delete json.error.request_id;
      return { status: answer.status, location: answer.headers.location, type: answer.headers["content-type"], body: json ?? answer.body, cors: answer.headers["access-control-allow-origin"] };
    }

    /** The Link header's links; a compressed request's has the uncompressed URI as owl:sameAs as well. */
    const links = (answer: RawAnswer) => (answer.headers.link ? String(answer.headers.link).split(", ").sort() : []);

    async function expectAnsweredAsUncompressed(uncompressed: string, options: { compressQuery: boolean }) {
      const compressed = compressWithGs1(uncompressed, options);
      expect(compressed, uncompressed).to.match(/^\/[A-Za-z0-9_-]{10,}(?:\?.*)?$/);
      for (const headers of CLIENTS) {
        const [plain, asCompressed] = [await get(base, uncompressed, headers), await get(base, compressed, headers)];
        const what = `${compressed} (${uncompressed}, Accept ${headers.Accept})`;
        expect(seen(asCompressed), what).to.deep.equal(seen(plain));
        if (plain.headers.link) {
          const canonical = `<${base}${uncompressed.split("?")[0]}>; rel="owl:sameAs"`;
          expect(links(asCompressed), what).to.deep.equal([...links(plain), canonical].sort());
        }
      }
      return compressed;
    }

    it("answers the demo Digital Link and GTIN, lot and serial links exactly as their uncompressed URIs, for browsers and linkset clients", async () => {
      const shirt = await expectAnsweredAsUncompressed(SHIRT.path, { compressQuery: true });
      expect(shirt).to.equal("/DBFRJxlqTtBy4v2mmmo");
      expect((await get(base, shirt, BROWSER)).headers.location).to.equal(`${base}/scan/${SHIRT.uid}`);
      const cases = [
        "/01/09520123000103",
        SAREE.path,
        "/01/09520123000202/10/JAM2026-07",
        SWEATER.path,
        "/01/09520123000103/21/NO-SUCH-SERIAL",
        "/01/09506000134352",
        "/01/09520123000103/22/V1/21/OXF-0001",
      ];
      for (const path of cases) await expectAnsweredAsUncompressed(path, { compressQuery: true });
    });

    it("reads serials in every alphabet of the compression to the item that has them", async () => {
      for (const [i, serial] of ALPHABETS.serials.entries()) {
        const path = `/01/${ALPHABETS.gtin}/21/${encodeURIComponent(serial)}`;
        const compressed = await expectAnsweredAsUncompressed(path, { compressQuery: true });
        expect((await get(base, compressed, BROWSER)).headers.location, serial).to.equal(`${base}/scan/${ALPHABETS.uids[i]}`);
      }
    });

    it("keeps the query: linkType, pairs passed on and data attributes, whether compressed into the path or left in the query", async () => {
      const queries = ["?foo=bar&lang=bn", "?linkType=gs1:dpp", "?linkType=gs1:certificationInfo&utm_source=label", "?linkType=linkset", "?linkType=gs1:recipeInfo", "?17=261231&foo=bar"];
      for (const query of queries) {
        for (const compressQuery of [true, false]) await expectAnsweredAsUncompressed(`${SHIRT.path}${query}`, { compressQuery });
      }
      const dpp = compressWithGs1(`${SHIRT.path}?linkType=gs1:dpp`);
      expect(dpp).not.to.contain("?");
      expect((await get(base, dpp)).headers.location).to.equal(`${base}/api/dpp/${SHIRT.uid}/credential`);
      // Pairs compressed into the path come first, then the request's own.
      expect((await get(base, `${compressWithGs1(`${SHIRT.path}?foo=bar`)}?lang=bn`)).headers.location).to.equal(`${base}/scan/${SHIRT.uid}?foo=bar&lang=bn`);
    });

    it("answers OPTIONS, and on a brand's host resolves that brand's compressed links only", async () => {
      const shirt = compressWithGs1(SHIRT.path);
      const options = await fetch(`${base}${shirt}`, { method: "OPTIONS" });
      expect(options.status).to.equal(204);
      expect(options.headers.get("link")).to.contain(`<${base}${SHIRT.path}>; rel="owl:sameAs"`);
      const own = await get(base, compressWithGs1(`/01/${OTHER.gtin}/21/${OTHER.serial}`), { Host: OTHER.host });
      expect(own.status).to.equal(307);
      expect(own.headers.location).to.match(new RegExp(`/scan/${OTHER.uid}$`));
      expect((await get(base, shirt, { Host: OTHER.host, Accept: "application/json" })).status).to.equal(404);
    });

    it("refuses a compressed link it cannot read: 400 INVALID_DIGITAL_LINK saying why, an HTML page for a browser, never a 500", async () => {
      const gtin = (value: string) => gs1Toolkit.binaryEncodingOfGS1AIKey("01") + gs1Toolkit.binaryEncodingOfValue({ "01": value }, "01");
      const refused: Array<[string, RegExp]> = [
        ["/DBFRJxlqTtBy4v2m", /ends in the middle of the value of AI 21/],
        ["/DBFRJxlqTtBy4v2mmmp", /ends with stray bits/],
        [compressWithGs1(`${SHIRT.path}?240=ABC`), /carries AI 240, which this resolver does not read/],
        // AI 21 in encoding 5, which the standard does not define.
        [`/${segmentOfBits(`${gtin("09520123000103")}00100001101000010000000`)}`, /gives AI 21 an unknown encoding \(5\)/],
        [`/${segmentOfBits(`${gtin("09520123000103")}${gtin("09520123000202")}`)}`, /gives AI 01 twice/],
        // Read, but the GTIN's check digit is wrong: the uncompressed link's own 400.
        [`/${segmentOfBits(gtin("09520123000104"))}`, /gtin has a wrong check digit/],
      ];
      for (const [path, reason] of refused) {
        const res = await get(base, path, { Accept: "application/json" });
        expect(res.status, path).to.equal(400);
        const { error } = JSON.parse(res.body) as { error: { code: string; message: string } };
        expect(error.code, path).to.equal("INVALID_DIGITAL_LINK");
        expect(error.message, path).to.match(reason);
        expect(res.headers["access-control-allow-origin"]).to.equal("*");
      }
      const page = await get(base, "/DBFRJxlqTtBy4v2m", BROWSER);
      expect(page.status).to.equal(400);
      expect(page.headers["content-type"]).to.match(/text\/html/);
      expect(page.body).to.contain("compressed GS1 Digital Link");
    });
  });

  describe("a trade item's link (/01/{gtin})", () => {
    it("is the item when the GTIN has one, and the brand when it has several (a GTIN-8 read as its GTIN-14)", async () => {
      expect((await get(base, "/01/09520123000103")).headers.location).to.equal(`${base}/scan/${SHIRT.uid}`);
      const multi = await createBrand(stack.api.db, { slug: "gs1-multi", name: "Multi Item Brand", uidPrefix: "GSM" });
      for (const serial of ["A1", "A2"]) {
        await registerProduct(stack.api.db, { id: multi.brand.id, slug: "gs1-multi", uidPrefix: "GSM" }, { sku: `GSM-${serial}`, name: "Tee", category: "t-shirt", price: 5, gtin: "96385074", serial });
      }
      const res = await get(base, "/01/96385074");
      expect(res.status).to.equal(307);
      expect(res.headers.location).to.equal(`${base}/brand/gs1-multi`);
      const linkset = JSON.parse((await get(base, "/01/00000096385074?linkType=linkset")).body) as { linkset: Array<Record<string, unknown>> };
      expect(validLinkset(linkset)).to.equal(true);
      expect(linkset.linkset[0]).to.have.property(`${GS1}homepage`);
      expect(linkset.linkset[0]).not.to.have.property(`${GS1}pip`);
      // One of them by its serial is that item.
      expect((await get(base, "/01/96385074/21/A2")).headers.location).to.match(/\/scan\/GSM-/);
    });
  });

  describe("on a brand's own host", () => {
    it("resolves that brand's items only: another brand's is unknown there", async () => {
      const own = await get(base, `/01/${OTHER.gtin}/21/${OTHER.serial}`, { Host: OTHER.host });
      expect(own.status).to.equal(307);
      expect(own.headers.location).to.match(new RegExp(`/scan/${OTHER.uid}$`));
      const foreign = await get(base, SHIRT.path, { Host: OTHER.host, Accept: "application/json" });
      expect(foreign.status).to.equal(404);
      expect((JSON.parse(foreign.body) as { error: { code: string } }).error.code).to.equal("NOT_FOUND");
      // The main host resolves both.
      expect((await get(base, `/01/${OTHER.gtin}/21/${OTHER.serial}`)).status).to.equal(307);
      const description = JSON.parse((await get(base, "/.well-known/gs1resolver", { Host: OTHER.host })).body) as { resolverRoot: string };
      expect(description.resolverRoot).to.be.a("string");
    });
  });

  it("describes itself at /.well-known/gs1resolver", async () => {
    const res = await get(base, "/.well-known/gs1resolver");
    expect(res.status).to.equal(200);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(body).to.include({ resolverRoot: base, linkTypeDefaultCanBeLinkset: false });
    expect(validDescription(body), JSON.stringify(validDescription.errors)).to.equal(true);
    expect(body.supportedPrimaryKeys).to.deep.equal(["01"]);
    expect((body.supportedLinkType as Array<{ prefix: string }>).every((t) => /^[A-Za-z_][\w-]*:$/.test(t.prefix))).to.equal(true);
    expect(body.name).to.be.a("string");
    const types = (body.supportedLinkType as Array<{ namespace: string; prefix: string; terms: string[] }>).find((t) => t.prefix === "gs1:")!;
    expect(types.namespace).to.equal(GS1);
    expect(types.terms).to.include.members(["gs1:pip", "gs1:dpp", "gs1:defaultLink", "gs1:certificationInfo"]);
  });
});
