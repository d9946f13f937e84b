// The dashboard's CSV product import on a real Postgres and the real API: 5,000 rows with bad ones among them, the
// errors CSV holding exactly the bad rows with their reasons, the same verdicts as POST /api/v1/products, progress,
// limits, roles, CSRF, and one brand never seeing another's imports. No chain: an import mints nothing.
import { expect } from "chai";
import { neutralizeFormula } from "../../api/src/imports/service";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { createBrand } from "../../api/src/brands/service";
import { upsertFactoryProfile } from "../../api/src/factories/factories.repo";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { productCsv } from "../../scripts/lib/product-csv";
import { OpenApiContract } from "../support/contract";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const HEADER = "sku,name,category,price,currency,fabric_type,description,factory_id,fiber_composition,certifications,care_instructions,country_of_manufacture";

/** Bad rows, each with a fragment of the reason the errors CSV must give. Every one is refused by v1 too. */
const BAD_ROWS: Array<{ cells: string; reason: string }> = [
  { cells: "BAD-1,,t-shirt,10,,,,,,,,", reason: "name: is required" },
  { cells: "BAD-2,No price,t-shirt,,,,,,,,,", reason: "price: is required" },
  { cells: "BAD-3,Text price,t-shirt,ten,,,,,,,,", reason: "price: must be number" },
  { cells: "BAD-4,Negative,t-shirt,-5,,,,,,,,", reason: "price: must be >= 0" },
  { cells: "BAD-5,Cents,t-shirt,9.999,,,,,,,,", reason: "price: must have at most 2 decimals" },
  { cells: "BAD-6,Currency,t-shirt,10,XYZ,,,,,,,", reason: "currency: is not an ISO 4217 currency code" },
  { cells: "BAD-7,Fibres,t-shirt,10,,,,,cotton:60;polyester:30,,,", reason: "fiber_composition: percentages must sum to 100 (got 90)" },
  { cells: "BAD-8,Fibre name,t-shirt,10,,,,,cottonish:100,,,", reason: "fiber_composition.0.fiber: must be equal to one of the allowed values" },
  { cells: "BAD-9,Fibre format,t-shirt,10,,,,,cotton 100,,,", reason: 'fiber_composition: must be "fibre:percent" pairs' },
  { cells: "BAD-10,Factory,t-shirt,10,,,,999999,,,,", reason: "factory_id: is not a registry factory" },
  { cells: "BAD-11,Country,t-shirt,10,,,,,,,,Bangladesh", reason: "country_of_manufacture: must match pattern" },
  { cells: "BAD-12,Certificate,t-shirt,10,,,,,,GOTS:CU:123,,", reason: "certifications: must be" },
  { cells: "BAD-13,Certificate code,t-shirt,10,,,,,,NOPE:CU:123:2027-01-01,,", reason: "certifications.0.code: must be equal to one of the allowed values" },
  { cells: "bad sku!,Sku,t-shirt,10,,,,,,,,", reason: "sku: must match pattern" },
  { cells: "BAD-15,Short row,t-shirt", reason: "row: has 3 cells; the header has 12" },
];


/**
 * Every answer the dashboard gives in this file is checked against the served OpenAPI document (status, content type,
 * JSON body against its schema); the last test reports what departed from it.
 */
