// The identifiers the EN 18223 header names: a brand's economic operator id (EORI or GLN) through the dashboard and
// the operator CLI, and a factory's GLN and Open Supply Hub id through the operator API and the CLI. Each checked,
// stored in one form, audited where it is a brand's; a factory's kept outside its anchored profile hash.
import { expect } from "chai";
import { createOperator } from "../../api/src/auth/operators";
import { createSession } from "../../api/src/auth/sessions";
import { createBrand } from "../../api/src/brands/service";
import { saveFactoryProfile } from "../../api/src/factories/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { runAdmin } from "../support/admin-cli";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const PATH = "/api/dashboard/economic-operator";
// GS1's example GLN, check digit valid; the same with its last digit changed.
const GLN = "4012345000009";
const BAD_GLN = "4012345000008";

describe("economic operator and facility identifiers", () => {
  let api: InProcessApi;
  let databaseUrl: string;
  let brand: { id: number; slug: string };
  let owner: DashboardClient;
  let admin: DashboardClient;
  let editor: DashboardClient;
  let viewer: DashboardClient;

  before(async () => {
    databaseUrl = await createTestDatabase("operator_identifiers");
    api = await startInProcessApi({ DATABASE_URL: databaseUrl, RPC_URL: `http://127.0.0.1:${await freePort()}` });
    const created = await createBrand(api.db, { slug: "eori-brand", name: "EORI Brand", uidPrefix: "EOR" });
    brand = { id: created.brand.id, slug: created.brand.slug };
    [owner, admin, editor, viewer] = await Promise.all(
      (["owner", "admin", "editor", "viewer"] as const).map((role) => dashboardClient(api.url, api.db, brand.id, role)),
    );
  });
  after(() => api?.close());

  const cli = (args: string[]) => runAdmin(args, { DATABASE_URL: databaseUrl });

  const put = (client: DashboardClient, value: unknown) => client.call(PATH, { method: "PUT", json: { economic_operator_id: value } });
  const stored = async () => (await api.db("app.brands").where({ id: brand.id }).first("economic_operator_id")).economic_operator_id as string | null;
  const audit = async () =>
    (await api.db("app.audit_log").where({ brand_id: brand.id }).where("action", "like", "economic_operator.%").orderBy("id").select("action", "actor", "target", "details")) as Array<{
      action: string;
      actor: string;
      target: string | null;
      details: Record<string, unknown>;
    }>;

  async function expectRefused(res: Response, field: string, problem: string) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(422);
    expect(body.error.code).to.equal("VALIDATION_ERROR");
    expect(body.error.details).to.have.length(1);
    expect(body.error.details[0].field).to.equal(field);
    expect(body.error.details[0].problem).to.contain(problem);
  }

  describe("a brand's economic operator id in the dashboard", () => {
    it("is not set at first, for every role that reads the brand's settings", async () => {
      for (const client of [owner, editor, viewer]) {
        const res = await client.call(PATH);
        expect(res.status).to.equal(200);
        expect((await json(res)).data).to.deep.equal({ economic_operator_id: null, scheme: null });
      }
    });

    it("saves an EORI upper case without the spaces typed, and audits it with who did it", async () => {
      const res = await put(owner, " de 1234 5678 9012 345 ");
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(body.data).to.deep.equal({ economic_operator_id: "DE123456789012345", scheme: "eori" });
      expect(await stored()).to.equal("DE123456789012345");
      expect((await json(await viewer.call(PATH))).data.economic_operator_id).to.equal("DE123456789012345");
      const [entry] = await audit();
      expect(entry).to.deep.include({ action: "economic_operator.updated", actor: owner.email, target: "DE123456789012345" });
      expect(entry!.details).to.deep.equal({ before: null, after: "DE123456789012345", scheme: "eori" });
    });

    it("takes a GLN with a valid check digit from an admin, and audits what it replaced", async () => {
      const body = await json(await put(admin, GLN));
      expect(body.data).to.deep.equal({ economic_operator_id: GLN, scheme: "gln" });
      const entries = await audit();
      expect(entries).to.have.length(2);
      expect(entries[1]!.details).to.deep.equal({ before: "DE123456789012345", after: GLN, scheme: "gln" });
    });

    it("records nothing when the value does not change", async () => {
      expect((await put(owner, GLN)).status).to.equal(200);
      expect(await audit()).to.have.length(2);
    });

    const invalid: Array<[string, string, string]> = [
      ["a GLN with a wrong check digit", BAD_GLN, "check digit (the last digit) should be 9"],
      ["a country code that is not one", "QQ123456789", "QQ is not one"],
      ["an EORI longer than 17 characters", "DE1234567890123456", "up to 15 letters or digits"],
      ["a country code alone", "DE", "must be an EORI"],
      ["digits that are not 13", "123456789", "or a GLN (13 digits)"],
      ["punctuation", "DE-12345", "must be an EORI"],
    ];
    for (const [what, value, problem] of invalid) {
      it(`refuses ${what}: 422 on economic_operator_id, nothing saved`, async () => {
        await expectRefused(await put(owner, value), "economic_operator_id", problem);
        expect(await stored()).to.equal(GLN);
      });
    }

    it("refuses input longer than 40 characters by its schema", async () => {
      const res = await put(owner, "D".repeat(41));
      expect(res.status).to.equal(422);
      expect(await stored()).to.equal(GLN);
    });

    it("clears it with an empty string or null, audited as cleared", async () => {
      const body = await json(await put(owner, ""));
      expect(body.data).to.deep.equal({ economic_operator_id: null, scheme: null });
      expect(await stored()).to.equal(null);
      const last = (await audit()).at(-1)!;
      expect(last).to.deep.include({ action: "economic_operator.cleared", target: null });
      expect(last.details).to.deep.equal({ before: GLN, after: null, scheme: null });
      await put(owner, "XI123456789000");
      expect((await json(await put(owner, null))).data.economic_operator_id).to.equal(null);
    });

    it("is changed only by owners and admins (403 for editors and viewers), with the CSRF token, signed in", async () => {
      for (const client of [editor, viewer]) {
        const res = await put(client, "DE1");
        expect(res.status).to.equal(403);
        expect((await json(res)).error.code).to.equal("FORBIDDEN");
      }
      const csrf = await owner.call(PATH, { method: "PUT", headers: { "X-CSRF-Token": "wrong" }, json: { economic_operator_id: "DE1" } });
      expect((await json(csrf)).error.code).to.equal("CSRF_FAILED");
      expect((await fetch(`${api.url}${PATH}`)).status).to.equal(401);
      expect(await stored()).to.equal(null);
    });

    it("is a brand's own: another brand's owner neither reads nor changes it", async () => {
      await put(owner, "BD1234567890");
      const other = await createBrand(api.db, { slug: "other-eori", name: "Other", uidPrefix: "OTE" });
      const stranger = await dashboardClient(api.url, api.db, other.brand.id, "owner");
      expect((await json(await stranger.call(PATH))).data.economic_operator_id).to.equal(null);
      await put(stranger, "FR12345678901");
      expect(await stored()).to.equal("BD1234567890");
    });

    it("is documented in the OpenAPI document", async () => {
      const document = await json(await fetch(`${api.url}/api/openapi.json`));
      expect(document.paths[PATH].put.operationId).to.equal("dashboardSetEconomicOperator");
      expect(document.paths["/api/factories/{id}/identifiers"].put.operationId).to.equal("setFactoryIdentifiers");
    });
  });

  describe("the operator CLI", () => {
    it("set-economic-operator sets, refuses with exit 2 naming --id, and clears; audited as the operator CLI", async () => {
      const set = await cli(["set-economic-operator", "--brand", brand.slug, "--id", "nl123456789", "--json"]);
      expect(set.code, set.stderr).to.equal(0);
      expect(JSON.parse(set.stdout)).to.deep.equal({ slug: brand.slug, economic_operator_id: "NL123456789", scheme: "eori" });
      expect(await stored()).to.equal("NL123456789");
      expect((await audit()).at(-1)).to.deep.include({ action: "economic_operator.updated", actor: "operator CLI", target: "NL123456789" });

      const bad = await cli(["set-economic-operator", "--brand", brand.slug, "--id", BAD_GLN]);
      expect(bad.code).to.equal(2);
      expect(bad.stderr).to.contain("--id: is not a valid GLN");
      expect(await stored()).to.equal("NL123456789");

      const missing = await cli(["set-economic-operator", "--brand", brand.slug]);
      expect(missing.code).to.equal(2);
      expect(missing.stderr).to.contain("--id is required");

      const cleared = await cli(["set-economic-operator", "--brand", brand.slug, "--id", ""]);
      expect(cleared.code, cleared.stderr).to.equal(0);
      expect(cleared.stdout).to.contain("economic operator id cleared");
      expect(await stored()).to.equal(null);

      expect((await cli(["set-economic-operator", "--brand", "no-such-brand", "--id", "DE1"])).code).to.equal(1);
    });
  });

  describe("a factory's GLN and Open Supply Hub id", () => {
    const FACTORY = 7001;
    const OTHER = 7002;
    let operatorToken: string;
    let adminToken: string;
    let metadataHash: string;

    const profile = (factoryId: number) => ({
      factory_id: factoryId,
      name: `Knit ${factoryId}`,
      city: "Gazipur",
      country: "BD",
      capacity_units_per_month: 1000,
      min_order_units: 10,
      lead_time_days: 30,
    });

    async function tokenOf(role: "admin" | "operator", factoryId: number | null): Promise<string> {
      const email = `${role}-${factoryId ?? "all"}@factory.test`;
      await createOperator(api.db, { email, role, factoryId, password: "correct horse battery" });
      const { id } = await api.db("app.operators").where({ email }).first("id");
      return (await createSession(api.db, id)).token;
    }

    const setIds = (body: unknown, token = operatorToken, factoryId = FACTORY) =>
      fetch(`${api.url}/api/factories/${factoryId}/identifiers`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const row = async (factoryId = FACTORY) => api.db("app.factory_profiles").where({ factory_id: factoryId }).first("gln", "os_id", "metadata_hash");

    before(async () => {
      metadataHash = await saveFactoryProfile(api.db, profile(FACTORY));
      await saveFactoryProfile(api.db, profile(OTHER));
      operatorToken = await tokenOf("operator", FACTORY);
      adminToken = await tokenOf("admin", null);
    });

    it("a factory's operator sets both, normalised, and the anchored metadata hash is unchanged", async () => {
      const res = await setIds({ gln: GLN, os_id: "bd2019085tj0jw3" });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(body).to.deep.equal({ factory_id: FACTORY, gln: GLN, os_id: "BD2019085TJ0JW3" });
      expect(await row()).to.deep.equal({ gln: GLN, os_id: "BD2019085TJ0JW3", metadata_hash: metadataHash });
    });

    it("keeps them when the profile is saved again, with the same hash", async () => {
      expect(await saveFactoryProfile(api.db, profile(FACTORY))).to.equal(metadataHash);
      expect(await row()).to.deep.include({ gln: GLN, os_id: "BD2019085TJ0JW3" });
    });

    it("refuses a wrong check digit and a malformed OS id together, field by field, changing nothing", async () => {
      const res = await setIds({ gln: BAD_GLN, os_id: "BD2019085TJ0JW" });
      const body = await json(res);
      expect(res.status).to.equal(422);
      expect(body.error.code).to.equal("VALIDATION_ERROR");
      expect(body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(["gln", "os_id"]);
      expect(body.error.details[0].problem).to.contain("check digit");
      expect(body.error.details[1].problem).to.contain("Open Supply Hub id");
      expect(await row()).to.deep.include({ gln: GLN, os_id: "BD2019085TJ0JW3" });
      expect((await setIds({})).status).to.equal(422);
    });

    it("keeps a field left out and clears one sent empty", async () => {
      expect(await json(await setIds({ gln: "" }))).to.deep.equal({ factory_id: FACTORY, gln: null, os_id: "BD2019085TJ0JW3" });
      expect(await json(await setIds({ os_id: null }))).to.deep.equal({ factory_id: FACTORY, gln: null, os_id: null });
    });

    it("is refused for another factory's operator (403); an admin sets any; 404 without a profile; 401 without a token", async () => {
      const forbidden = await setIds({ gln: GLN }, operatorToken, OTHER);
      expect(forbidden.status).to.equal(403);
      expect((await row(OTHER))!.gln).to.equal(null);
      expect((await setIds({ gln: GLN }, adminToken, OTHER)).status).to.equal(200);
      expect((await row(OTHER))!.gln).to.equal(GLN);
      expect((await setIds({ gln: GLN }, adminToken, 7999)).status).to.equal(404);
      expect((await setIds({ gln: GLN }, "prs_nope")).status).to.equal(401);
    });

    it("set-factory-ids and show-factory-ids in the operator CLI", async () => {
      const set = await cli(["set-factory-ids", "--factory", String(FACTORY), "--gln", GLN, "--os-id", "BD2019085TJ0JW3", "--json"]);
      expect(set.code, set.stderr).to.equal(0);
      expect(JSON.parse(set.stdout)).to.deep.equal({ factory_id: FACTORY, gln: GLN, os_id: "BD2019085TJ0JW3" });
      const shown = await cli(["show-factory-ids", "--factory", String(FACTORY)]);
      expect(shown.stdout).to.contain(`gln    ${GLN}`).and.to.contain("os_id  BD2019085TJ0JW3");

      const bad = await cli(["set-factory-ids", "--factory", String(FACTORY), "--os-id", "BD20"]);
      expect(bad.code).to.equal(2);
      expect(bad.stderr).to.contain("--os-id: must be an Open Supply Hub id");
      expect((await cli(["set-factory-ids", "--factory", String(FACTORY)])).code).to.equal(2);
      expect((await cli(["set-factory-ids", "--factory", "7999", "--gln", GLN])).code).to.equal(1);

      const cleared = await cli(["set-factory-ids", "--factory", String(FACTORY), "--gln", "", "--json"]);
      expect(JSON.parse(cleared.stdout)).to.deep.equal({ factory_id: FACTORY, gln: null, os_id: "BD2019085TJ0JW3" });
      expect((await row())!.metadata_hash).to.equal(metadataHash);
    });
  });
});
