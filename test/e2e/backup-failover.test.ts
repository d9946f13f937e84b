// The back-up operator (issue 27, docs/backup.md) with two deployments on one chain: the primary (the shared stack's
// database, read through an API process of its own) and a back-up (its own database, BACKUP_OF the primary). Passports
// are issued on the primary, one with two versions and one whose stored bytes are then changed behind the chain's
// back; the back-up copies them, the primary's process is stopped, and the back-up answers every passport it took
// with the primary's bytes, whose hash is the chain's, and refuses the changed one.
/* eslint-disable @typescript-eslint/no-explicit-any -- the passports read here are JSON whose shape the test checks */
import { expect } from "chai";
import canonicalize from "canonicalize";
import { keccak256, toUtf8Bytes, ZeroAddress } from "ethers";
import { assembleService, type Service } from "../../api/src/assemble";
import { issueAuthorityKey } from "../../api/src/access/readers";
import { createBrand } from "../../api/src/brands/service";
import { mintedHashOf } from "../../api/src/chain/mint-call";
import { loadConfig } from "../../api/src/config";
import { tokenIdOf } from "../../api/src/passports/content";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

const V1 = "/api/dpp-lifecycle/v1";

describe("back-up operator: failover to a verified copy", () => {
  let stack: SeededStack;
  let primary: Service;
  let backup: Service;
  let brand: { slug: string; key: string };
  /** The key the primary issued its back-up: an authority key, so the back-up reads every element (docs/backup.md). */
  let feedKey: string;
  const passports: Record<"edited" | "plain" | "tampered", any> = {} as never;
  /** What the primary served before it stopped: each passport's version list and each version's bytes. */
  const served = new Map<string, { versions: any[]; bytes: Map<number, string> }>();

  /** An API process over `env` on a free port, running only `jobs`. */
  async function instance(env: Record<string, string>, jobs: Array<"backup-replication">): Promise<Service> {
    const port = await freePort();
    const config = loadConfig({
      SERVICE_MODE: "local",
      LOG_LEVEL: "silent",
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      RPC_URL: stack.api.config.rpcUrl,
      CHAIN_ID: String(stack.api.config.chainId),
      DEPLOYMENTS_DIR: stack.api.config.deploymentsDir,
      ...env,
    });
    return assembleService(config, { http: { host: "127.0.0.1", port }, jobs, poolSize: 4 });
  }

  const write = (method: string, path: string, body: unknown) =>
    fetch(`${stack.api.url}${V1}${path}`, {
      method,
      headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const path = (dpp: any) => `${V1}/dpps/${encodeURIComponent(dpp.digitalProductPassportId)}`;
  const chainHash = async (uid: string) => (await stack.contracts.passport.dataHashOf(tokenIdOf(uid))).toLowerCase();

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    const created = await createBrand(stack.api.db, { slug: "backup-failover", name: "Failover Apparel", uidPrefix: "BKF" });
    brand = { slug: created.brand.slug, key: created.key.key };
    for (const [name, sku] of [["edited", "BKF-EDITED"], ["plain", "BKF-PLAIN"], ["tampered", "BKF-TAMPERED"]] as const) {
      const res = await write("POST", "/dpps", { product: { sku, name: `Failover ${name}`, category: "t-shirt", fabric_type: "organic cotton" }, country_of_manufacture: "BD" });
      expect(res.status, await res.clone().text()).to.equal(201);
      passports[name] = await json(res);
      expect(passports[name].anchor.status).to.equal("anchored");
    }
    const patched = await write("PATCH", `/dpps/${encodeURIComponent(passports.edited.digitalProductPassportId)}`, {
      "passport-registry/dpp-content/3": { product: { name: "Failover edited, second version" } },
    });
    expect(patched.status, await patched.clone().text()).to.equal(200);
    passports.edited = await json(patched);
    expect(passports.edited.anchor.version).to.equal(2);

    // The primary's stored bytes of one version changed behind the chain's back: it now serves content whose hash
    // is not the one anchored.
    const tampered = await stack.api.db("app.products").where("dpp_id", passports.tampered.digitalProductPassportId).first<{ id: number }>("id");
    const changed = await stack.api.db("app.passports").where("product_id", tampered.id).update({ content: stack.api.db.raw("replace(content, 'Failover tampered', 'Failover tampereD')") });
    expect(changed).to.equal(1);

    feedKey = (await issueAuthorityKey(stack.api.db, "Back-up operator (failover test)")).key;
    primary = await instance({ DATABASE_URL: stack.api.config.databaseUrl, BACKUP_FEED_KEY: feedKey }, []);
    for (const dpp of Object.values(passports)) {
      const list = (await json(await fetch(`${primary.url}${path(dpp)}/versions`))).versions;
      const bytes = new Map<number, string>();
      for (const v of list) bytes.set(v.version, await (await fetch(`${primary.url}${path(dpp)}/versions/${v.version}/content`)).text());
      served.set(dpp.digitalProductPassportId, { versions: list, bytes });
    }
    backup = await instance({ DATABASE_URL: await createTestDatabase("backup_operator"), BACKUP_OF: primary.url!, BACKUP_OF_KEYS: feedKey, BACKUP_POLL_INTERVAL_MS: "200" }, ["backup-replication"]);
  });

  after(async function () {
    this.timeout(60_000);
    await backup?.stop();
    await primary?.stop();
  });

  it("refuses the feed without the key the primary issued", async function () {
    expect((await fetch(`${primary.url}/api/backup/v1/changes?since=2026-01-01T00:00:00Z`)).status).to.equal(401);
    const wrong = await fetch(`${primary.url}/api/backup/v1/changes?since=2026-01-01T00:00:00Z`, { headers: { Authorization: "Bearer not-the-key" } });
    expect(wrong.status).to.equal(401);
    const bad = await fetch(`${primary.url}/api/backup/v1/changes?since=yesterday`, { headers: { Authorization: `Bearer ${feedKey}` } });
    expect(bad.status).to.equal(422);
    expect((await json(bad)).error.code).to.equal("VALIDATION_ERROR");
  });

  it("copies every version whose hash the chain set, and refuses the changed one", async function () {
    this.timeout(120_000);
    const status = await waitFor(
      "the back-up to hold both versions of the edited passport and to refuse the changed one",
      async () => {
        const body = await json(await fetch(`${backup.url}/api/backup/v1/status`));
        const mine = body.primaries.find((p: any) => p.baseUrl === primary.url);
        const edited = await fetch(`${backup.url}${path(passports.edited)}/versions`);
        const held = edited.status === 200 ? (await json(edited)).versions.length : 0;
        return held === 2 && mine?.refusals.some((r: any) => r.dppId === passports.tampered.digitalProductPassportId) ? mine : undefined;
      },
      100_000,
      250,
    );
    expect(status.lastError, status.lastError).to.equal(null);
    expect(status.versions).to.be.at.least(3);
    const refusal = status.refusals.find((r: any) => r.dppId === passports.tampered.digitalProductPassportId);
    expect(refusal).to.include({ version: 1 });
    expect(refusal.reason).to.match(/not the hash the chain set/);
    expect(refusal.chainHash).to.equal(await chainHash(passports.tampered["passport-registry/dpp-content/3"].uid));
    expect(refusal.computedHash).to.equal(keccak256(toUtf8Bytes(served.get(passports.tampered.digitalProductPassportId)!.bytes.get(1)!)).toLowerCase());
  });

  it("answers every passport it took byte for byte once the primary is stopped, with the chain's hashes", async function () {
    this.timeout(60_000);
    primary.server?.closeAllConnections();
    await primary.stop();
    const down = await fetch(`${primary.url}${path(passports.plain)}`).then(
      (res) => res.status,
      () => "refused",
    );
    expect(down, "the primary's process no longer answers").to.equal("refused");

    for (const dpp of [passports.edited, passports.plain]) {
      const primaryCopy = served.get(dpp.digitalProductPassportId)!;
      const uid = dpp["passport-registry/dpp-content/3"].uid as string;
      const versions = (await json(await fetch(`${backup.url}${path(dpp)}/versions`))).versions;
      expect(versions.map((v: any) => [v.version, v.dataHash, v.transactionHash])).to.deep.equal(primaryCopy.versions.map((v: any) => [v.version, v.dataHash, v.transactionHash]));
      // The hashes the chain set for the token, in order (the mint, then each update), are the versions'.
      const { passport: contract } = stack.contracts;
      const minted = await contract.queryFilter(contract.filters.Transfer(ZeroAddress, undefined, tokenIdOf(uid)));
      const mintHashes = await Promise.all(minted.map(async (l) => mintedHashOf(await l.getTransaction(), l.address, tokenIdOf(uid))));
      const updated = await contract.queryFilter(contract.filters.DataHashUpdated(tokenIdOf(uid)));
      expect(versions.map((v: any) => v.dataHash)).to.deep.equal([...mintHashes, ...updated.map((l) => l.args.newHash)].map((h) => h.toLowerCase()));
      for (const v of versions) {
        const res = await fetch(`${backup.url}${path(dpp)}/versions/${v.version}/content`);
        expect(res.status).to.equal(200);
        const text = await res.text();
        expect(text, `version ${v.version} byte for byte`).to.equal(primaryCopy.bytes.get(v.version));
        expect(keccak256(toUtf8Bytes(text)).toLowerCase()).to.equal(v.dataHash);
      }
      // The passport as read: the latest version's section, whose hash is the one the contract holds now.
      const read = await fetch(`${backup.url}${path(dpp)}`);
      expect(read.status).to.equal(200);
      const passport = await json(read);
      const section = passport["passport-registry/dpp-content/3"];
      expect(canonicalize(section)).to.equal(primaryCopy.bytes.get(versions.at(-1).version));
      expect(keccak256(toUtf8Bytes(canonicalize(section)!)).toLowerCase()).to.equal(await chainHash(uid));
      expect(passport.anchor).to.include({ status: "anchored", dataHash: await chainHash(uid), tokenId: tokenIdOf(uid), version: versions.length });
      expect(passport).to.include({ digitalProductPassportId: dpp.digitalProductPassportId, granularity: "item", dppStatus: "active" });
      // And by its product identifier (the UID), as a tag's URL would name it.
      const byUid = await fetch(`${backup.url}${V1}/dppsByProductId/${encodeURIComponent(uid)}`);
      expect(byUid.status).to.equal(200);
      expect((await json(byUid)).digitalProductPassportId).to.equal(dpp.digitalProductPassportId);
    }
    expect(served.get(passports.edited.digitalProductPassportId)!.versions).to.have.length(2);
    // The edited passport as it was before its edit: version 1's section, as the primary anchored it.
    const edited = served.get(passports.edited.digitalProductPassportId)!;
    const before = await fetch(`${backup.url}${V1}/dppsByIdAndDate/${encodeURIComponent(passports.edited.digitalProductPassportId)}?date=${edited.versions[0].validFrom}`);
    expect(before.status, await before.clone().text()).to.equal(200);
    const then = await json(before);
    expect(canonicalize(then["passport-registry/dpp-content/3"])).to.equal(edited.bytes.get(1));
    expect(then.anchor).to.include({ version: 1, dataHash: edited.versions[0].dataHash });

    // An authority of the back-up's own reads a held passport as one, and the back-up logs it (with no brand there).
    const authority = (await issueAuthorityKey(backup.deps.db, "Market surveillance (failover test)")).key;
    const asAuthority = await fetch(`${backup.url}${path(passports.plain)}`, { headers: { Authorization: `Bearer ${authority}` } });
    expect(asAuthority.status, await asAuthority.clone().text()).to.equal(200);
    expect((await json(asAuthority)).access).to.deep.equal({ class: "authority", withheld: [] });
    const logged = await backup.deps.db("app.access_log").where("dpp_id", passports.plain.digitalProductPassportId).select("brand_id", "reader_class", "operation");
    expect(logged).to.deep.equal([{ brand_id: null, reader_class: "authority", operation: "ReadDPPById" }]);

    // The changed passport was never taken: the back-up does not serve it.
    const tampered = await fetch(`${backup.url}${path(passports.tampered)}`);
    expect(tampered.status).to.equal(404);
    expect((await json(tampered)).messages[0].code).to.equal("NOT_FOUND");
  });
});
