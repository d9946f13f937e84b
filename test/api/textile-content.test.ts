/* eslint-disable @typescript-eslint/no-explicit-any -- the passports read here are JSON whose shape the test checks */
// The textile section (content version 4, issue 26) through the brand API and the EN 18222 API: accepted, checked
// beyond its schema (sums, CAS and EC check digits, a PEF study's reference), anchored with the rest, inherited part
// by part from a batch and a model, merge-patched and removed; a product without it keeps content version 3.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { keccak256, toUtf8Bytes } from "ethers";
import canonicalize from "canonicalize";
import { createBrand } from "../../api/src/brands/service";
import { casValid, ecValid } from "../../api/src/passports/textile";
import { escapeHtml } from "../../api/src/pages/html";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

type Client = { slug: string; key: string };
const V3 = "passport-registry/dpp-content/3";
const V4 = "passport-registry/dpp-content/4";

/** A multi-country chain: fibre and spinning abroad, knitting, dyeing and making-up in Bangladesh. */
const STAGES = [
  { stage: "fibre", facility: { name: "Izmir Recycled Fibres", country: "TR" } },
  { stage: "spinning", facility: { name: "Gujarat Spinning Mills", country: "IN", id: { scheme: "osh", value: "IN2021123AB12CD" } } },
  { stage: "weaving_knitting", facility: { name: "Gazipur Knit Composite", country: "BD", id: { scheme: "gln", value: "4006381333931" } }, started: "2026-09-01", completed: "2026-09-20" },
  { stage: "dyeing_printing_finishing", facility: { name: "Gazipur Knit Composite", country: "BD" } },
  { stage: "making_up", facility: { name: "Ashulia Apparel", country: "BD" } },
];
const MATERIALS = [
  { fibre: "cotton", mass_percent: 60, origin_country: "IN" },
  { fibre: "polyester", mass_percent: 40, origin_country: "TR", recycled_percent: 100, recycled_origin: "post_consumer" },
];

/** A facility name a brand could type: the pages must show it as text. */
const HOSTILE_FACILITY = `Ashulia <script>alert("x")</script> Apparel`;
/** Every part of the section, the stages out of order (the pages put them in processing order). */
const FULL_TEXTILE = {
  production_date: "2026-10-01",
  commodity_code: { hs6: "610910", cn8: "61091000" },
  stages: [{ stage: "making_up", facility: { name: HOSTILE_FACILITY, country: "BD" }, started: "2026-10-01", completed: "2026-10-12" }, ...STAGES.slice(0, 4)],
  materials: MATERIALS,
  substances_of_concern: [{ name: "Antimony trioxide", cas: "1309-64-4", ec: "215-175-0", concentration_percent: 0.02, location: "polyester fibres", safe_use: "No exposure in normal wear" }],
  durability: [{ property: "pilling", standard: "ISO 12945-2", result: "grade 4 after 2,000 rubs", class: "4" }],
  care: { symbols: ["wash_30", "do_not_bleach", "tumble_dry_low", "iron_low", "dry_clean_p"], text: "Wash inside out" },
  repair: { instructions: "Free seam repair for two years", spare_parts: ["buttons"], service_url: "https://repair.example.com/tee" },
  end_of_life: { recyclability: "Fibre-to-fibre recyclable", take_back: "Any of our shops takes it back", take_back_url: "https://example.com/take-back" },
  images: ["https://img.example.com/tee-front.jpg", "https://img.example.com/tee-back.jpg"],
  carbon: { method: "estimate", kg_co2e: 3.1 },
};

