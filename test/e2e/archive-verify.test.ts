// The archive outlives the service: `npm run export` (scripts/export.ts, a process of its own) writes the demo
// brand's passports from the seeded stack's database; from then on nothing calls the API. The archive is unpacked
// with tar and its own verify script, run with plain node and only the chain's RPC URL, finds every passport OK
// (exit 0); one byte changed in one passport's content, or a credential altered, makes that passport FAIL (exit 1).
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { keccak256 } from "ethers";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";
import { exportArchive, unpackArchive, verifyArchive } from "../support/archive";

describe("passport archive: verified against the chain without the service", () => {
  let stack: SeededStack;
  let work: string;
  let root: string;
  // The brand's minted passports when the archive is written: the demo's, and any other test's before this file.
  let mintedUids: string[] = [];
  const minted = () => mintedUids;
  // verify.js finds ethers and canonicalize here, as it would after `npm install` in its folder.
  const verify = (extraArgs: string[] = []) => verifyArchive(stack, root, extraArgs);

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    // The credentials carry the hash the indexer has: let it catch up with the demo's mints first.
    await waitForIndexer(stack);
    work = mkdtempSync(path.join(os.tmpdir(), "archive-verify-"));
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("npm run export writes the archive with progress on stderr", async function () {
    this.timeout(180_000);
    const file = path.join(work, "demo.tar.gz");
    const rows = await stack.api
      .db("app.passports as x")
      .join("app.products as p", "p.id", "x.product_id")
      .join("app.brands as b", "b.id", "p.brand_id")
      .where({ "b.slug": "demo-apparel", "x.status": "minted" })
      .select<Array<{ uid: string }>>("p.uid");
    mintedUids = rows.map((row) => row.uid);
    expect(mintedUids).to.include.members(stack.demo.products.filter((p) => p.minted).map((p) => p.uid));
    const exported = await exportArchive(stack, "demo-apparel", file);
    expect(exported.code, exported.stderr).to.equal(0);
    expect(exported.stderr).to.contain(`[1/${minted().length}]`).and.contain(`Wrote ${file}`);
    const unpacked = await unpackArchive(file, work, "demo-apparel");
    expect(unpacked, "the archive unpacks into one folder").to.be.a("string");
    root = unpacked!;
  });

  it("holds each minted passport's content exactly as hashed, its anchor, record and signed credential", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "manifest.json"), "utf8")) as { chain_id: number; passports: Array<{ uid: string; path: string; data_hash: string; credential: boolean }> };
    expect(manifest.chain_id).to.equal(stack.api.config.chainId);
    expect(manifest.passports.map((p) => p.uid)).to.have.members(minted());
    for (const entry of manifest.passports) {
      const dir = path.join(root, entry.path);
      // keccak256 of the file's bytes is the data hash: they are the canonical JSON that was hashed.
      expect(keccak256(readFileSync(path.join(dir, "content.json")))).to.equal(entry.data_hash);
      const anchor = JSON.parse(readFileSync(path.join(dir, "anchor.json"), "utf8")) as Record<string, unknown>;
      expect(anchor).to.include({ uid: entry.uid, data_hash: entry.data_hash, chain_id: stack.api.config.chainId });
      expect(anchor.mint_tx_hash).to.match(/^0x[0-9a-f]{64}$/);
      expect(entry.credential, `credential of ${entry.uid}`).to.equal(true);
      expect(readFileSync(path.join(dir, "credential.jwt"), "utf8").split(".")).to.have.length(3);
      // The last version the chain anchored is content.json, byte for byte (archive-versions.test.ts covers edited passports).
      const { versions } = JSON.parse(readFileSync(path.join(dir, "versions.json"), "utf8")) as { versions: Array<{ data_hash: string; content: string }> };
      expect(versions.at(-1)!.data_hash).to.equal(entry.data_hash);
      expect(readFileSync(path.join(dir, versions.at(-1)!.content), "utf8")).to.equal(readFileSync(path.join(dir, "content.json"), "utf8"));
    }
    const pkg = JSON.parse(readFileSync(path.join(root, "verify", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).to.have.members(["ethers", "canonicalize"]);
    expect(readFileSync(path.join(root, "README.txt"), "utf8")).to.contain("node verify.js --rpc");
    expect(JSON.parse(readFileSync(path.join(root, "did.json"), "utf8")).verificationMethod).to.have.length.at.least(1);
  });

  it("verifies every passport against the chain: OK each, exit 0", async function () {
    this.timeout(120_000);
    const result = await verify();
    expect(result.code, result.stdout + result.stderr).to.equal(0);
    for (const uid of minted()) expect(result.stdout).to.match(new RegExp(`^OK +${uid} +0x[0-9a-f]{64} on chain`, "m"));
    expect(result.stdout).to.contain(`All ${minted().length} passports verified.`);
  });

  it("finds one byte changed in a passport's content: that passport FAILs, the others stay OK, exit 1", async function () {
    this.timeout(120_000);
    const file = path.join(root, "passports", "DEMO-7K3M9Q2X", "content.json");
    const original = readFileSync(file, "utf8");
    expect(original).to.contain("Organic Oxford Shirt");
    writeFileSync(file, original.replace("Organic Oxford Shirt", "Organic Oxford Shirk"));
    try {
      const result = await verify();
      expect(result.code).to.equal(1);
      expect(result.stdout).to.match(/^FAIL DEMO-7K3M9Q2X +content hashes to 0x[0-9a-f]{64}; the chain holds 0x[0-9a-f]{64}/m);
      for (const uid of minted().filter((u) => u !== "DEMO-7K3M9Q2X")) expect(result.stdout).to.match(new RegExp(`^OK +${uid} `, "m"));
      expect(result.stdout).to.contain(`1 of ${minted().length} passports FAILED.`);
    } finally {
      writeFileSync(file, original);
    }
  });

  it("pins the contract the reader trusts: the right one verifies, another fails every passport", async function () {
    this.timeout(120_000);
    const unpinned = await verify();
    expect(unpinned.stdout).to.contain("is the archive's own word: pass --contract <address>");
    const contract = stack.contracts.deployment.contracts.ProductPassport.address;
    const pinned = await verify(["--contract", contract]);
    expect(pinned.code, pinned.stdout + pinned.stderr).to.equal(0);
    expect(pinned.stdout).to.contain(`Contract pinned: ${contract}`).and.contain(`All ${minted().length} passports verified.`);
    const other = "0x000000000000000000000000000000000000dEaD";
    const wrong = await verify(["--contract", other]);
    expect(wrong.code).to.equal(1);
    for (const uid of minted()) expect(wrong.stdout).to.match(new RegExp(`^FAIL ${uid} +anchored on contract 0x[0-9a-fA-F]{40}, not the trusted ${other}`, "m"));
    expect((await verify(["--contract", "0x12"])).code, "a malformed address is a wrong invocation").to.equal(2);
  });

  it("pins the signing key the reader trusts: another did.json with the same key ids fails every credential", async function () {
    this.timeout(120_000);
    const archived = JSON.parse(readFileSync(path.join(root, "did.json"), "utf8")) as { verificationMethod: Array<{ id: string; publicKeyJwk: unknown }> };
    const published = path.join(work, "published-did.json");
    writeFileSync(published, JSON.stringify(archived));
    const same = await verify(["--did", published]);
    expect(same.code, same.stdout + same.stderr).to.equal(0);
    expect(same.stdout).to.contain(`Signing key from ${published}`);
    // A forger's document: the archive's key ids, another Ed25519 key.
    const forgerKey = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
    const forged = { ...archived, verificationMethod: archived.verificationMethod.map((m) => ({ ...m, publicKeyJwk: forgerKey })) };
    const other = path.join(work, "other-did.json");
    writeFileSync(other, JSON.stringify(forged));
    const refused = await verify(["--did", other]);
    expect(refused.code).to.equal(1);
    for (const uid of minted()) expect(refused.stdout).to.match(new RegExp(`^FAIL ${uid} .*signature does not verify with other-did\\.json`, "m"));
    expect((await verify(["--did", path.join(work, "missing.json")])).code).to.equal(2);
  });

  it("finds a credential that is not what its signature covers", async function () {
    this.timeout(120_000);
    const file = path.join(root, "passports", "DEMO-4VH8N1TR", "credential.jwt");
    const original = readFileSync(file, "utf8");
    const [header, payload, signature] = original.trim().split(".");
    const forged = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as { name: string };
    forged.name = `${forged.name} (forged)`;
    writeFileSync(file, `${header}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${signature}\n`);
    try {
      const result = await verify();
      expect(result.code).to.equal(1);
      expect(result.stdout).to.match(/^FAIL DEMO-4VH8N1TR .*signature does not verify with did\.json/m);
    } finally {
      writeFileSync(file, original);
    }
  });
});