function contractChecked(contract: () => OpenApiContract, departures: Promise<string[]>[]) {
  return (client: DashboardClient): DashboardClient => ({
    ...client,
    call: async (path, init) => {
      const res = await client.call(path, init);
      departures.push(contract().check(init?.method ?? "GET", path, res.clone()));
      return res;
    },
  });
}
describe("dashboard: CSV product import", () => {
  let api: InProcessApi;
  let brand: { id: number; slug: string; key: string };
  let other: { id: number };
  let editor: DashboardClient;
  let viewer: DashboardClient;
  let otherEditor: DashboardClient;
  let contract: OpenApiContract;
  const departures: Promise<string[]>[] = [];
  const checked = contractChecked(() => contract, departures);

  before(async function () {
    this.timeout(120_000);
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("dashboard_imports"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    const a = await createBrand(api.db, { slug: "import-a", name: "Import A", uidPrefix: "IMA", plan: "growth" });
    const b = await createBrand(api.db, { slug: "import-b", name: "Import B", uidPrefix: "IMB" });
    brand = { id: a.brand.id, slug: a.brand.slug, key: a.key.key };
    other = { id: b.brand.id };
    await upsertFactoryProfile(api.db, {
      factory_id: 4242, name: "Dhaka Knit", city: "Dhaka", country: "BD", capacity_units_per_month: 1000, min_order_units: 10, lead_time_days: 30, metadata_hash: `0x${"11".repeat(32)}`,
    });
    contract = await OpenApiContract.load(api.url);
    editor = checked(await dashboardClient(api.url, api.db, brand.id, "editor"));
    viewer = checked(await dashboardClient(api.url, api.db, brand.id, "viewer"));
    otherEditor = checked(await dashboardClient(api.url, api.db, other.id, "owner"));
  });
  after(() => api?.close());

  const upload = (client: DashboardClient, csv: string, headers: Record<string, string> = {}) =>
    client.call("/api/dashboard/imports", { method: "POST", headers: { "Content-Type": "text/csv", ...headers }, body: csv });

  async function finished(client: DashboardClient, id: string) {
    return waitFor(
      `import ${id} to finish`,
      async () => {
        const job = (await json(await client.call(`/api/dashboard/imports/${id}`))).data;
        return job.status === "running" ? undefined : job;
      },
      60_000,
      20,
    );
  }

  it("imports 5,000 rows: the bad ones come back in the errors CSV with their reasons, the rest are in the list", async function () {
    this.timeout(120_000);
    // 4,985 good rows from the benchmark's generator, with the bad rows spread through them.
    const good = productCsv(5000 - BAD_ROWS.length, "GOOD").trim().split("\n").slice(1);
    const goodWithFactory = good.map((line, i) => {
      // The generator's columns, re-ordered into HEADER; every 500th row names the registry factory.
      const [sku, name, category, price, currency, fabric, description, fibres, certs, care, country] = parse(line)[0] as string[];
      const quoted = (s: string) => `"${s!.replaceAll('"', '""')}"`;
      return [sku, quoted(name!), category, price, currency, fabric, quoted(description!), i % 500 === 0 ? "4242" : "", fibres, quoted(certs!), quoted(care!), country].join(",");
    });
    const lines = [...goodWithFactory];
    BAD_ROWS.forEach((bad, i) => lines.splice(1 + i * 331, 0, bad.cells));
    const res = await upload(editor, `${HEADER}\n${lines.join("\n")}\n`);
    expect(res.status, await res.clone().text()).to.equal(202);
    const started = (await json(res)).data;
    expect(started).to.include({ status: "running", total: 5000 });
    expect(started.id).to.match(/^[0-9]+$/);

    const job = await finished(editor, started.id);
    expect(job).to.include({ status: "done", total: 5000, processed: 5000, imported: 5000 - BAD_ROWS.length, failed: BAD_ROWS.length });
    expect(job.errors_url).to.equal(`${api.url}/api/dashboard/imports/${started.id}/errors.csv`);
    expect(job.finished_at).to.be.a("string");

    // The errors CSV: the header as uploaded plus `error`, then exactly the bad rows, as uploaded (a cell a spreadsheet
    // would run as a formula behind an apostrophe), in upload order.
    const errors = await editor.call(`/api/dashboard/imports/${started.id}/errors.csv`);
    expect(errors.status).to.equal(200);
    expect(errors.headers.get("content-type")).to.match(/^text\/csv/);
    const table = parse(await errors.text(), { relax_column_count: true }) as string[][];
    expect(table[0]).to.deep.equal([...HEADER.split(","), "error"]);
    const rows = table.slice(1);
    expect(rows).to.have.length(BAD_ROWS.length);
    BAD_ROWS.forEach((bad, i) => {
      const uploaded = bad.cells.split(",");
      expect(rows[i]!.slice(0, uploaded.length), bad.cells).to.deep.equal(uploaded.map(neutralizeFormula));
      expect(rows[i]![12], bad.cells).to.include(bad.reason);
    });

    // The good rows are products of the brand, with the cells' formats read as the v1 body would be.
    const list = await json(await editor.call("/api/dashboard/products?q=GOOD-&per_page=100"));
    expect(list.meta.total).to.equal(5000 - BAD_ROWS.length);
    const listed = await json(await editor.call("/api/dashboard/products?q=GOOD-1234&per_page=1"));
    expect(listed.data).to.have.length(1);
    expect(listed.data[0]).to.include({ sku: "GOOD-1234", name: "Bench Tee 1234, organic", category: "t-shirt", passport_status: "unissued", tag_assigned: false });
    const detail = (await json(await editor.call(`/api/dashboard/products/${listed.data[0].uid}`))).data;
    expect(detail.fiber_composition).to.deep.equal([{ fiber: "cotton", percent: 95 }, { fiber: "elastane", percent: 5 }]);
    expect(detail.certifications).to.deep.equal([{ code: "GOTS", issuer: "Control Union", number: "CU-1234", valid_until: "2027-01-01" }]);
    expect(detail).to.include({ price: 998.5, currency: "BDT", description: "Crew neck, 180 gsm", care_instructions: "Machine wash at 30 °C" });
    expect(detail.passport.content.country_of_manufacture).to.equal("BD");
    // The factory's country fills in for a row that names the factory and no country: not here (BD given), so read
    // the row with the factory to see it linked.
    const withFactory = (await json(await editor.call("/api/dashboard/products?q=GOOD-500&per_page=5"))).data.find((p: { sku: string }) => p.sku === "GOOD-500");
    const factoryDetail = (await json(await editor.call(`/api/dashboard/products/${withFactory.uid}`))).data;
    expect(factoryDetail.factory).to.deep.equal({ id: 4242, name: "Dhaka Knit", city: "Dhaka", country: "BD" });

    // One audit entry for the import.
    const audit = await api.db("app.audit_log").where({ brand_id: brand.id, action: "product.imported" });
    expect(audit).to.have.length(1);
    expect(audit[0].details).to.include({ import_id: started.id, total: 5000, imported: 5000 - BAD_ROWS.length, failed: BAD_ROWS.length });
    expect(audit[0].actor).to.equal(editor.email);
  });

  it("refuses each bad row for the reason POST /api/v1/products gives for the same body", async function () {
    this.timeout(60_000);
    // The v1 bodies of the bad rows that are well-formed CSV products (the short row has no v1 equivalent).
    const bodies: Array<{ body: Record<string, unknown>; reason: string }> = [
      { body: { sku: "V1-1", category: "t-shirt", price: 10 }, reason: "name" },
      { body: { sku: "V1-3", name: "x", category: "t-shirt", price: "ten" }, reason: "price" },
      { body: { sku: "V1-5", name: "x", category: "t-shirt", price: 9.999 }, reason: "price" },
      { body: { sku: "V1-6", name: "x", category: "t-shirt", price: 10, currency: "XYZ" }, reason: "currency" },
      { body: { sku: "V1-7", name: "x", category: "t-shirt", price: 10, fiber_composition: [{ fiber: "cotton", percent: 60 }, { fiber: "polyester", percent: 30 }] }, reason: "fiber_composition" },
      { body: { sku: "V1-10", name: "x", category: "t-shirt", price: 10, factory_id: 999999 }, reason: "factory_id" },
    ];
    const csvFor = (body: Record<string, unknown>) => {
      const fibres = (body.fiber_composition as Array<{ fiber: string; percent: number }> | undefined)?.map((s) => `${s.fiber}:${s.percent}`).join(";") ?? "";
      return [body.sku, body.name ?? "", body.category, body.price, body.currency ?? "", "", "", body.factory_id ?? "", fibres, "", "", ""].join(",");
    };
    const res = await upload(editor, `${HEADER}\n${bodies.map((b) => csvFor(b.body)).join("\n")}\n`);
    const job = await finished(editor, (await json(res)).data.id);
    expect(job).to.include({ imported: 0, failed: bodies.length });
    const rows = (parse(await (await editor.call(`/api/dashboard/imports/${job.id}/errors.csv`)).text()) as string[][]).slice(1);
    for (const [i, { body, reason }] of bodies.entries()) {
      const v1 = await fetch(`${api.url}/api/v1/products`, {
        method: "POST",
        headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(v1.status).to.equal(422);
      const details = (await json(v1)).error.details as Array<{ field: string; problem: string }>;
      const expected = details.map((d) => `${d.field}: ${d.problem}`).join("; ");
      expect(expected).to.include(reason);
      expect(rows[i]![12], JSON.stringify(body)).to.equal(expected);
    }
  });

  it("takes a corrected errors CSV back as it is (its error column is ignored)", async () => {
    const res = await upload(editor, `${HEADER},error\nFIXED-1,Fixed tee,t-shirt,10,,,,,,,,,"name: is required"\n`);
    expect(res.status).to.equal(202);
    const job = await finished(editor, (await json(res)).data.id);
    expect(job).to.include({ status: "done", imported: 1, failed: 0, errors_url: null });
  });

  it("imports GS1 identifiers: a GTIN-13 stored as GTIN-14, and a GTIN and serial taken already or twice in the file fail their row", async () => {
    const gs1 = "sku,name,category,price,gtin,lot,serial";
    const first = await upload(editor, `${gs1}\nGS1-1,Tee one,t-shirt,10,9520123000516,L-7,S-0001\n`);
    expect((await finished(editor, (await json(first)).data.id)).imported).to.equal(1);
    const stored = await api.db("app.products").where({ brand_id: brand.id, sku: "GS1-1" }).first("gtin", "lot", "serial");
    expect(stored).to.deep.equal({ gtin: "09520123000516", lot: "L-7", serial: "S-0001" });

    const rows = [
      "GS1-2,Tee two,t-shirt,10,09520123000516,,S-0002", // imported
      "GS1-3,Same item as GS1-1,t-shirt,10,09520123000516,,S-0001", // taken by an earlier import
      "GS1-4,Twin of GS1-2,t-shirt,10,9520123000516,,S-0002", // repeats row 2 of this file, written as a GTIN-13
      "GS1-5,Serial alone,t-shirt,10,,,S-0009",
      "GS1-6,Bad check digit,t-shirt,10,09520123000519,,S-0010",
      "GS1-7,GTIN and lot only,t-shirt,10,09520123000516,L-8,", // a batch, not an item: no uniqueness
    ];
    const res = await upload(editor, `${gs1}\n${rows.join("\n")}\n`);
    const job = await finished(editor, (await json(res)).data.id);
    expect(job).to.include({ imported: 2, failed: 4 });
    const errors = (parse(await (await editor.call(`/api/dashboard/imports/${job.id}/errors.csv`)).text()) as string[][]).slice(1);
    expect(errors.map((r) => [r[0], r[7]])).to.deep.equal([
      ["GS1-3", "serial: a product with GTIN 09520123000516 and serial S-0001 is registered already; each item needs its own serial"],
      ["GS1-4", "serial: row 2 has this GTIN and serial already; each item needs its own serial"],
      ["GS1-5", "serial: needs a GTIN"],
      ["GS1-6", errors.find((r) => r[0] === "GS1-6")![7]!],
    ]);
    expect(errors.find((r) => r[0] === "GS1-6")![7]).to.match(/^gtin: .*check digit/);
    const imported = await api.db("app.products").where({ brand_id: brand.id }).whereIn("sku", ["GS1-2", "GS1-7"]).orderBy("sku").select("sku", "gtin", "lot", "serial");
    expect(imported).to.deep.equal([
      { sku: "GS1-2", gtin: "09520123000516", lot: null, serial: "S-0002" },
      { sku: "GS1-7", gtin: "09520123000516", lot: "L-8", serial: null },
    ]);
  });

  it("fails the rows of a GTIN another brand's products carry, without saying whose", async () => {
    await api.db("app.gtin_owners").insert({ gtin: "04012345000023", brand_id: other.id });
    const res = await upload(editor, "sku,name,category,price,gtin,serial\nOWN-1,Theirs,t-shirt,10,04012345000023,S-1\nOWN-2,Mine,t-shirt,10,04012345000030,S-1\n");
    const job = await finished(editor, (await json(res)).data.id);
    expect(job).to.include({ imported: 1, failed: 1 });
    const errors = (parse(await (await editor.call(`/api/dashboard/imports/${job.id}/errors.csv`)).text()) as string[][]).slice(1);
    expect(errors.map((r) => [r[0], r[6]])).to.deep.equal([["OWN-1", "gtin: GTIN 04012345000023 is used by another brand's products. A GTIN belongs to the brand owner whose GS1 company prefix it carries; use one of your own."]]);
    expect(await api.db("app.gtin_owners").where({ gtin: "04012345000030" }).first("brand_id")).to.deep.equal({ brand_id: brand.id });
  });

  it("fails the row of a GTIN and serial registered while its chunk was being checked, importing the rest", async () => {
    // A registration that lands between the check and the insert, made deterministic: a trigger registers a twin of
    // row RACE-1 just before RACE-1's own insert.
    await api.db.raw(`
      CREATE FUNCTION public.register_twin_first() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE twin app.products;
      BEGIN
        IF NEW.sku = 'RACE-1' THEN
          twin := NEW;
          twin.id := nextval(pg_get_serial_sequence('app.products', 'id'));
          twin.uid := overlay(NEW.uid placing 'Z' from length(NEW.uid));
          twin.sku := 'RACE-TWIN';
          INSERT INTO app.products SELECT (twin).*;
        END IF;
        RETURN NEW;
      END $$`);
    await api.db.raw("CREATE TRIGGER register_twin_first BEFORE INSERT ON app.products FOR EACH ROW EXECUTE FUNCTION public.register_twin_first()");
    try {
      const res = await upload(editor, "sku,name,category,price,gtin,serial\nRACE-0,Before,t-shirt,10,09520123000516,R-0\nRACE-1,Raced,t-shirt,10,09520123000516,R-1\nRACE-2,After,t-shirt,10,09520123000516,R-2\n");
      const job = await finished(editor, (await json(res)).data.id);
      expect(job).to.include({ status: "done", total: 3, processed: 3, imported: 2, failed: 1 });
      const errors = (parse(await (await editor.call(`/api/dashboard/imports/${job.id}/errors.csv`)).text()) as string[][]).slice(1);
      expect(errors).to.deep.equal([["RACE-1", "Raced", "t-shirt", "10", "09520123000516", "R-1", "serial: a product with GTIN 09520123000516 and serial R-1 is registered already; each item needs its own serial"]]);
      const skus = await api.db("app.products").where({ brand_id: brand.id }).where("sku", "like", "RACE-%").orderBy("sku").pluck("sku");
      expect(skus).to.deep.equal(["RACE-0", "RACE-2", "RACE-TWIN"]);
    } finally {
      await api.db.raw("DROP TRIGGER register_twin_first ON app.products");
      await api.db.raw("DROP FUNCTION public.register_twin_first()");
    }
  });

  it("refuses an unusable upload whole, naming the problem: header, format, size, type, row count", async function () {
    this.timeout(60_000);
    const problems = async (res: Response) => {
      const body = await json(res);
      return { status: res.status, code: body.error.code, fields: (body.error.details ?? []).map((d: { field: string }) => d.field) };
    };
    expect(await problems(await upload(editor, "sku,name,category,colour\nA,B,t-shirt,red\n"))).to.deep.equal({ status: 422, code: "VALIDATION_ERROR", fields: ["colour", "price"] });
    expect(await problems(await upload(editor, "sku,name,name,category,price\nA,B,B,t-shirt,1\n"))).to.deep.equal({ status: 422, code: "VALIDATION_ERROR", fields: ["name"] });
    expect(await problems(await upload(editor, `${HEADER}\n`))).to.deep.equal({ status: 422, code: "VALIDATION_ERROR", fields: ["body"] });
    expect(await problems(await upload(editor, `${HEADER}\n"unclosed,quote,t-shirt,1\n`))).to.deep.equal({ status: 422, code: "VALIDATION_ERROR", fields: ["body"] });
    expect(await problems(await upload(editor, `${HEADER}\n${"A,B,t-shirt,1,,,,,,,,\n".repeat(20_001)}`))).to.deep.equal({ status: 422, code: "VALIDATION_ERROR", fields: ["body"] });
    const json415 = await editor.call("/api/dashboard/imports", { method: "POST", json: { sku: "A" } });
    expect(json415.status).to.equal(415);
    const big = `${HEADER}\n${"x".repeat(10 * 1024 * 1024)}\n`;
    const tooBig = await upload(editor, big);
    expect(tooBig.status).to.equal(413);
    expect((await json(tooBig)).error.code).to.equal("PAYLOAD_TOO_LARGE");
    // Nothing of any of them was imported, and no job was left behind.
    expect(await api.db("app.import_jobs").where({ brand_id: brand.id, status: "running" })).to.have.length(0);
  });

  it("refuses a file past a cap of its shape at once, saying which, and a long list of bad columns briefly", async function () {
    this.timeout(60_000);
    const refusal = async (res: Response) => {
      const body = await json(res);
      return { status: res.status, code: body.error?.code, details: body.error?.details as Array<{ field: string; problem: string }> };
    };
    const row = "A,B,t-shirt,1,,,,,,,,";
    expect(await refusal(await upload(editor, `${HEADER}\n${row}${",".repeat(100)}\n`))).to.deep.include({
      status: 422, code: "VALIDATION_ERROR", details: [{ field: "body", problem: "has more than 64 columns on line 2" }],
    });
    expect(await refusal(await upload(editor, `\n${HEADER},${"x".repeat(1000)}\n${row}\n`))).to.deep.include({
      status: 422, code: "VALIDATION_ERROR", details: [{ field: "body", problem: "has a header longer than 1024 bytes on line 2" }],
    });
    const long = `A,B,t-shirt,1,,,"${"a line of text\n".repeat(5000)}",,,,,`;
    expect(await refusal(await upload(editor, `${HEADER}\n${row}\n${long}\n`))).to.deep.include({
      status: 422, code: "VALIDATION_ERROR", details: [{ field: "body", problem: "has a row longer than 65536 bytes on line 3" }],
    });
    // Forty-five unknown columns: the first few are named, then how many more.
    const unknown = Array.from({ length: 45 }, (_, i) => `colour${i}`).join(",");
    const brief = await refusal(await upload(editor, `${HEADER},${unknown}\n${row}\n`));
    expect(brief.status).to.equal(422);
    expect(brief.details.map((d) => d.field)).to.deep.equal([...Array.from({ length: 9 }, (_, i) => `colour${i}`), "header"]);
    expect(brief.details[9]!.problem).to.equal("has 36 more problems like these");
    // A body sent without a length is counted as it comes: past 10 MB (in fewer than 20,000 rows) it is refused as one
    // with a length is.
    const wide = `A,B,t-shirt,1,,,${"d".repeat(600)},,,,,\n`;
    const chunked = await editor.call("/api/dashboard/imports", {
      method: "POST",
      headers: { "Content-Type": "text/csv" },
      body: new Blob([`${HEADER}\n`, wide.repeat(20_000)]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(await refusal(chunked)).to.deep.include({ status: 413, code: "PAYLOAD_TOO_LARGE" });
    expect(await api.db("app.import_jobs").where({ brand_id: brand.id, status: "running" })).to.have.length(0);
  });

  it("runs one import per brand at a time, and reports a job whose process died as failed", async () => {
    // A job left running by a process that stopped: the brand cannot start another while its heartbeat is fresh.
    const [stuck] = await api.db("app.import_jobs")
      .insert({ brand_id: brand.id, actor: "someone", status: "running", header: JSON.stringify(["sku"]), total: 10 })
      .returning("id");
    const busy = await upload(editor, `${HEADER}\nX-1,Tee,t-shirt,1,,,,,,,,\n`);
    expect(busy.status).to.equal(409);
    expect((await json(busy)).error.code).to.equal("CONFLICT");
    await api.db("app.import_jobs").where({ id: stuck.id }).update({ heartbeat_at: api.db.raw("now() - interval '10 minutes'") });
    const read = (await json(await editor.call(`/api/dashboard/imports/${stuck.id}`))).data;
    expect(read).to.include({ status: "failed", processed: 0 });
    const next = await upload(editor, `${HEADER}\nX-1,Tee,t-shirt,1,,,,,,,,\n`);
    expect(next.status).to.equal(202);
    // Finished before the next test uploads: on a loaded machine it could still be running then, and refuse that one.
    await finished(editor, (await json(next)).data.id);
  });

  it("lets a viewer read but not import, needs the CSRF token, and keeps imports within their brand", async () => {
    const viewerUpload = await upload(viewer, `${HEADER}\nV-1,Tee,t-shirt,1,,,,,,,,\n`);
    expect(viewerUpload.status).to.equal(403);
    expect((await json(viewerUpload)).error.code).to.equal("FORBIDDEN");
    const noCsrf = await fetch(`${api.url}/api/dashboard/imports`, { method: "POST", headers: { Cookie: editor.cookie, "Content-Type": "text/csv" }, body: `${HEADER}\nC-1,Tee,t-shirt,1,,,,,,,,\n` });
    expect(noCsrf.status).to.equal(403);
    expect((await json(noCsrf)).error.code).to.equal("CSRF_FAILED");
    const anonymous = await fetch(`${api.url}/api/dashboard/imports/template.csv`);
    expect(anonymous.status).to.equal(401);

    const template = await viewer.call("/api/dashboard/imports/template.csv");
    expect(template.status).to.equal(200);
    const [header, example] = parse(await template.text()) as string[][];
    expect(header!.slice(0, 15)).to.deep.equal(["sku", "name", "category", "price", "currency", "fabric_type", "description", "factory_id", "fiber_composition", "certifications", "care_instructions", "country_of_manufacture", "gtin", "lot", "serial"]);
    expect(header!.slice(15)).to.include.members(["production_date", "stage_fibre", "stage_making_up", "materials", "substances", "durability", "care_symbols", "carbon_method"]);
    expect(example).to.have.length(header!.length);

    const mine = await api.db("app.import_jobs").where({ brand_id: brand.id }).orderBy("id").first("id");
    expect((await viewer.call(`/api/dashboard/imports/${mine.id}`)).status).to.equal(200);
    const theirs = await otherEditor.call(`/api/dashboard/imports/${mine.id}`);
    expect(theirs.status).to.equal(404);
    expect((await otherEditor.call(`/api/dashboard/imports/${mine.id}/errors.csv`)).status).to.equal(404);
    expect((await json(await otherEditor.call("/api/dashboard/products?q=GOOD-"))).meta.total).to.equal(0);
    expect((await editor.call("/api/dashboard/imports/abc")).status).to.equal(422);
  });

  /** The template's example row with some cells replaced, as a merchandiser would fill it; no GS1 identifiers. */
  async function templateRows(rows: Array<Record<string, string>>): Promise<{ header: string[]; csv: string }> {
    const [header, example] = parse(await (await editor.call("/api/dashboard/imports/template.csv")).text()) as string[][];
    const line = (changes: Record<string, string>) => header!.map((column, i) => changes[column] ?? (["gtin", "lot", "serial"].includes(column) ? "" : example![i]!));
    return { header: header!, csv: stringify([header!, ...rows.map(line)]) };
  }

  it("textile columns: imports the template's multi-stage garment, and a loosely written one, with every part of the section", async function () {
    this.timeout(60_000);
    const { csv } = await templateRows([
      { sku: "TEX-1" },
      {
        sku: "TEX-2",
        stage_fibre: "",
        stage_spinning: " gujarat spinning | in | OSH: in2024123abc ; Second Mill | IN | completed: 2026-01-05",
        stage_dyeing_printing_finishing: "Gazipur Dyeing | bd | from 2026-02-21",
        stage_making_up: "Smith; Sons Ltd | gb | completed: 2026-03-20 | 2026-03-01",
        materials: "Polyester 60 % cn Recycled 100% Post Consumer; COTTON 40%",
        care_symbols: "Wash 30; do-not-bleach; LINE DRY",
        durability: "Colour fastness washing | ISO 105-C06 | 4-5",
        substances: "Antimony trioxide | 1309-64-4 | | 0.015 % | fibres | bound in the fibre; no exposure in use",
        carbon_kg_co2e: "5,1",
        carbon_method: "PEF study",
        carbon_study_reference: "Tee PEF 2026, PEFCR Apparel 1.3, verified by TÜV",
      },
    ]);
    const job = await finished(editor, (await json(await upload(editor, csv))).data.id);
    expect(job, JSON.stringify(job)).to.include({ status: "done", imported: 2, failed: 0 });

    const textileOf = async (sku: string) => {
      const uid = (await json(await editor.call(`/api/dashboard/products?q=${sku}&per_page=1`))).data[0].uid;
      return (await json(await editor.call(`/api/dashboard/products/${uid}`))).data.textile;
    };
    const garment = await textileOf("TEX-1");
    expect(garment.stages.map((s: { stage: string; facility: { country: string } }) => `${s.stage}@${s.facility.country}`)).to.deep.equal([
      "fibre@CN", "spinning@IN", "weaving_knitting@BD", "dyeing_printing_finishing@BD", "making_up@BD",
    ]);
    expect(garment.stages[2]).to.deep.equal({
      stage: "weaving_knitting", facility: { name: "Dhaka Knit", country: "BD", id: { scheme: "gln", value: "0614141000005" } }, started: "2026-02-01", completed: "2026-02-20",
    });
    expect(garment.materials).to.deep.equal([
      { fibre: "polyester", mass_percent: 60, origin_country: "CN", recycled_percent: 100, recycled_origin: "post_consumer", certification: { code: "GRS", number: "CU-123456" } },
      { fibre: "cotton", mass_percent: 40, origin_country: "IN" },
    ]);
    expect(garment.substances_of_concern).to.deep.equal([
      { name: "Antimony trioxide", cas: "1309-64-4", ec: "215-175-0", concentration_percent: 0.02, location: "polyester fibre", safe_use: "no exposure in normal use" },
    ]);
    expect(garment.durability).to.deep.equal([
      { property: "pilling", standard: "ISO 12945-2", result: "4", class: "4" },
      { property: "dimensional_change", standard: "ISO 6330", result: "-2%" },
    ]);
    expect(garment).to.deep.include({
      production_date: "2026-03-20",
      commodity_code: { hs6: "610910", cn8: "61091000" },
      care: { symbols: ["wash_30", "do_not_bleach", "line_dry", "iron_low", "do_not_dry_clean"], text: "Wash inside out with similar colours." },
      repair: { instructions: "Re-sew a loose seam with polyester thread.", spare_parts: ["spare button", "thread"], service_url: "https://example.com/repair" },
      carbon: { method: "estimate", kg_co2e: 4.2 },
      images: ["https://example.com/images/tee-front.jpg", "https://example.com/images/tee-back.jpg"],
    });

    const loose = await textileOf("TEX-2");
    expect(loose.stages.slice(0, 3)).to.deep.equal([
      { stage: "spinning", facility: { name: "gujarat spinning", country: "IN", id: { scheme: "osh", value: "IN2024123ABC" } } },
      { stage: "spinning", facility: { name: "Second Mill", country: "IN" }, completed: "2026-01-05" },
      { stage: "weaving_knitting", facility: { name: "Dhaka Knit", country: "BD", id: { scheme: "gln", value: "0614141000005" } }, started: "2026-02-01", completed: "2026-02-20" },
    ]);
    expect(loose.stages[3]).to.deep.equal({ stage: "dyeing_printing_finishing", facility: { name: "Gazipur Dyeing", country: "BD" }, started: "2026-02-21" });
    // A ";" in a facility name does not start a new facility: a piece with no "|" begins the name of the one after it.
    expect(loose.stages[4]).to.deep.equal({ stage: "making_up", facility: { name: "Smith; Sons Ltd", country: "GB" }, started: "2026-03-01", completed: "2026-03-20" });
    expect(loose.materials).to.deep.equal([
      { fibre: "polyester", mass_percent: 60, origin_country: "CN", recycled_percent: 100, recycled_origin: "post_consumer" },
      { fibre: "cotton", mass_percent: 40 },
    ]);
    expect(loose.care.symbols).to.deep.equal(["wash_30", "do_not_bleach", "line_dry"]);
    // A ";" inside a safe-use note does not start a new substance: a piece with no "|" belongs to the one before.
    expect(loose.substances_of_concern).to.deep.equal([
      { name: "Antimony trioxide", cas: "1309-64-4", concentration_percent: 0.015, location: "fibres", safe_use: "bound in the fibre; no exposure in use" },
    ]);
    expect(loose.durability).to.deep.equal([{ property: "colour_fastness_washing", standard: "ISO 105-C06", result: "4-5" }]);
    expect(loose.carbon).to.deep.equal({ method: "pef_study", kg_co2e: 5.1, study_reference: "Tee PEF 2026, PEFCR Apparel 1.3, verified by TÜV" });
  });

  it("textile columns: fails each row with a malformed cell, naming the cell and what it expected", async function () {
    this.timeout(60_000);
    const bad: Array<{ changes: Record<string, string>; reason: string }> = [
      { changes: { production_date: "20/03/2026" }, reason: 'production_date: must be a date written YYYY-MM-DD (got "20/03/2026")' },
      { changes: { hs_code: "6109" }, reason: "hs_code: must be 6 digits" },
      { changes: { cn_code: "62091000" }, reason: "cn_code (textile.commodity_code.cn8): does not start with the HS-6 code 610910" },
      { changes: { stage_spinning: "Gujarat Spinning Mills | India" }, reason: 'stage_spinning: the country must be a two-letter ISO code such as BD or IN (got "India")' },
      { changes: { stage_making_up: "Dhaka Knit" }, reason: 'stage_making_up: must be "Facility name | country code"' },
      { changes: { stage_fibre: "Zhejiang | CN | duns:123456789" }, reason: 'stage_fibre: "duns:123456789" is neither an id (gln:…, osh:… or registry:…) nor a date' },
      { changes: { stage_making_up: "A | BD; Dhaka Knit | BD | 2026-03-20 | 2026-03-01" }, reason: "stage_making_up (textile.stages.5.completed): is before started" },
      // No date is dropped unsaid: a labelled one counts towards the two, and one label given twice is refused.
      { changes: { stage_fibre: "A | CN | started: 2025-11-01 | 2025-11-05 | 2025-11-30" }, reason: 'stage_fibre: has 3 dates: at most two, started then completed' },
      { changes: { stage_fibre: "A | CN | started: 2025-11-01 | from 2025-11-02" }, reason: 'stage_fibre: gives the started date twice ("2025-11-01" and "2025-11-02")' },
      { changes: { stage_spinning: "Gujarat Spinning Mills | IN; Surat" }, reason: 'stage_spinning: entry 2 ("Surat"): must be "Facility name | country code"' },
      { changes: { materials: "polyester sixty; cotton 40%" }, reason: 'materials: entry 1 ("polyester sixty"): "polyester sixty" must start with the fibre and its share' },
      { changes: { materials: "polyster 60%; cotton 40%" }, reason: 'materials: entry 1 ("polyster 60%"): "polyster" is not an EU 1007/2011 fibre name' },
      { changes: { materials: "polyester 60% recycled; cotton 40%" }, reason: '"recycled" must be followed by its share' },
      { changes: { materials: "polyester 50% recycled 30%; cotton 40%" }, reason: "materials (textile.materials): mass percentages sum to 90, not 100; materials (textile.materials.0.recycled_origin): is required when recycled_percent is above 0" },
      { changes: { substances: "Antimony trioxide | 1309-64-4" }, reason: 'substances: must be "name | CAS | EC | concentration % | location in the product | safe use"' },
      { changes: { substances: "Antimony trioxide | 1309-64-5 | | 0.02% | fibre" }, reason: "substances (textile.substances_of_concern.0.cas): has a wrong check digit (1309-64-5)" },
      { changes: { substances: "Antimony trioxide | | | a little | fibre" }, reason: 'substances: the concentration must be a percentage by weight such as 0.02% (got "a little")' },
      { changes: { durability: "softness | ISO 1 | good" }, reason: 'durability: "softness" is not a durability property (one of: pilling,' },
      { changes: { durability: "pilling | ISO 12945-2" }, reason: 'durability: must be "property | test standard | result | class"' },
      // A malformed second test is its own entry, refused, not swallowed into the first one's result.
      { changes: { durability: "pilling | ISO 12945-2 | 4; abrasion ISO 12947 20000 rubs" }, reason: 'durability: entry 2 ("abrasion ISO 12947 20000 rubs"): must be "property | test standard | result | class"' },
      { changes: { care_symbols: "wash_30; wash_31" }, reason: 'care_symbols: "wash_31" is not an ISO 3758 care symbol code' },
      { changes: { carbon_method: "guess" }, reason: 'carbon_method: must be pef_study or estimate (got "guess")' },
      { changes: { carbon_kg_co2e: "four" }, reason: 'carbon_kg_co2e: must be a number of kg CO2e per item, e.g. 4.2 (got "four")' },
      { changes: { carbon_method: "pef_study" }, reason: "carbon_study_reference (textile.carbon.study_reference): is required for a PEF study" },
      { changes: { repair_service_url: "http://example.com/repair" }, reason: 'repair_service_url (textile.repair.service_url): must match pattern "^https://"' },
    ];
    const { header, csv } = await templateRows(bad.map((b, i) => ({ sku: `TEXBAD-${i}`, ...b.changes })));
    const job = await finished(editor, (await json(await upload(editor, csv))).data.id);
    expect(job).to.include({ status: "done", imported: 0, failed: bad.length });
    const rows = (parse(await (await editor.call(`/api/dashboard/imports/${job.id}/errors.csv`)).text()) as string[][]).slice(1);
    const errorAt = header.length;
    bad.forEach((b, i) => {
      expect(rows[i]![0]).to.equal(`TEXBAD-${i}`);
      expect(rows[i]![errorAt], JSON.stringify(b.changes)).to.include(b.reason);
    });
  });

  it("textile columns: a CSV without them imports as before, with no textile section", async () => {
    expect(await api.db("app.products").where({ brand_id: brand.id }).whereLike("sku", "GOOD-%").whereNotNull("textile").count("* as n").first()).to.deep.equal({ n: 0 });
    expect(await api.db("app.products").where({ brand_id: brand.id }).whereLike("sku", "GOOD-%").count("* as n").first()).to.deep.equal({ n: 5000 - BAD_ROWS.length });
  });

  it("answered every call above as the OpenAPI document says", async () => {
    expect(departures.length).to.be.greaterThan(20);
    expect((await Promise.all(departures)).flat()).to.deep.equal([]);
  });
});