describe("textile content (content version 4)", () => {
  let stack: SeededStack;
  let brand: Client;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    const created = await createBrand(stack.api.db, { slug: "textile-brand", name: "Textile Brand", uidPrefix: "TXB" });
    brand = { slug: created.brand.slug, key: created.key.key };
  });

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${stack.api.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("knows the CAS and EC check digits of real substances", () => {
    expect(casValid("7732-18-5")).to.equal(true); // water
    expect(casValid("50-00-0")).to.equal(true); // formaldehyde
    expect(casValid("50-00-1")).to.equal(false);
    expect(ecValid("200-001-8")).to.equal(true); // formaldehyde
    expect(ecValid("200-001-7")).to.equal(false);
  });

  it("registers a garment with its textile section through v1 and anchors it as content version 4", async () => {
    const res = await call("POST", "/api/v1/products", {
      sku: "TX-1",
      name: "Recycled blend tee",
      category: "t-shirt",
      price: 990,
      textile: {
        production_date: "2026-10-01",
        commodity_code: { hs6: "610910", cn8: "61091000" },
        stages: STAGES,
        materials: MATERIALS,
        care: { symbols: ["wash_30", "do_not_bleach", "line_dry", "iron_low"] },
        carbon: { method: "estimate", kg_co2e: 3.1 },
      },
    });
    expect(res.status, await res.clone().text()).to.equal(201);
    const { uid } = (await json(res)).data;
    // Read whole with the brand's key: a public reader is not shown the facilities' names (docs/access.md), and the
    // anchored hash is over the whole content.
    const record = await json(await fetch(`${stack.api.url}/api/dpp/${uid}`, { headers: { Authorization: `Bearer ${brand.key}` } }));
    expect(record.content.schema).to.equal(V4);
    expect(record.content.textile.stages.map((s: any) => s.facility.country)).to.deep.equal(["TR", "IN", "BD", "BD", "BD"]);
    expect(record.content.textile.materials[1]).to.include({ recycled_percent: 100, recycled_origin: "post_consumer" });
    expect(keccak256(toUtf8Bytes(canonicalize(record.content)!))).to.equal(record.blockchain.computed_data_hash);

    const plain = await json(await call("POST", "/api/v1/products", { sku: "TX-0", name: "Plain tee", category: "t-shirt", price: 1 }));
    expect((await json(await fetch(`${stack.api.url}/api/dpp/${plain.data.uid}`))).content.schema).to.equal(V3);
  });

  it("refuses what the schema cannot catch, naming each field", async () => {
    const res = await call("POST", "/api/v1/products", {
      sku: "TX-2",
      name: "Bad tee",
      category: "t-shirt",
      price: 1,
      textile: {
        commodity_code: { hs6: "610910", cn8: "62034200" },
        materials: [{ fibre: "cotton", mass_percent: 60 }, { fibre: "polyester", mass_percent: 30, recycled_percent: 50 }],
        substances_of_concern: [{ name: "Formaldehyde", cas: "50-00-1", ec: "200-001-7", concentration_percent: 0.01, location: "whole garment" }],
        stages: [{ stage: "making_up", facility: { name: "X", country: "BD" }, started: "2026-10-02", completed: "2026-10-01" }],
        carbon: { method: "pef_study", kg_co2e: 2 },
      },
    });
    expect(res.status).to.equal(422);
    const fields = (await json(res)).error.details.map((d: any) => d.field);
    expect(fields).to.include.members([
      "textile.materials",
      "textile.materials.1.recycled_origin",
      "textile.substances_of_concern.0.cas",
      "textile.substances_of_concern.0.ec",
      "textile.stages.0.completed",
      "textile.commodity_code.cn8",
      "textile.carbon.study_reference",
    ]);
    const schema = await call("POST", "/api/v1/products", { sku: "TX-3", name: "Bad", category: "t-shirt", price: 1, textile: { care: { symbols: ["wash_31"] } } });
    expect(schema.status).to.equal(422);
  });

  it("inherits the textile section part by part through EN 18222, patches it, and removes it with null", async function () {
    this.timeout(180_000);
    const post = async (body: unknown) => {
      const res = await call("POST", "/api/dpp-lifecycle/v1/dpps", body);
      expect(res.status, await res.clone().text()).to.equal(201);
      return json(res);
    };
    const model = await post({
      granularity: "model",
      product: { sku: "TX-POLO", name: "Recycled polo", category: "polo-shirt" },
      textile: {
        materials: MATERIALS,
        durability: [{ property: "pilling", standard: "ISO 12945-2", result: "grade 4 after 2,000 rubs", class: "4" }],
        care: { symbols: ["wash_30", "line_dry"], text: "Wash inside out" },
      },
    });
    expect(model.contentSpecificationIds).to.deep.equal([V4]);
    const batch = await post({ granularity: "batch", model: model.digitalProductPassportId, textile: { stages: STAGES, production_date: "2026-10-01" } });
    const item = await post({ batch: batch.digitalProductPassportId });
    const textile = item[V4].textile;
    expect(textile.stages).to.deep.equal(STAGES);
    expect(textile.durability[0]).to.include({ standard: "ISO 12945-2" });
    // Each part comes from the nearest level that has it: the batch took durability and materials from the model.
    expect(batch[V4].passport.inherited).to.include({ "textile.durability": "model", "textile.materials": "model" });
    expect(batch[V4].passport.inherited).to.not.have.property("textile.stages");
    expect(item[V4].passport.inherited).to.include({ "textile.stages": "batch", "textile.production_date": "batch", "textile.durability": "batch" });

    const id = encodeURIComponent(item.digitalProductPassportId);
    const substance = { name: "Antimony trioxide", cas: "1309-64-4", ec: "215-175-0", concentration_percent: 0.02, location: "polyester fibres", safe_use: "No exposure in normal wear" };
    const patched = await call("PATCH", `/api/dpp-lifecycle/v1/dpps/${id}`, { [V4]: { textile: { substances_of_concern: [substance], care: { text: null } } } });
    expect(patched.status, await patched.clone().text()).to.equal(200);
    const after = await json(patched);
    expect(after[V4].textile.substances_of_concern).to.deep.equal([substance]);
    expect(after[V4].textile.care).to.deep.equal({ symbols: ["wash_30", "line_dry"] });
    expect(after.anchor.version).to.equal(2);

    const bad = await call("PATCH", `/api/dpp-lifecycle/v1/dpps/${id}`, { [V4]: { textile: { substances_of_concern: [{ ...substance, cas: "1309-64-5" }] } } });
    expect(bad.status).to.equal(422);

    const removed = await json(await call("PATCH", `/api/dpp-lifecycle/v1/dpps/${id}`, { [V4]: { textile: null } }));
    expect(removed.contentSpecificationIds).to.deep.equal([V3]);
    expect(removed[V3]).to.not.have.property("textile");
    expect(removed.anchor.version).to.equal(3);
  });

  it("shows the section on the scan page in English and Bengali, stage by stage in processing order, without what only authorised readers see", async () => {
    const res = await call("POST", "/api/v1/products", { sku: "TX-PAGE", name: "Made-where tee", category: "t-shirt", price: 990, textile: FULL_TEXTILE });
    expect(res.status, await res.clone().text()).to.equal(201);
    const { uid } = (await json(res)).data;
    const page = await (await fetch(`${stack.api.url}/scan/${uid}?lang=en`)).text();

    // Made where: fibre abroad first, making-up in Bangladesh last, each with its country and who stands behind it.
    const order = ["Türkiye", "India", "Weaving or knitting", "Making up (cutting and sewing)"].map((name) => page.indexOf(name));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)), String(order)).to.equal(true);
    expect(page).to.include("Made where").and.include("Bangladesh").and.include(">TR</span>");
    expect(page).to.include("2026-09-01 to 2026-09-20").and.include("Declared by the brand");
    // The facilities' names and identifiers are for authorised readers (docs/access.md): absent from the page, which
    // says so in one line. The durability results are for customers.
    for (const name of ["Izmir Recycled Fibres", "Gujarat Spinning Mills", "Gazipur Knit Composite", "Ashulia", "Open Supply Hub", "IN2021123AB12CD"]) {
      expect(page, name).to.not.include(name);
    }
    expect(page).to.include("Pilling").and.include("ISO 12945-2");
    expect(page).to.include("Some supply-chain and test details are available to authorised readers only.");
    // Materials with recycled content, the substance, care pictograms with their words, repair, end of life.
    expect(page).to.include("100% recycled (post-consumer)").and.include("Recycled content: 40% of the weight");
    expect(page).to.include("Antimony trioxide").and.include("CAS 1309-64-4").and.include("EC 215-175-0").and.include("0.02% by weight");
    expect(page.match(/<svg class="care-icon"/g) ?? []).to.have.length(5);
    for (const label of ["Wash at 30 °C", "Do not bleach", "Tumble dry, low heat", "Iron, low heat (110 °C), no steam", "Dry clean (P)"]) expect(page).to.include(`<span>${label}</span>`);
    expect(page).to.include('href="https://repair.example.com/tee"').and.include("Free seam repair").and.include("Any of our shops takes it back");
    expect(page).to.include('<img src="https://img.example.com/tee-front.jpg" alt="Made-where tee, photo 1 of 2" loading="lazy"');
    expect(page).to.include("2026-10-01").and.include(">HS 610910</span>").and.include(">CN 61091000</span>");
    // The figure is our estimate, named so, and no rating disc that could pass for a label.
    expect(page).to.include("3.10 kg CO2e").and.include("Our estimate");
    expect(page).to.not.include('class="disc');

    const bn = await (await fetch(`${stack.api.url}/scan/${uid}?lang=bn`)).text();
    expect(bn).to.include("কোথায় তৈরি").and.include("বাংলাদেশ").and.include("তুরস্ক").and.include("ব্লিচ করবেন না").and.include("আমাদের অনুমান");
    expect(bn).to.include("সরবরাহ শৃঙ্খল ও পরীক্ষার কিছু তথ্য কেবল অনুমোদিত পাঠকদের জন্য।").and.not.include("Gujarat Spinning Mills");

    const pef = await call("POST", "/api/v1/products", {
      sku: "TX-PEF", name: "PEF tee", category: "t-shirt", price: 990,
      textile: { carbon: { method: "pef_study", kg_co2e: 2.4, study_reference: "PEF-2026-017 (PEFCR Apparel 1.0, verified by Bureau X)" } },
    });
    const pefPage = await (await fetch(`${stack.api.url}/scan/${(await json(pef)).data.uid}`)).text();
    expect(pefPage).to.include(escapeHtml("From the brand's PEF study PEF-2026-017 (PEFCR Apparel 1.0, verified by Bureau X)")).and.not.include("Our estimate");
  });

  it("prints the section on the certificate PDF's textile pages", async function () {
    this.timeout(120_000);
    const res = await call("POST", "/api/v1/products", { sku: "TX-PDF", name: "Certified tee", category: "t-shirt", price: 990, textile: FULL_TEXTILE });
    const { uid } = (await json(res)).data;
    const issued = await call("POST", "/api/v1/certs/issue", { uid });
    expect(issued.status, await issued.clone().text()).to.equal(201);
    const pdf = await fetch(`${stack.api.url}/certificates/${uid}.pdf`);
    expect(pdf.status).to.equal(200);
    const dir = mkdtempSync(path.join(os.tmpdir(), "textile-pdf-"));
    try {
      const file = path.join(dir, "certificate.pdf");
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
      const pages = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).split("\f");
      expect(pages[0]).to.include(uid).and.not.include("MADE WHERE");
      const textile = pages.slice(1).join("\n");
      for (const text of ["MADE WHERE", "Türkiye (TR)", "Bangladesh (BD)", "100% recycled (post-consumer)", "CAS 1309-64-4", "Do not bleach [ISO 3758: do_not_bleach]", "Our estimate", "HS 610910"]) {
        expect(textile).to.include(text);
      }
      // A public document: the facilities' names and identifiers are not on it (docs/access.md); durability is.
      for (const text of ["Izmir Recycled Fibres", "Ashulia", "IN2021123AB12CD"]) expect(textile, text).to.not.include(text);
      expect(textile).to.include("PILLING").and.include("ISO 12945-2");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("marks the demo garment's stages its facilities confirmed, on the scan page and the PDF, and the others as declared", async () => {
    const item = await json(await fetch(stack.demo.en18222.read_url));
    const uid = item[V4].uid as string;
    const stages = (await json(await fetch(`${stack.api.url}/api/dpp/${uid}`))).textile_stages as Array<{ stage: string; attribution: string; confirmation: { tx_hash: string } | null }>;
    const confirmed = stages.filter((s) => s.attribution === "confirmed_by_facility");
    expect(confirmed.length, "the seed confirms some stages").to.be.at.least(1);
    expect(confirmed.length).to.be.below(stages.length);

    const html = await (await fetch(`${stack.api.url}/scan/${uid}`)).text();
    // The made-where card alone: the manufacturer card has its own attribution.
    const page = html.slice(html.indexOf('class="card made-where"'), html.indexOf("</ol>", html.indexOf('class="card made-where"')));
    expect(page.match(/✓ Confirmed by the facility on /g) ?? []).to.have.length(confirmed.length);
    expect(page.match(/Declared by the brand/g) ?? []).to.have.length(stages.length - confirmed.length);
    for (const { confirmation } of confirmed) expect(page).to.include(confirmation!.tx_hash);

    const dir = mkdtempSync(path.join(os.tmpdir(), "textile-pdf-"));
    try {
      const file = path.join(dir, "certificate.pdf");
      writeFileSync(file, Buffer.from(await (await fetch(`${stack.api.url}/certificates/${uid}.pdf`)).arrayBuffer()));
      const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
      expect(text.match(/Confirmed by the facility on/g) ?? []).to.have.length(confirmed.length);
      expect(text.match(/Declared by the brand/g) ?? []).to.have.length(stages.length - confirmed.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
