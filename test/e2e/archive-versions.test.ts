// Every version in the archive (EN 18221, issue 25): a passport edited twice on the dashboard is archived with its
// three versions, each byte for byte as hashed, and the archive's verify script finds each one's hash where the chain
// set it, with nothing of ours running; one byte changed in the middle version makes that passport FAIL naming
// version 2. A version written before its bytes were kept is listed without them and checked by its hash. An item
// pins its model's version by hash: a pin the chain anchored verifies, one it never anchored FAILs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { keccak256, toUtf8Bytes } from "ethers";
import { createBrand } from "../../api/src/brands/service";
import { tokenIdOf } from "../../api/src/passports/content";
import { exportArchive, unpackArchive, verifyArchive } from "../support/archive";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";

type VersionsJson = {
  uid: string;
  versions: Array<{ version: number; data_hash: string; valid_from: string; tx_hash: string | null; block_number: number | null; content: string | null; reason?: string }>;
};

describe("passport archive: every version, each checked against the chain", () => {
  let stack: SeededStack;
  let work: string;
  let root: string;
  const tee = { category: "t-shirt", fabric_type: "organic cotton", price: 990, description: "Crew neck" };

  /** A brand on the dashboard: its editor creates, issues and edits products as a person would. */
  async function brandEditor(slug: string, prefix: string): Promise<DashboardClient> {
    const { brand } = await createBrand(stack.api.db, { slug, name: `Brand ${slug}`, uidPrefix: prefix, plan: "growth" });
    return dashboardClient(stack.api.url, stack.api.db, brand.id, "editor");
  }
  async function create(editor: DashboardClient, sku: string, name: string): Promise<string> {
    const res = await editor.call("/api/dashboard/products", { method: "POST", json: { ...tee, sku, name } });
    expect(res.status, await res.clone().text()).to.equal(201);
    return (await json(res)).data.uid as string;
  }
  async function issue(editor: DashboardClient, uid: string): Promise<void> {
    const res = await editor.call(`/api/dashboard/products/${uid}/certificate`, { method: "POST" });
    expect(res.status, await res.clone().text()).to.equal(202);
    expect((await json(res)).data.status).to.equal("minted");
  }
  /** A dashboard edit of an issued product: re-anchored on chain before it answers. */
  async function edit(editor: DashboardClient, uid: string, changes: Record<string, unknown>): Promise<Array<{ version: number; data_hash: string; tx_hash: string; status: string }>> {
    const res = await editor.call(`/api/dashboard/products/${uid}`, { method: "PATCH", json: changes });
    expect(res.status, await res.clone().text()).to.equal(200);
    return (await json(res)).data.versions;
  }
  /**
   * Makes `uid` an item of model `modelUid`, pinned at `pinnedHash`, before it is issued. There is no route for
   * granularity yet (issue 25's EN 18222 API will add one), so the row is set as that route will set it.
   */
  async function makeItemOf(uid: string, modelUid: string, pinnedHash: string): Promise<void> {
    const model = await stack.api.db("app.products").where({ uid: modelUid }).first<{ id: number; dpp_id: string }>("id", "dpp_id");
    await stack.api
      .db("app.products")
      .where({ uid })
      .update({ model_id: model.id, lineage: JSON.stringify({ model: { id: model.dpp_id, uid: modelUid, data_hash: pinnedHash } }) });
  }
  const chainHash = async (uid: string) => (await stack.contracts.passport.dataHashOf(tokenIdOf(uid))).toLowerCase();
  const readVersions = (uid: string) => JSON.parse(readFileSync(path.join(root, "passports", uid, "versions.json"), "utf8")) as VersionsJson;
  const verify = (archive = root) => verifyArchive(stack, archive);

  /** `npm run export` of the brand, unpacked: its top folder. */
  async function exported(slug: string): Promise<string> {
    // The credentials carry the hash the indexer has: let it catch up with the mints and edits first.
    await waitForIndexer(stack);
    const file = path.join(work, `${slug}.tar.gz`);
    const result = await exportArchive(stack, slug, file);
    expect(result.code, result.stderr).to.equal(0);
    const dir = await unpackArchive(file, work, slug);
    expect(dir, "the archive unpacks into one folder").to.be.a("string");
    return dir!;
  }

  let edited: string;
  let editedVersions: Array<{ version: number; data_hash: string; tx_hash: string; status: string }>;
  let legacy: string;
  let model: string;
  let item: string;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    work = mkdtempSync(path.join(os.tmpdir(), "archive-versions-"));
    const editor = await brandEditor("archive-versions", "ARV");

    edited = await create(editor, "ARV-TEE", "Archived Tee");
    await issue(editor, edited);
    await edit(editor, edited, { name: "Archived Tee, relabelled" });
    editedVersions = await edit(editor, edited, { name: "Archived Tee, relabelled again", care_instructions: "Hand wash cold." });

    // A passport whose versions were written before their bytes were kept (migration 033 adds them): edited once,
    // then its stored bytes removed, as an older deployment's rows have none.
    legacy = await create(editor, "ARV-OLD", "Older Tee");
    await issue(editor, legacy);
    await edit(editor, legacy, { name: "Older Tee, relabelled" });
    const legacyId = (await stack.api.db("app.products").where({ uid: legacy }).first<{ id: number }>("id")).id;
    await stack.api.db("app.passports").where({ product_id: legacyId }).update({ content: null });
    await stack.api.db("app.product_versions").where({ product_id: legacyId }).update({ content: null });

    // A model, then an item pinned at the model's first version; the model is edited after, so it has two.
    model = await create(editor, "ARV-MODEL", "Archived Style");
    await stack.api.db("app.products").where({ uid: model }).update({ granularity: "model" });
    await issue(editor, model);
    const modelMint = await chainHash(model);
    item = await create(editor, "ARV-ITEM", "Archived Style, one piece");
    await makeItemOf(item, model, modelMint);
    await issue(editor, item);
    await edit(editor, model, { description: "Crew neck, second season" });

    root = await exported("archive-versions");
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("holds a passport edited twice as three versions, each exactly the bytes that were hashed", async () => {
    expect(editedVersions.map((v) => [v.version, v.status])).to.deep.equal([[1, "anchored"], [2, "anchored"], [3, "anchored"]]);
    const { versions } = readVersions(edited);
    expect(versions.map((v) => v.version)).to.deep.equal([1, 2, 3]);
    expect(versions.map((v) => v.data_hash)).to.deep.equal(editedVersions.map((v) => v.data_hash));
    expect(versions.map((v) => v.tx_hash)).to.deep.equal(editedVersions.map((v) => v.tx_hash));
    expect(versions.at(-1)!.data_hash).to.equal(await chainHash(edited));
    const dir = path.join(root, "passports", edited);
    for (const version of versions) {
      expect(version.content).to.equal(`versions/${version.version}.json`);
      expect(version.block_number).to.be.a("number");
      expect(Number.isNaN(Date.parse(version.valid_from)), "valid_from is a time").to.equal(false);
      expect(keccak256(readFileSync(path.join(dir, version.content!))), `version ${version.version}`).to.equal(version.data_hash);
    }
    expect(JSON.parse(readFileSync(path.join(dir, "versions", "1.json"), "utf8")).product.name).to.equal("Archived Tee");
    expect(JSON.parse(readFileSync(path.join(dir, "versions", "2.json"), "utf8")).product.name).to.equal("Archived Tee, relabelled");
    expect(readFileSync(path.join(dir, "versions", "3.json"), "utf8")).to.equal(readFileSync(path.join(dir, "content.json"), "utf8"));
    const manifest = JSON.parse(readFileSync(path.join(root, "manifest.json"), "utf8")) as { format: string; passports: Array<{ uid: string; versions: number }> };
    expect(manifest.format).to.equal("passport-registry/archive/2");
    expect(manifest.passports.find((p) => p.uid === edited)?.versions).to.equal(3);
  });

  it("lists a version whose bytes were not kept with content null and why; the current one is rebuilt", () => {
    const { versions } = readVersions(legacy);
    expect(versions).to.have.length(2);
    expect(versions[0]).to.include({ version: 1, content: null });
    expect(versions[0]!.reason).to.contain("migration 033");
    expect(versions[1]).to.include({ version: 2, content: "versions/2.json" });
    expect(keccak256(readFileSync(path.join(root, "passports", legacy, "versions", "2.json")))).to.equal(versions[1]!.data_hash);
  });

  it("verifies every version of every passport against the chain: OK each, exit 0", async function () {
    this.timeout(120_000);
    const result = await verify();
    expect(result.code, result.stdout + result.stderr).to.equal(0);
    expect(result.stdout).to.match(new RegExp(`^OK +${edited} +0x[0-9a-f]{64} on chain \\(owner 0x[0-9a-fA-F]{40}, 3 version\\(s\\) each as the chain anchored it\\)$`, "m"));
    expect(result.stdout).to.match(new RegExp(`^OK +${legacy} .*2 version\\(s\\) each as the chain anchored it, 1 listed without its content\\)$`, "m"));
    expect(result.stdout).to.match(new RegExp(`^OK +${model} .*2 version\\(s\\)`, "m"));
    expect(result.stdout).to.match(new RegExp(`^OK +${item} .*1 version\\(s\\) each as the chain anchored it; model ${model} pinned at its anchored version 1\\)$`, "m"));
    expect(result.stdout).to.contain("All 4 passports verified.");
  });

  it("finds one byte changed in the middle version: that passport FAILs naming version 2, exit 1", async function () {
    this.timeout(120_000);
    const file = path.join(root, "passports", edited, "versions", "2.json");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, original.replace("Archived Tee, relabelled", "Archived Tee, relabelleD"));
    try {
      const result = await verify();
      expect(result.code).to.equal(1);
      const line = result.stdout.split("\n").find((l) => l.startsWith(`FAIL ${edited} `));
      expect(line, result.stdout).to.match(/version 2 \(versions\/2\.json\) hashes to 0x[0-9a-f]{64}; the chain set 0x[0-9a-f]{64} at step 2$/);
      // Only the middle version is wrong: the current content and the other versions still match the chain.
      expect(line).to.not.contain("content hashes to").and.not.contain("version 1 ").and.not.contain("version 3 ");
      for (const uid of [legacy, model, item]) expect(result.stdout).to.match(new RegExp(`^OK +${uid} `, "m"));
      expect(result.stdout).to.contain("1 of 4 passports FAILED.");
    } finally {
      writeFileSync(file, original);
    }
  });

  it("finds a version missing from the archive, or one the chain never set", async function () {
    this.timeout(120_000);
    const file = path.join(root, "passports", edited, "versions.json");
    const original = readFileSync(file, "utf8");
    const history = JSON.parse(original) as VersionsJson;
    try {
      writeFileSync(file, JSON.stringify({ ...history, versions: history.versions.filter((v) => v.version !== 2) }));
      const dropped = await verify();
      expect(dropped.code).to.equal(1);
      expect(dropped.stdout).to.match(new RegExp(`^FAIL ${edited} .*version 3 is listed with 0x[0-9a-f]{64}; the chain set 0x[0-9a-f]{64} at step 2`, "m"));
      const made = { version: 4, data_hash: keccak256(toUtf8Bytes("never anchored")), valid_from: new Date().toISOString(), tx_hash: null, block_number: null, content: null, reason: "made up" };
      writeFileSync(file, JSON.stringify({ ...history, versions: [...history.versions, made] }));
      const added = await verify();
      expect(added.code).to.equal(1);
      expect(added.stdout).to.match(new RegExp(`^FAIL ${edited} +version 4 \\(0x[0-9a-f]{64}\\) is not on chain: the chain set 3 hash\\(es\\) for the token$`, "m"));
    } finally {
      writeFileSync(file, original);
    }
  });

  it("FAILs an item whose pinned model version the chain never anchored", async function () {
    this.timeout(300_000);
    const editor = await brandEditor("archive-pins", "ARP");
    const style = await create(editor, "ARP-MODEL", "Pinned Style");
    await stack.api.db("app.products").where({ uid: style }).update({ granularity: "model" });
    await issue(editor, style);
    const piece = await create(editor, "ARP-ITEM", "Pinned Style, one piece");
    const unanchored = keccak256(toUtf8Bytes("a model version that was never anchored"));
    await makeItemOf(piece, style, unanchored);
    await issue(editor, piece);
    const result = await verify(await exported("archive-pins"));
    expect(result.code).to.equal(1);
    expect(result.stdout).to.match(new RegExp(`^OK +${style} `, "m"));
    expect(result.stdout).to.match(new RegExp(`^FAIL ${piece} +version 1 pins its model ${style} at ${unanchored}, a hash the chain never set for that passport$`, "m"));
  });
});
