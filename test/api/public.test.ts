// Public endpoints and factory writes on a real seeded stack: chain, indexer, Postgres, HTTP.
import { expect } from "chai";
import canonicalize from "canonicalize";
import { JsonRpcProvider, keccak256, toUtf8Bytes, Wallet } from "ethers";
import { findFactories } from "../../api/src/factories/factories.repo";
import { json } from "../support/http";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";

describe("public endpoints and factory writes", () => {
  let stack: SeededStack;
  let base: string;
  const minted = () => stack.demo.products.find((p) => p.minted)!.uid;
  const unminted = () => stack.demo.products.find((p) => !p.minted)!.uid;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    base = stack.api.url;
  });

  async function login(email: string, password: string) {
    return fetch(`${base}/api/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) });
  }
  async function operatorToken(who: "operator" | "admin" = "operator") {
    const res = await login(stack.demo[who].email, stack.demo[who].password);
    expect(res.status).to.equal(200);
    return (await json(res)).token as string;
  }
  function post(path: string, body: unknown, token?: string) {
    return fetch(`${base}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  }

  describe("GET /api/dpp/:uid", () => {
    it("serves a minted passport whose content hashes to the anchored data hash", async () => {
      const res = await fetch(`${base}/api/dpp/${minted()}`);
      expect(res.status).to.equal(200);
      const record = await json(res);
      expect(record.uid).to.equal(minted());
      expect(record.blockchain.verified).to.equal(true);
      expect(record.blockchain.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
      expect(record.blockchain.explorer_url).to.equal(`${base}/explorer/tx/${record.blockchain.tx_hash}`);
      // The auditor's check: recompute the hash from what the API serves and compare with the chain.
      const recomputed = keccak256(toUtf8Bytes(canonicalize(record.content)!));
      expect(recomputed).to.equal(record.blockchain.data_hash);
      expect(await stack.contracts.passport.dataHashOf(record.blockchain.token_id)).to.equal(recomputed);
      expect(record.blockchain.data_hash_matches).to.equal(true);
      expect(record.content.fiber_composition.reduce((sum: number, f: { percent: number }) => sum + f.percent, 0)).to.equal(100);
      expect(record.manufacturer).to.include.keys(["factory_id", "name", "city", "country", "verified"]);
      expect(record.supply_chain_events.length).to.be.greaterThan(0);
      expect(record.supply_chain_events[0]).to.include.keys(["stage", "factory_id", "place", "time", "tx_hash"]);
      // Each step names its factory and place as the registry's record of it does (profile, else the chain's country).
      const ids = [...new Set<number>(record.supply_chain_events.map((event: { factory_id: number }) => event.factory_id))];
      const factories = new Map((await findFactories(stack.api.db, stack.api.config.onchainSchema, ids)).map((f) => [f.factoryId, f]));
      expect(factories.size).to.be.greaterThan(0);
      for (const event of record.supply_chain_events) {
        const factory = factories.get(event.factory_id);
        expect(event.factory_name, `factory ${event.factory_id}`).to.equal(factory?.name ?? null);
        expect(event.place).to.equal(factory?.city ? `${factory.city}, ${factory.country}` : (factory?.country ?? null));
      }
    });

    it("reads the UID case-insensitively", async () => {
      const res = await fetch(`${base}/api/dpp/${minted().toLowerCase()}`);
      expect(res.status).to.equal(200);
      expect((await json(res)).uid).to.equal(minted());
    });

    it("shows an unissued product as not verified, with no transaction", async () => {
      const record = await json(await fetch(`${base}/api/dpp/${unminted()}`));
      expect(record.blockchain).to.include({ verified: false, status: "unissued", tx_hash: null, data_hash: null });
    });

    it("answers 304 to a caller holding the current ETag", async () => {
      // The record shows the confirmation count, so a new block makes a new version: retry if one lands in between.
      let status = 0;
      for (let attempt = 0; attempt < 5 && status !== 304; attempt += 1) {
        const first = await fetch(`${base}/api/dpp/${minted()}`);
        const etag = first.headers.get("etag")!;
        expect(etag).to.match(/^W\/"/);
        const second = await fetch(`${base}/api/dpp/${minted()}`, { headers: { "If-None-Match": etag } });
        status = second.status;
        if (status !== 304) expect(second.headers.get("etag")).to.not.equal(etag);
      }
      expect(status).to.equal(304);
    });

    it("answers 404 NOT_FOUND for an unknown UID and 422 for a malformed one", async () => {
      const missing = await fetch(`${base}/api/dpp/DEMO-ZZZZZZZZ`);
      expect(missing.status).to.equal(404);
      expect((await json(missing)).error.code).to.equal("NOT_FOUND");
      const malformed = await fetch(`${base}/api/dpp/${encodeURIComponent("not a uid")}`);
      expect(malformed.status).to.equal(422);
      expect((await json(malformed)).error.code).to.equal("VALIDATION_ERROR");
    });

    it("shows a browser (preferring text/html) the passport as a page, without counting a scan", async () => {
      const browser = { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
      const scans = async () => Number((await stack.api.db("app.scan_events").count<Array<{ count: string }>>("* as count"))[0]!.count);
      const before = await scans();
      const res = await fetch(`${base}/api/dpp/${minted().toLowerCase()}`, { headers: browser });
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.match(/^text\/html/);
      expect(res.headers.get("vary")).to.match(/accept/i);
      const page = await res.text();
      const record = await json(await fetch(`${base}/api/dpp/${minted()}`));
      expect(page).to.include(record.content.product.name);
      expect(page).to.include(`${base}/api/dpp/${minted()}`);
      expect(await scans()).to.equal(before);

      const missing = await fetch(`${base}/api/dpp/DEMO-ZZZZZZZZ`, { headers: browser });
      expect(missing.status).to.equal(404);
      expect(missing.headers.get("content-type")).to.match(/^text\/html/);
      // Clients that ask for JSON, or for anything, get the record.
      for (const accept of ["application/json", "*/*", "application/json, text/html"]) {
        const data = await fetch(`${base}/api/dpp/${minted()}`, { headers: { Accept: accept } });
        expect(data.headers.get("content-type"), accept).to.match(/^application\/json/);
        expect(data.headers.get("vary")).to.match(/accept/i);
      }
    });
  });

  describe("GET /api/factory/:id/reputation", () => {
    it("returns exactly the fields of spec 2.1", async () => {
      const res = await fetch(`${base}/api/factory/${stack.demo.factory_ids[0]}/reputation`);
      expect(res.status).to.equal(200);
      const body = await json(res);
      expect(body).to.have.all.keys(["factory_id", "factory_name", "score", "grade", "on_chain_events", "dpp_issued", "certifications", "verified"]);
      expect(body.score).to.be.a("number").within(0, 100);
      expect(Number.isInteger(body.score)).to.equal(true);
      expect(body.dpp_issued).to.be.greaterThan(0);
    });

    it("moves the score within seconds of a new on-chain event", async () => {
      // An unverified factory with no activity: verifying it adds 20 points.
      const before = await json(await fetch(`${base}/api/factory/1024/reputation`));
      expect(before.verified).to.equal(false, "factory 1024 is seeded unverified");
      const tx = await stack.wallet.send(() => stack.contracts.registry.verifyFactory(1024));
      await tx.wait();
      await waitForIndexer(stack);
      const after = await json(await fetch(`${base}/api/factory/1024/reputation`));
      expect(after.verified).to.equal(true);
      expect(after.score).to.be.greaterThan(before.score);
      expect(after.on_chain_events).to.equal(before.on_chain_events + 1);
    });

    it("answers 422 for a non-integer id and 404 for an unknown one", async () => {
      expect((await fetch(`${base}/api/factory/1.5/reputation`)).status).to.equal(422);
      expect((await fetch(`${base}/api/factory/abc/reputation`)).status).to.equal(422);
      const unknown = await fetch(`${base}/api/factory/424242/reputation`);
      expect(unknown.status).to.equal(404);
      expect((await json(unknown)).error.code).to.equal("NOT_FOUND");
    });
  });

  describe("GET /api/stats", () => {
    it("returns live counts of the platform", async () => {
      const body = await json(await fetch(`${base}/api/stats`));
      expect(body.factories).to.equal(stack.demo.factory_ids.length);
      expect(body.passports_minted).to.be.at.least(stack.demo.products.filter((p) => p.minted).length);
      expect(body.brands).to.be.at.least(1);
      expect(body.indexed_block).to.be.a("number");
      expect(body.indexer_lag_blocks).to.be.a("number");
    });
  });

  describe("POST /api/login", () => {
    it("returns a bearer token with an expiry for a valid operator", async () => {
      const body = await json(await login(stack.demo.operator.email, stack.demo.operator.password));
      expect(body.token).to.match(/^prs_/);
      expect(body.token_type).to.equal("Bearer");
      expect(new Date(body.expires_at).getTime()).to.be.greaterThan(Date.now());
      expect(body.operator.factory_id).to.equal(stack.demo.factory_ids[0]);
    });

    it("refuses a wrong password with 401 and bad input with 422", async () => {
      const wrong = await login(stack.demo.operator.email, "wrong-password");
      expect(wrong.status).to.equal(401);
      expect((await json(wrong)).error.code).to.equal("UNAUTHORIZED");
      const invalid = await post("/api/login", { email: "not-an-email", password: "x", extra: 1 });
      expect(invalid.status).to.equal(422);
    });

    it("slows and then refuses repeated failures for one account", async function () {
      this.timeout(120_000);
      const email = "nobody-here@example.com";
      let last: Response | undefined;
      for (let i = 0; i < 11; i += 1) last = await login(email, `guess-${i}`);
      expect(last!.status).to.equal(429);
      expect((await json(last!)).error.code).to.equal("RATE_LIMIT");
      expect(Number(last!.headers.get("retry-after"))).to.be.greaterThan(0);
    });
  });

  describe("factory writes", () => {
    it("refuses a missing or unknown token with 401", async () => {
      expect((await post(`/api/factories/1001/events`, { uid: minted(), stage: 8 })).status).to.equal(401);
      expect((await post(`/api/factories/1001/events`, { uid: minted(), stage: 8 }, "prs_forged")).status).to.equal(401);
    });

    it("refuses an operator acting for another factory with 403", async () => {
      const token = await operatorToken();
      const res = await post(`/api/factories/1002/events`, { uid: minted(), stage: 8 }, token);
      expect(res.status).to.equal(403);
      expect((await json(res)).error.code).to.equal("FORBIDDEN");
    });

    it("lets only an admin register a factory, which then appears in the registry", async () => {
      const profile = { factory_id: 2001, name: "Test Knit Ltd.", city: "Gazipur", country: "BD", certifications: ["GOTS"], product_types: ["t-shirt"], capacity_units_per_month: 50_000, min_order_units: 500, lead_time_days: 40 };
      expect((await post("/api/factories", profile, await operatorToken())).status).to.equal(403);
      const res = await post("/api/factories", { ...profile, verified: true }, await operatorToken("admin"));
      expect(res.status).to.equal(201);
      const body = await json(res);
      expect(body.tx_hash).to.match(/^0x[0-9a-f]{64}$/);
      expect(await stack.contracts.registry.isRegistered(2001)).to.equal(true);
      expect(await stack.contracts.registry.isVerified(2001)).to.equal(true);
      expect((await post("/api/factories", profile, await operatorToken("admin"))).status).to.equal(409);
      await waitForIndexer(stack);
      const rep = await json(await fetch(`${base}/api/factory/2001/reputation`));
      expect(rep).to.include({ factory_name: "Test Knit Ltd.", verified: true });
      expect(rep.certifications).to.deep.equal(["GOTS"]);
    });

    it("mints a product's passport once, assigns a tag and records a step that the passport then shows", async function () {
      this.timeout(120_000);
      const token = await operatorToken();
      const uid = stack.demo.products.find((p) => !p.minted && p.uid.endsWith("3TN9E7WG"))!.uid;
      const first = await post(`/api/factories/1001/passports`, { uid }, token);
      expect(first.status).to.equal(201);
      const minting = await json(first);
      const again = await post(`/api/factories/1001/passports`, { uid: uid.toLowerCase() }, token);
      expect(again.status).to.equal(200);
      expect((await json(again)).tx_hash).to.equal(minting.tx_hash);

      const tag = await post(`/api/factories/1001/tags`, { uid, tag_uid: "04a2b3c4d5e6f7" }, token);
      expect(tag.status).to.equal(201);
      expect((await post(`/api/factories/1001/tags`, { uid, tag_uid: "04A2B3C4D5E6F7" }, token)).status).to.equal(409);
      // The brand's tag record follows the operator's assignment, as it follows the dashboard's.
      const tagRecord = await stack.api.db("app.tags as t").join("app.products as p", "p.id", "t.product_id").where("t.tag_uid", "04A2B3C4D5E6F7").first("p.uid", "t.status", "t.chip");
      expect(tagRecord).to.deep.equal({ uid, status: "active", chip: "NTAG215" });

      const step = await post(`/api/factories/1001/events`, { uid, stage: 8, details: { inspector: "QC line 3", result: "pass" } }, token);
      expect(step.status).to.equal(201);
      const recorded = await json(step);

      await waitForIndexer(stack);
      const record = await json(await fetch(`${base}/api/dpp/${uid}`));
      expect(record.blockchain.verified).to.equal(true);
      expect(record.blockchain.data_hash_matches).to.equal(true);
      expect(record.blockchain.nfc_tag_hash).to.equal(keccak256(toUtf8Bytes("04A2B3C4D5E6F7")));
      expect(record.supply_chain_events.map((e: { tx_hash: string }) => e.tx_hash)).to.include(recorded.tx_hash);
    });

    it("validates bodies and refuses steps for a product without a passport", async () => {
      const token = await operatorToken();
      expect((await post(`/api/factories/1001/events`, { uid: minted(), stage: 13 }, token)).status).to.equal(422);
      expect((await post(`/api/factories/1001/tags`, { uid: minted(), tag_uid: "xyz" }, token)).status).to.equal(422);
      expect((await post(`/api/factories/x/events`, { uid: minted(), stage: 1 }, token)).status).to.equal(422);
      const notMinted = stack.demo.products.find((p) => !p.minted && !p.uid.endsWith("3TN9E7WG"))!.uid;
      const res = await post(`/api/factories/1009/events`, { uid: notMinted, stage: 1 }, await operatorToken("admin"));
      expect(res.status).to.equal(409);
    });
  });

  describe("explorer page and token metadata", () => {
    it("shows a passport transaction with its decoded events", async () => {
      const record = await json(await fetch(`${base}/api/dpp/${minted()}`));
      const res = await fetch(record.blockchain.explorer_url);
      expect(res.status).to.equal(200);
      expect(res.headers.get("content-type")).to.match(/text\/html/);
      const page = await res.text();
      expect(page).to.include(record.blockchain.tx_hash);
      expect(page).to.include("PassportsMinted");
      // A mint's data hashes are in no log: the page shows them in the decoded call.
      expect(page).to.match(/<h3>mint(Batch)?<\/h3>/).and.match(/dataHash(es)? = 0x[0-9a-f]{64}/);
      expect((await fetch(`${base}/explorer/tx/0x${"ab".repeat(32)}`)).status).to.equal(404);
      expect((await fetch(`${base}/explorer/tx/<script>`)).status).to.equal(422);
    });

    it("shows a transaction whose input starts with a mint selector but does not decode, instead of failing", async () => {
      const provider = new JsonRpcProvider(stack.chain.rpcUrl, undefined, { staticNetwork: true });
      // An account of its own, funded here, so no other test's nonces are touched.
      const sender = Wallet.createRandom().connect(provider);
      await provider.send("hardhat_setBalance", [sender.address, "0xde0b6b3a7640000"]);
      const mintSelector = stack.contracts.passport.interface.getFunction("mint").selector;
      const sent = await sender.sendTransaction({ to: sender.address, data: `${mintSelector}00` });
      await sent.wait();
      const res = await fetch(`${base}/explorer/tx/${sent.hash}`);
      expect(res.status).to.equal(200);
      const page = await res.text();
      expect(page).to.include(sent.hash).and.include("No call of the passport or factory registry contract decodes");
      provider.destroy();
    });

    it("serves ERC-721 metadata at the contract's tokenURI", async () => {
      const record = await json(await fetch(`${base}/api/dpp/${minted()}`));
      const uri = await stack.contracts.passport.tokenURI(record.blockchain.token_id);
      expect(uri).to.match(new RegExp(`/api/nft/${record.blockchain.token_id}$`));
      const meta = await json(await fetch(`${base}/api/nft/${record.blockchain.token_id}`));
      expect(meta.name).to.include(minted());
      expect((await fetch(`${base}/api/nft/123`)).status).to.equal(404);
    });
  });

  describe("the chain's totals (chain_totals)", () => {
    it("match count(*) of the indexed passports, tags and steps, after the mints, tag and step above", async function () {
      this.timeout(120_000);
      await waitForIndexer(stack);
      const schema = stack.api.config.onchainSchema;
      // One statement, so both are read from the same snapshot of the indexer's tables.
      const { rows } = await stack.api.db.raw<{ rows: Array<{ kept: Record<string, number>; counted: Record<string, number> }> }>(
        `SELECT (SELECT row_to_json(t) FROM (SELECT passports::int AS passports, tags_assigned::int AS tags, supply_chain_events::int AS steps FROM ??.chain_totals) t) AS kept,
                (SELECT row_to_json(t) FROM (SELECT (SELECT count(*)::int FROM ??.passport) AS passports,
                                                    (SELECT count(*)::int FROM ??.passport WHERE tag_hash IS NOT NULL) AS tags,
                                                    (SELECT count(*)::int FROM ??.supply_chain_event) AS steps) t) AS counted`,
        [schema, schema, schema, schema],
      );
      const { kept, counted } = rows[0]!;
      expect(counted.passports).to.be.greaterThan(0);
      expect(counted.tags, "the tag assigned above").to.be.greaterThan(0);
      expect(counted.steps).to.be.greaterThan(0);
      expect(kept).to.deep.equal(counted);
      const body = await json(await fetch(`${base}/api/stats`));
      expect(body.passports_minted).to.be.at.most(counted.passports);
      expect(body.tags_assigned).to.be.a("number").at.most(counted.tags);
    });
  });
});
