// The EU registry client (issue 27) against the local registry, a real HTTP server on 127.0.0.1 that reads each
// registered passport from the shared stack's EN 18222 API: RegisterProductDPP queues, the job uploads, the proof is
// kept once its signature verifies against the registry's JWKS and its hash equals the version's anchor on chain; a
// new version is registered again; a registry that is down loses and doubles nothing; two replicas' runs racing send
// each registration once, and a late answer to a lapsed claim changes nothing; a registration that does not match the
// passport is refused; a hundred go in one upload; bad requests are refused naming the field. The brand switches
// automatic registration itself on the dashboard, and then a changed economic operator id registers its passports again
// (a claim in flight at the change loses its token).
/* eslint-disable @typescript-eslint/no-explicit-any -- the passports and registrations read here are JSON the test checks */
import { expect } from "chai";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { issueAuthorityKey } from "../../api/src/access/readers";
import { createBrand } from "../../api/src/brands/service";
import { setEconomicOperatorId } from "../../api/src/brands/economic-operator";
import { setFacilityIds } from "../../api/src/factories/facility-ids";
import { saveFactoryProfile } from "../../api/src/factories/service";
import { tokenIdOf } from "../../api/src/passports/content";
import { CirpassRegistryClient } from "../../api/src/registry/cirpass-registry-client";
import { RegistryRegistrationJob, setAutomaticRegistration } from "../../api/src/registry/registration";
import { RegistryUnavailableError, type RegistrationMetadata } from "../../api/src/registry/registry-client";
import { startLocalRegistry, type LocalRegistry } from "../../scripts/lib/local-registry";
import { runAdmin } from "../support/admin-cli";
import { dashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

const V1 = "/api/dpp-lifecycle/v1";
// GTIN-13s 9520199770016 … 0054, 0078 and 0085 (check digits right), as GTIN-14s, and a GLN of the same prefix: this file's own.
const GTIN = { main: "09520199770016", hundred: "09520199770023", plain: "09520199770030", auto: "09520199770047", down: "09520199770054", staged: "09520199770078", race: "09520199770085" };
const GLN = "9520199770061";
const OTHER_GLN = "9520199770078";
const FACTORY_ID = 77027;
const EORI = "NL952019977001";
const TEXTILE = { commodity_code: { hs6: "610910", cn8: "61091000" } };

describe("EU registry registration", () => {
  let stack: SeededStack;
  let registry: LocalRegistry;
  let brand: { id: number; slug: string; key: string };
  let job: RegistryRegistrationJob;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    registry = await startLocalRegistry();
    const created = await createBrand(stack.api.db, { slug: "registry-brand", name: "Registry Apparel", uidPrefix: "RGA", plan: "growth" });
    brand = { id: created.brand.id, slug: created.brand.slug, key: created.key.key };
    await setEconomicOperatorId(stack.api.db, brand, { system: "test" }, EORI);
    await saveFactoryProfile(stack.api.db, { factory_id: FACTORY_ID, name: "Registry Test Mill", city: "Gazipur", country: "BD", capacity_units_per_month: 1000, min_order_units: 10, lead_time_days: 30 });
    await setFacilityIds(stack.api.db, FACTORY_ID, { gln: GLN });
    job = jobFor(registry.url);
  });
  after(() => registry?.stop());

  /** A registration job of this test's own, pointed at `url` (the stack's own has no REGISTRY_URL and sends nothing). */
  function jobFor(url: string, config: Record<string, unknown> = {}) {
    const deps = { ...stack.api.deps, config: { ...stack.api.config, registry: { url, token: undefined, batchUploads: true, timeoutMs: 30_000 }, ...config } };
    return new RegistryRegistrationJob(deps as typeof stack.api.deps, { retryBaseMs: 50, autoScanIntervalMs: 0 });
  }

  const call = (method: string, path: string, body?: unknown, key = true) =>
    fetch(`${stack.api.url}${V1}${path}`, {
      method,
      headers: { ...(key ? { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug } : {}), "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const id = (dpp: any) => encodeURIComponent(dpp.digitalProductPassportId);

  async function createModel(gtin: string, extra: Record<string, unknown> = {}) {
    const res = await call("POST", "/dpps", {
      granularity: "model",
      product: { sku: `RG-${gtin.slice(-4)}`, name: "Registry tee", category: "t-shirt", fabric_type: "organic cotton", gtin },
      fiber_composition: [{ fiber: "cotton", percent: 100 }],
      care_instructions: "Wash at 30 °C",
      manufacturer: { factory_id: FACTORY_ID },
      textile: TEXTILE,
      price: 990,
      ...extra,
    });
    expect(res.status, await res.clone().text()).to.equal(201);
    return json(res);
  }

  async function createItem(model: any, serial: string) {
    const res = await call("POST", "/dpps", { model: model.digitalProductPassportId, product: { serial } });
    expect(res.status, await res.clone().text()).to.equal(201);
    return json(res);
  }

  async function register(dpps: any[]) {
    const res = await call("POST", "/registerDPP", { digitalProductPassportIds: dpps.map((d) => d.digitalProductPassportId) });
    expect(res.status, await res.clone().text()).to.equal(202);
    return (await json(res)).registrations as any[];
  }

  /** The passport as ReadDPPById serves it, once its header shows a registration in `state` (a read is cached a second). */
  async function readUntil(dpp: any, state: string, version?: number) {
    for (let i = 0; i < 50; i++) {
      const read = await json(await call("GET", `/dpps/${id(dpp)}`, undefined, false));
      if (read.registration?.state === state && (version === undefined || read.registration.version === version)) return read;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the passport's header never showed a ${state} registration`);
  }

  /** How many times the registry received a registration of `dpp` (an upload of many counts each of its own). */
  const sent = (dpp: any) => registry.received.filter((upi) => upi === dpp.uniqueProductIdentifier).length;
  const registrationRows = (dpps: any[]) =>
    stack.api.db("app.registry_registrations").whereIn("product_id", stack.api.db("app.products").select("id").whereIn("dpp_id", dpps.map((d) => d.digitalProductPassportId)));
  /** A replica's job that sends one registration per request (as to the CIRPASS-2 mock). */
  const oneByOne = () => jobFor(registry.url, { registry: { url: registry.url, token: undefined, batchUploads: false, timeoutMs: 30_000 } });

  const chainHash = async (dpp: any) => ((await stack.api.chain.contracts().passport.dataHashOf(tokenIdOf(dpp["passport-registry/dpp-content/4"].uid))) as string).toLowerCase();

  let model: any;

  it("registers a passport: the registry reads it, and its proof verifies and carries the version's anchor on chain", async function () {
    this.timeout(120_000);
    model = await createModel(GTIN.main);
    const [queued] = await register([model]);
    expect(queued).to.include({ digitalProductPassportId: model.digitalProductPassportId, version: 1, state: "queued", registryId: null, proof: null });

    expect(await job.runOnce()).to.equal(1);
    const read = await readUntil(model, "registered");
    const { registration } = read;
    expect(registration.version).to.equal(1);
    expect(registration.registryId).to.be.a("string");
    expect(registration.proof.dataHash).to.equal(read.anchor.dataHash);
    expect(registration.proof.dataHash).to.equal(await chainHash(read));

    // What the registry holds: the header's fields under the mock's names.
    const [entry] = registry.registrations().filter((e) => e.metadata.upi === model.uniqueProductIdentifier);
    expect(entry!.registryId).to.equal(registration.registryId);
    expect(entry!.metadata).to.deep.equal({
      upi: `${stack.api.url}/01/${GTIN.main}`,
      reoId: EORI,
      liveURL: `${stack.api.url}${V1}/dpps/${id(model)}`,
      backupURL: `${stack.api.config.backupOperatorUrl}${V1}/dpps/${id(model)}`,
      commodityCode: "61091000",
      facilitiesId: [`https://id.gs1.org/414/${GLN}`],
      granularityLevel: "MODEL",
      dataCarrierTypes: ["NFC", "QR"],
    });
    expect(read.backupUrl).to.equal(entry!.metadata.backupURL);

    // Anyone can check the proof against the registry's published key.
    const { payload, protectedHeader } = await jwtVerify(registration.proof.jwt, createRemoteJWKSet(new URL(`${registry.url}/.well-known/jwks.json`)));
    expect(protectedHeader.alg).to.equal("ES256");
    expect(payload).to.include({ sub: model.uniqueProductIdentifier, commodityCode: "61091000", reoId: EORI, registryId: registration.registryId, dppHash: read.anchor.dataHash });
    expect(new Date(payload.iat! * 1000).toISOString()).to.equal(registration.proof.timestamp);
    // The client reads it back by the registry's id.
    const client = new CirpassRegistryClient({ url: registry.url, token: undefined, batchUploads: true, timeoutMs: 10_000 });
    expect((await client.read(registration.registryId))!.metadata.upi).to.equal(model.uniqueProductIdentifier);
    expect(await client.read("no-such-id")).to.equal(undefined);
  });

  it("answers the same registration when asked again for the same version, and sends nothing", async function () {
    this.timeout(60_000);
    const uploads = registry.uploads.length;
    const [again] = await register([model]);
    expect(again).to.include({ version: 1, state: "registered" });
    expect(await job.runOnce()).to.equal(0);
    expect(registry.uploads.length).to.equal(uploads);
    expect(Number((await stack.api.db("app.registry_registrations").where({ brand_id: brand.id }).count("* as n").first())!.n)).to.equal(1);
  });

  it("registers a new version again, with a proof of the new anchor, under the same registry id (MODIFY)", async function () {
    this.timeout(120_000);
    const before = (await readUntil(model, "registered")).registration;
    const patched = await call("PATCH", `/dpps/${id(model)}`, { "passport-registry/dpp-content/4": { care_instructions: "Wash at 30 °C inside out" } });
    expect(patched.status, await patched.clone().text()).to.equal(200);
    const v2 = await json(patched);
    expect(v2.anchor.version).to.equal(2);
    const [queued] = await register([model]);
    expect(queued).to.include({ version: 2, state: "queued" });
    await job.runOnce();
    const read = await readUntil(model, "registered", 2);
    expect(read.registration.registryId).to.equal(before.registryId);
    expect(read.registration.proof.dataHash).to.equal(v2.anchor.dataHash).and.not.equal(before.proof.dataHash);
    expect(read.registration.proof.dataHash).to.equal(await chainHash(read));
    // Version 1's registration and proof stay on record, shown with that version.
    const past = await json(await call("GET", `/dppsByIdAndDate/${id(model)}?date=${encodeURIComponent(before.registeredAt)}`, undefined, false));
    expect(past.registration).to.include({ version: 1, state: "registered" });
    expect(past.registration.proof.dataHash).to.equal(before.proof.dataHash);
  });

  it("registers a brand's new passports by itself once its automatic registration is on", async function () {
    this.timeout(120_000);
    // Turned on the way an operator does it.
    const { code, stdout } = await runAdmin(["set-registry-auto", "--brand", brand.slug, "--to", "on"], { DATABASE_URL: stack.api.config.databaseUrl });
    const cli = { code, stdout };
    expect(cli).to.deep.equal({ code: 0, stdout: `${brand.slug}: automatic registration on\n` });
    try {
      const autoModel = await createModel(GTIN.auto);
      await job.runOnce();
      const read = await readUntil(autoModel, "registered");
      expect(read.registration.proof.dataHash).to.equal(read.anchor.dataHash);
    } finally {
      await setAutomaticRegistration(stack.api.db, brand, { system: "test" }, false);
    }
    const audit = await stack.api.db("app.audit_log").where({ brand_id: brand.id }).where("action", "like", "registry.%").orderBy("id").pluck("action");
    expect(audit).to.deep.equal(["registry.automatic_on", "registry.automatic_off"]);
    const actors = await stack.api.db("app.audit_log").where({ brand_id: brand.id }).where("action", "like", "registry.%").orderBy("id").pluck("actor");
    expect(actors).to.deep.equal(["operator CLI", "test"]);
  });

  it("lets the brand switch automatic registration on the dashboard (owners and admins; audited)", async function () {
    this.timeout(60_000);
    const [admin, editor] = await Promise.all([dashboardClient(stack.api.url, stack.api.db, brand.id, "admin"), dashboardClient(stack.api.url, stack.api.db, brand.id, "editor")]);
    const put = (client: typeof admin, body: unknown) => client.call("/api/dashboard/registry-auto", { method: "PUT", json: body });
    const state = async () => (await json(await editor.call("/api/dashboard/registry-auto"))).data;
    expect(await state()).to.deep.equal({ enabled: false });
    expect((await put(editor, { enabled: true })).status).to.equal(403);
    const bad = await put(admin, { enabled: "yes" });
    expect(bad.status).to.equal(422);
    expect((await json(bad)).error.code).to.equal("VALIDATION_ERROR");
    expect(await state()).to.deep.equal({ enabled: false });
    const on = await put(admin, { enabled: true });
    expect(on.status, await on.clone().text()).to.equal(200);
    expect((await json(on)).data).to.deep.equal({ enabled: true });
    expect(await state()).to.deep.equal({ enabled: true });
    expect((await json(await put(admin, { enabled: false }))).data).to.deep.equal({ enabled: false });
    expect(await state()).to.deep.equal({ enabled: false });
    const audit = await stack.api.db("app.audit_log").where({ brand_id: brand.id }).where("action", "like", "registry.%").orderBy("id").select("action", "actor");
    expect(audit.slice(-2)).to.deep.equal([
      { action: "registry.automatic_on", actor: admin.email },
      { action: "registry.automatic_off", actor: admin.email },
    ]);
  });

  it("registers a brand's passports again when its economic operator id or a factory's GLN changes; a claim in flight then changes nothing", async function () {
    this.timeout(180_000);
    const admin = await dashboardClient(stack.api.url, stack.api.db, brand.id, "admin");
    const setEori = async (value: string) => {
      const res = await admin.call("/api/dashboard/economic-operator", { method: "PUT", json: { economic_operator_id: value } });
      expect(res.status, await res.clone().text()).to.equal(200);
      await headerShows("economicOperatorId", value);
    };
    // The registry reads the passport: wait until its public read (cached a second) shows the new header.
    const headerShows = async (field: string, value: string) => {
      for (let i = 0; i < 50; i++) {
        if ((await json(await call("GET", `/dpps/${id(model)}`, undefined, false)))[field] === value) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the passport's ${field} never showed ${value}`);
    };
    const settle = async () => {
      // Runs until nothing of the brand is queued (bounded): each run sends what is due.
      for (let i = 0; i < 50 && (await stack.api.db("app.registry_registrations").where({ brand_id: brand.id, state: "queued" }).first()); i++) {
        await job.runOnce();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const latestRow = async () => (await registrationRows([model]).orderBy("version", "desc"))[0];
    const before = await latestRow();
    expect(before).to.include({ version: 2, state: "registered" });
    // Automatic registration off: a change queues nothing.
    await setEori("NL952019977002");
    expect(await latestRow()).to.include({ state: "registered", attempts: before.attempts });
    await setEori(EORI);
    expect((await admin.call("/api/dashboard/registry-auto", { method: "PUT", json: { enabled: true } })).status).to.equal(200);
    try {
      // On: the latest version's registration is due again, and no new row is made for it.
      await setEori("NL952019977003");
      const requeued = await latestRow();
      expect(requeued).to.include({ id: before.id, version: 2, state: "queued", attempts: before.attempts });
      // Its upload is held at the registry while the id changes once more: the claim's token is spent, so its late
      // answer (built with the id before) settles nothing and the registration is sent again with the new one.
      const first = oneByOne();
      const hold = registry.holdNext();
      const run = first.runOnce();
      const inFlight = await hold.received;
      const heldRow = (await stack.api.db("app.registry_registrations").whereNotNull("lease_until").where({ brand_id: brand.id, state: "queued" }))[0];
      expect(heldRow, inFlight).to.not.equal(undefined);
      await setEori("NL952019977004");
      expect((await stack.api.db("app.registry_registrations").where({ id: heldRow.id }).first()).attempts).to.equal(heldRow.attempts + 1);
      hold.release();
      await run;
      await settle();
      const read = await readUntil(model, "registered", 2);
      expect(read.registration.registryId).to.equal(before.registry_id);
      expect(decodeJwt(read.registration.proof.jwt).reoId).to.equal("NL952019977004");
      expect(read.registration.proof.dataHash).to.equal(read.anchor.dataHash);
      const entry = registry.registrations().find((e) => e.metadata.upi === model.uniqueProductIdentifier)!;
      expect(entry.metadata.reoId).to.equal("NL952019977004");
      expect(entry.modifiedAt).to.be.a("string");
      expect(entry.registryId).to.equal(before.registry_id);

      // A new GLN of the factory that makes it: registered again with the new facilityId.
      await setFacilityIds(stack.api.db, FACTORY_ID, { gln: OTHER_GLN });
      expect(await latestRow()).to.include({ id: before.id, state: "queued" });
      await headerShows("facilityId", `https://id.gs1.org/414/${OTHER_GLN}`);
      await settle();
      await readUntil(model, "registered", 2);
      expect(registry.registrations().find((e) => e.metadata.upi === model.uniqueProductIdentifier)!.metadata.facilitiesId).to.deep.equal([`https://id.gs1.org/414/${OTHER_GLN}`]);
    } finally {
      await setAutomaticRegistration(stack.api.db, brand, { system: "test" }, false);
      await setFacilityIds(stack.api.db, FACTORY_ID, { gln: GLN });
      await setEori(EORI);
    }
  });

  it("keeps registrations queued while the registry is down and sends each once when it is back", async function () {
    this.timeout(180_000);
    const downModel = await createModel(GTIN.down);
    const items = [downModel, await createItem(downModel, "D-1"), await createItem(downModel, "D-2")];
    await registry.stop();
    try {
      await register(items);
      let failure: unknown;
      await job.runOnce().catch((error: unknown) => (failure = error));
      expect(failure).to.be.instanceOf(RegistryUnavailableError);
      const rows = await stack.api.db("app.registry_registrations").whereIn("product_id", stack.api.db("app.products").select("id").whereIn("dpp_id", items.map((d) => d.digitalProductPassportId)));
      expect(rows.map((r) => r.state)).to.deep.equal(["queued", "queued", "queued"]);
      for (const row of rows) expect(row.error).to.match(/could not be reached/);
      expect(job.health().consecutive_failures).to.equal(1);
    } finally {
      await registry.start();
    }
    // Each is due again after its back-off; runs until all three are registered (bounded).
    for (let i = 0; i < 100; i++) {
      await job.runOnce();
      const states = await stack.api.db("app.registry_registrations").where({ brand_id: brand.id, state: "registered" }).whereIn("product_id", stack.api.db("app.products").select("id").whereIn("dpp_id", items.map((d) => d.digitalProductPassportId))).count("* as n").first();
      if (Number(states!.n) === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const dpp of items) {
      const read = await readUntil(dpp, "registered");
      expect(read.registration.proof.dataHash).to.equal(read.anchor.dataHash);
      // Received once: the registry keeps one entry per upi (MODIFY) however often it is sent, so count the sends.
      expect(sent(dpp), dpp.uniqueProductIdentifier).to.equal(1);
    }
    // The items say whether they are deactivated; the model does not.
    const item = registry.registrations().find((e) => e.metadata.upi === items[1].uniqueProductIdentifier)!;
    expect(item.metadata).to.include({ granularityLevel: "ITEM", deactivated: false });
    expect(job.health().consecutive_failures).to.equal(0);
  });

  let raceModel: any;

  it("sends each registration once when two replicas' runs race, even where the first's other claims would have lapsed", async function () {
    this.timeout(180_000);
    raceModel = await createModel(GTIN.race);
    const dpps = [raceModel, await createItem(raceModel, "R-1"), await createItem(raceModel, "R-2")];
    await register(dpps);
    const [first, second] = [oneByOne(), oneByOne()];
    // The first replica's first upload is held at the registry.
    const hold = registry.holdNext();
    const firstRun = first.runOnce();
    const inFlight = await hold.received;
    // Every other claim of the first replica lapses, as if its earlier uploads had taken the whole lease (what a claim
    // of many sent one by one came to): a claim covers one upload, so it holds none, and the second takes free rows.
    const others = dpps.filter((d) => d.uniqueProductIdentifier !== inFlight);
    expect(others).to.have.length(2);
    await registrationRows(others).where("state", "queued").update({ next_attempt_at: stack.api.db.fn.now() });
    expect(await second.runOnce()).to.equal(2);
    hold.release();
    expect(await firstRun).to.equal(1);
    for (const dpp of dpps) expect(sent(dpp), dpp.uniqueProductIdentifier).to.equal(1);
    expect((await registrationRows(dpps)).map((r) => r.state)).to.deep.equal(["registered", "registered", "registered"]);
  });

  it("keeps a registration's outcome with the claim that holds it: a late answer to a lapsed claim changes nothing", async function () {
    this.timeout(120_000);
    const item = await createItem(raceModel, "R-3");
    await register([item]);
    const [first, second] = [oneByOne(), oneByOne()];
    const late = registry.holdNext();
    const firstRun = first.runOnce();
    await late.received;
    // The first replica's upload outlasts its lease (a registry that hangs): the second claims it again and sends it.
    await registrationRows([item]).where("state", "queued").update({ next_attempt_at: stack.api.db.fn.now() });
    const current = registry.holdNext();
    const secondRun = second.runOnce();
    await current.received;
    // The first's answer comes back while the second holds the claim: a refusal, which must not fail the row.
    late.release("refused: an answer to a lapsed claim");
    await firstRun;
    const [held] = await registrationRows([item]);
    expect(held).to.include({ state: "queued", attempts: 2, error: null });
    current.release();
    expect(await secondRun).to.equal(1);
    const read = await readUntil(item, "registered");
    expect(read.registration.error).to.equal(null);
    expect(read.registration.proof.dataHash).to.equal(read.anchor.dataHash);
    // Sent once per claim: a lease that lapses mid-upload is what the lease's length (and one upload per claim) prevents.
    expect(sent(item)).to.equal(2);
  });

  it("is refused by the registry when the registration does not match the passport it reads", async function () {
    this.timeout(120_000);
    const client = new CirpassRegistryClient({ url: registry.url, token: undefined, batchUploads: false, timeoutMs: 10_000 });
    const entry = registry.registrations().find((e) => e.metadata.upi === model.uniqueProductIdentifier)!;
    const [refused] = await client.register([{ ...(entry.metadata as RegistrationMetadata), commodityCode: "62034200", reoId: "NL000000000001" }]);
    expect(refused!.ok).to.equal(false);
    expect((refused as { reason: string }).reason).to.match(/commodityCode is "62034200"/).and.match(/reoId is "NL000000000001" but the passport's economicOperatorId is "NL952019977001"/);

    // Through the job: a registration naming another back-up URL than the passport does fails with the registry's words.
    const item = await createItem(model, "M-1");
    await register([item]);
    await jobFor(registry.url, { backupOperatorUrl: "http://127.0.0.1:9/elsewhere" }).runOnce();
    const read = await readUntil(item, "failed");
    expect(read.registration.error).to.match(/^the registry refused it: .*backupURL is "http:\/\/127\.0\.0\.1:9\/elsewhere/);
    expect(read.registration.proof).to.equal(null);
    // Asked again, it is queued again and then registered.
    const [requeued] = await register([item]);
    expect(requeued).to.include({ state: "queued", error: null });
    await job.runOnce();
    await readUntil(item, "registered");
  });

  it("uploads a hundred registrations in one request", async function () {
    this.timeout(300_000);
    const hundredModel = await createModel(GTIN.hundred);
    const items: any[] = [];
    for (let start = 0; start < 100; start += 20) {
      items.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => createItem(hundredModel, `H-${start + i}`)))));
    }
    const uploads = registry.uploads.length;
    const queued = await register(items);
    expect(queued).to.have.length(100);
    expect(await job.runOnce()).to.equal(100);
    expect(registry.uploads.slice(uploads)).to.deep.equal([100]);
    const rows = await stack.api.db("app.registry_registrations").whereIn("product_id", stack.api.db("app.products").select("id").whereIn("dpp_id", items.map((d) => d.digitalProductPassportId)));
    expect(rows.filter((r) => r.state === "registered")).to.have.length(100);
    for (const row of rows) expect(decodeJwt(row.proof_jwt).dppHash).to.equal(row.data_hash);
  });

  it("hashes a passport whose elements the public may not see only when it reads with an authority key", async function () {
    this.timeout(120_000);
    const textile = { ...TEXTILE, stages: [{ stage: "making_up", facility: { name: "Registry Test Mill", country: "BD" } }] };
    const staged = await createModel(GTIN.staged, { textile });
    await register([staged]);
    await job.runOnce();
    const refused = await readUntil(staged, "failed");
    expect(refused.registration.error).to.include("withholds elements from the registry").and.include("textile.stages.0.facility.name").and.include("give the registry an authority key");
    const { key } = await issueAuthorityKey(stack.api.db, "registry test");
    registry.setReaderKey(key);
    try {
      await register([staged]);
      await job.runOnce();
      const read = await readUntil(staged, "registered");
      expect(read.registration.proof.dataHash).to.equal(read.anchor.dataHash);
      expect(read.registration.proof.dataHash).to.equal(await chainHash(read));
    } finally {
      registry.setReaderKey(undefined);
    }
  });

  it("refuses bad requests with a Result naming the problem", async function () {
    this.timeout(120_000);
    const expectResult = async (res: Response, status: number, code: string) => {
      expect(res.status, await res.clone().text()).to.equal(status);
      const body = await json(res);
      expect(body.messages[0]).to.include({ messageType: "Error", code });
      return body.messages.map((m: any) => m.text) as string[];
    };
    await expectResult(await call("POST", "/registerDPP", { digitalProductPassportIds: [model.digitalProductPassportId] }, false), 401, "MISSING_KEY");
    await expectResult(await call("POST", "/registerDPP", {}), 422, "VALIDATION_ERROR");
    await expectResult(await call("POST", "/registerDPP", { digitalProductPassportIds: [] }), 422, "VALIDATION_ERROR");
    await expectResult(await call("POST", "/registerDPP", { digitalProductPassportIds: Array.from({ length: 101 }, (_, i) => `urn:uuid:${i}`) }), 422, "VALIDATION_ERROR");
    await expectResult(await call("POST", "/registerDPP", { digitalProductPassportIds: ["urn:uuid:00000000-0000-4000-8000-000000000000"] }), 404, "NOT_FOUND");
    // A passport without a commodity code cannot be registered: the field is named, and nothing is queued.
    const plain = await createModel(GTIN.plain, { textile: undefined });
    const texts = await expectResult(await call("POST", "/registerDPP", { digitalProductPassportIds: [plain.digitalProductPassportId] }), 422, "VALIDATION_ERROR");
    expect(texts.some((t) => /commodity_code: is missing/.test(t))).to.equal(true);
    expect(await stack.api.db("app.registry_registrations").where("product_id", stack.api.db("app.products").select("id").where("dpp_id", plain.digitalProductPassportId))).to.have.length(0);
    // Another brand's passport is not found for this one.
    const other = await createBrand(stack.api.db, { slug: "registry-other", name: "Other", uidPrefix: "RGO" });
    const res = await fetch(`${stack.api.url}${V1}/registerDPP`, {
      method: "POST",
      headers: { Authorization: `Bearer ${other.key.key}`, "X-Service-Brand": other.brand.slug, "Content-Type": "application/json" },
      body: JSON.stringify({ digitalProductPassportIds: [model.digitalProductPassportId] }),
    });
    await expectResult(res, 404, "NOT_FOUND");
  });
});
