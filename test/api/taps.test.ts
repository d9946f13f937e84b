// Verified NFC taps end to end (issue 12): emulated NTAG 424 DNA taps on the scan page and GET /api/scan/{uid} give
// each verdict, the replay rule holds under concurrent taps, provisioning hands out the derivation's keys to those
// allowed to see them (dashboard and CLI), assigning a tag on chain binds its record, scan.verified reaches the
// dashboard webhook signed for an authentic tap of a verified passport only, and the demo's tags tap as authentic.
import { buildAppDeps } from "../../api/src/assemble";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { runAdmin } from "../support/admin-cli";
import { startWebhookReceiver, type Delivery, type WebhookReceiver } from "../support/webhook-receiver";
import { TAP_RECORDS_PER_CLIENT_HOUR } from "../../api/src/tags/verification";
import { shopperWords } from "../../api/src/tags/verdicts";
import { parse } from "csv-parse/sync";
import { Webhook } from "standardwebhooks";
import { buildApp } from "../../api/src/app";
import { createBrand } from "../../api/src/brands/service";
import { createProvider } from "../../api/src/chain/provider";
import type { Knex } from "../../api/src/db/knex";
import type { AppDeps } from "../../api/src/deps";
import { createLogger } from "../../api/src/logger";
import { tokenIdOf } from "../../api/src/passports/content";
import { deriveTagKey } from "../../api/src/tags/keys";
import { SDM_MIRROR_QUERY } from "../../api/src/tags/provisioning";
import { tagHashOf } from "../../api/src/tags/service";
import type { SunKeys } from "../../api/src/tags/sun";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { setDashboardWebhook } from "../../api/src/webhooks/endpoints";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { emulateTap, type EmulatedTap } from "../../scripts/lib/tap-emulator";
import { OpenApiContract } from "../support/contract";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";


type CsvRow = { tag_uid: string; chip: string; key_version: string; product_uid: string; url_template: string; sdm_meta_read_key: string; sdm_file_read_key: string };

const csvRows = (text: string): CsvRow[] => parse(text, { columns: true, skip_empty_lines: true }) as CsvRow[];
const keysOfRow = (row: CsvRow): SunKeys => ({ sdmMetaRead: Buffer.from(row.sdm_meta_read_key, "hex"), sdmFileRead: Buffer.from(row.sdm_file_read_key, "hex") });
const newTagUid = () => `04${randomBytes(6).toString("hex").toUpperCase()}`;
const queryOf = (tap: Partial<EmulatedTap> & Record<string, string | undefined>) =>
  Object.entries(tap)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join("&");

/** `value` (hex) with one bit flipped, upper case. */
function flipBit(value: string, bit: number): string {
  const bytes = Buffer.from(value, "hex");
  bytes[bit >> 3] ^= 0x80 >> (bit & 7);
  return bytes.toString("hex").toUpperCase();
}

/** A server of our own over a stack's dependencies, behind one trusted proxy: tests speak for many clients and regions. */
async function proxiedApp(base: { config: AppDeps["config"]; db: Knex; chain: AppDeps["chain"] }) {
  const provider = createProvider(base.config.rpcUrl, base.config.chainId);
  const deps: AppDeps = buildAppDeps({ config: { ...base.config, trustedProxyHops: 1 }, db: base.db, provider, chain: base.chain, logger: createLogger("silent") });
  const recorder = deps.scanRecorder;
  const server: Server = buildApp(deps).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    recorder,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await recorder.close();
      provider.destroy();
    },
  };
}

describe("NFC taps: verdicts, replay, provisioning (Postgres)", () => {
  let api: InProcessApi;
  let proxied: Awaited<ReturnType<typeof proxiedApp>>;
  let contract: OpenApiContract;
  let owner: DashboardClient;
  let editor: DashboardClient;
  let viewer: DashboardClient;
  let cashier: DashboardClient;
  let strangerOwner: DashboardClient;
  const brand = { id: 0, key: "", slug: "taps-a" };
  const other = { id: 0, key: "", slug: "taps-b" };
  /** Products of brand A: P and R carry a provisioned tag each, Q none. */
  const uid = { p: "", q: "", r: "", b: "" };
  const tag = { p: "", r: "" };
  const keys: Record<string, SunKeys> = {};

  async function product(of: { key: string; slug: string }, name: string): Promise<string> {
    const res = await fetch(`${api.url}/api/v1/products`, {
      method: "POST",
      headers: { Authorization: `Bearer ${of.key}`, "X-Service-Brand": of.slug, "Content-Type": "application/json" },
      body: JSON.stringify({ sku: `TAP-${randomBytes(3).toString("hex")}`, name, category: "t-shirt", fabric_type: "organic cotton", price: 990 }),
    });
    expect(res.status, await res.clone().text()).to.equal(201);
    return (await json(res)).data.uid as string;
  }

  const provision = (client: DashboardClient, body: unknown) => client.call("/api/dashboard/tags/provision", { method: "POST", json: body });
  const page = async (productUid: string, query = "", base = api.url, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/scan/${productUid}${query ? `?${query}` : ""}`, { headers });
    expect(res.status).to.equal(200);
    return res.text();
  };
  const verdict = async (productUid: string, query = "") => {
    const res = await fetch(`${api.url}/api/scan/${productUid}${query ? `?${query}` : ""}`);
    const problems = await contract.check("GET", `/api/scan/${productUid}`, res.clone());
    expect(problems, problems.join("\n")).to.deep.equal([]);
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(res.headers.get("cache-control")).to.equal("no-store");
    return json(res);
  };
  const tap = (tagUid: string, counter: number) => emulateTap({ uid: tagUid, counter, keys: keys[tagUid]! });
  const tagRow = (tagUid: string) => api.db("app.tags").where({ tag_uid: tagUid }).first<{ last_counter: number; status: string; product_id: number | null; chip: string }>();
  const tapsOf = (productUid: string) =>
    api.db("app.tag_taps as h").join("app.products as p", "p.id", "h.product_id").where("p.uid", productUid).orderBy("h.id").select<Array<{ verdict: string; counter: number | null; tag_id: string | null; client_region: string | null }>>("h.verdict", "h.counter", "h.tag_id", "h.client_region");

  before(async function () {
    this.timeout(120_000);
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("taps"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    contract = await OpenApiContract.load(api.url);
    for (const [target, name, prefix] of [[brand, "Taps A", "TPA"], [other, "Taps B", "TPB"]] as const) {
      const created = await createBrand(api.db, { slug: target.slug, name, uidPrefix: prefix, plan: "growth" });
      target.id = created.brand.id;
      target.key = created.key.key;
    }
    uid.p = await product(brand, "Tapped shirt");
    uid.q = await product(brand, "Untagged shirt");
    uid.r = await product(brand, "Concurrent shirt");
    uid.b = await product(other, "Other brand's shirt");
    [owner, editor, viewer, cashier] = await Promise.all((["owner", "editor", "viewer", "cashier"] as const).map((role) => dashboardClient(api.url, api.db, brand.id, role)));
    strangerOwner = await dashboardClient(api.url, api.db, other.id, "owner");
    proxied = await proxiedApp(api);
  });
  after(async () => {
    await proxied?.close();
    await api?.close();
  });

  it("words a verdict for shoppers without a doubled full stop after a brand name that ends with one", () => {
    expect(shopperWords("invalid", "Demo Apparel Co.").detail).to.match(/ask Demo Apparel Co\.$/);
    expect(shopperWords("invalid", "Acme").detail).to.match(/ask Acme\.$/);
  });

  it("provisions a batch as CSV: scan URLs with SDM placeholders, the derivation's keys, for owners and admins only", async () => {
    tag.p = newTagUid();
    tag.r = newTagUid();
    const res = await provision(owner, { chip: "NTAG424", tag_uids: [tag.p, tag.r.toLowerCase()], product_uids: [uid.p, uid.r.toLowerCase()] });
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^text\/csv/);
    expect(res.headers.get("content-disposition")).to.match(/^attachment; filename="tags-ntag424-\d{4}-\d\d-\d\d\.csv"$/);
    expect(res.headers.get("cache-control")).to.equal("no-store");
    expect(await contract.check("POST", "/api/dashboard/tags/provision", res.clone())).to.deep.equal([]);
    const rows = csvRows(await res.text());
    expect(rows.map((row) => [row.tag_uid, row.chip, row.key_version, row.product_uid])).to.deep.equal([
      [tag.p, "NTAG424", "1", uid.p],
      [tag.r, "NTAG424", "1", uid.r],
    ]);
    const masterKey = api.config.tags.masterKey;
    for (const row of rows) {
      expect(row.url_template).to.equal(`${api.config.publicBaseUrl}/scan/${row.product_uid}?${SDM_MIRROR_QUERY}`);
      expect(row.url_template).to.include("picc_data=00000000000000000000000000000000&cmac=0000000000000000");
      // The keys are those of the HKDF derivation (keys.ts), recomputed here from the master key, UID and version.
      expect(row.sdm_meta_read_key).to.equal(deriveTagKey(masterKey, row.tag_uid, 1, "sdm-meta-read").toString("hex").toUpperCase());
      expect(row.sdm_file_read_key).to.equal(deriveTagKey(masterKey, row.tag_uid, 1, "sdm-file-read").toString("hex").toUpperCase());
      expect(row.sdm_meta_read_key).to.not.equal(row.sdm_file_read_key);
      keys[row.tag_uid] = keysOfRow(row);
    }
    expect(await tagRow(tag.p)).to.include({ chip: "NTAG424", status: "active", last_counter: -1 });

    // An editor may provision (URL templates) but gets no keys; a tag without a product gets a template to fill in.
    const spare = newTagUid();
    const edited = await provision(editor, { chip: "NTAG424", tag_uids: [spare] });
    expect(edited.status).to.equal(200);
    const [editorRow] = csvRows(await edited.text());
    expect(editorRow).to.include({ tag_uid: spare, product_uid: "", sdm_meta_read_key: "", sdm_file_read_key: "" });
    expect(editorRow!.url_template).to.equal(`${api.config.publicBaseUrl}/scan/{product_uid}?${SDM_MIRROR_QUERY}`);
    expect(await tagRow(spare)).to.include({ status: "unassigned", product_id: null });
    const plain = csvRows(await (await provision(owner, { chip: "NTAG215", tag_uids: [newTagUid()], product_uids: [uid.q] })).text());
    expect(plain[0]).to.include({ chip: "NTAG215", key_version: "", url_template: `${api.config.publicBaseUrl}/scan/${uid.q}`, sdm_meta_read_key: "" });

    for (const refused of [viewer, cashier]) {
      const res403 = await provision(refused, { chip: "NTAG424", tag_uids: [newTagUid()] });
      expect(res403.status).to.equal(403);
      expect((await json(res403)).error.code).to.equal("FORBIDDEN");
    }

    // The audit log names the batch, never a key.
    const entries = await api.db("app.audit_log").where({ brand_id: brand.id, action: "tags.provisioned" }).orderBy("id").select<Array<{ actor: string; details: Record<string, unknown> }>>("actor", "details");
    expect(entries).to.have.length(3);
    expect(entries[0]!.details).to.deep.include({ chip: "NTAG424", count: 2, key_version: 1, keys_included: true, products: 2, tag_uids: [tag.p, tag.r] });
    expect(entries[1]!.details).to.include({ keys_included: false });
    for (const secret of Object.values(keys).flatMap((k) => [k.sdmMetaRead, k.sdmFileRead])) {
      expect(JSON.stringify(entries).toUpperCase()).to.not.include(secret.toString("hex").toUpperCase());
    }
  });

  it("refuses a tag another brand holds (409, nothing written) and malformed batches (422 naming each entry)", async () => {
    const fresh = newTagUid();
    const taken = await provision(strangerOwner, { chip: "NTAG424", tag_uids: [fresh, tag.p] });
    expect(taken.status).to.equal(409);
    const body = await json(taken);
    expect(body.error.code).to.equal("CONFLICT");
    expect(body.error.message).to.include(tag.p);
    expect(await tagRow(fresh)).to.equal(undefined);
    expect(await tagRow(tag.p)).to.include({ status: "active" });

    const problems = async (body: unknown) => {
      const res = await provision(owner, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(422);
      return ((await json(res)).error.details as Array<{ field: string; problem: string }>).map((d) => d.field);
    };
    expect(await problems({ chip: "NTAG424", tag_uids: [fresh, fresh.toLowerCase()] })).to.deep.equal(["tag_uids.1"]);
    expect(await problems({ chip: "NTAG424", tag_uids: [fresh], product_uids: [uid.b] })).to.deep.equal(["product_uids.0"]);
    expect(await problems({ chip: "NTAG424", tag_uids: [fresh, newTagUid()], product_uids: [uid.p] })).to.include("product_uids");
    expect(await problems({ chip: "NTAG424", tag_uids: ["04AABB"] })).to.deep.equal(["tag_uids.0"]);
    expect(await problems({ chip: "NTAG213", tag_uids: [fresh] })).to.deep.equal(["chip"]);
    expect(await problems({ chip: "NTAG424", tag_uids: Array.from({ length: 1001 }, newTagUid) })).to.deep.equal(["tag_uids"]);
    expect(await problems({ chip: "NTAG424", tag_uids: [fresh], keys: true })).to.deep.equal(["keys"]);
    expect(await tagRow(fresh)).to.equal(undefined);
  });

  it("an emulated authentic tap: the page says genuine, the JSON says authentic; the same URLs again are replayed", async () => {
    const first = queryOf(tap(tag.p, 1));
    const html = await page(uid.p, first);
    expect(html).to.include('aria-label="Tag check"').and.include("Genuine tag").and.include("NTAG 424 DNA");
    const second = queryOf(tap(tag.p, 2));
    const authentic = await verdict(uid.p, second);
    expect(authentic).to.deep.include({ uid: uid.p, verdict: "authentic", headline: "Genuine tag", tag: { chip: "NTAG424", counter: 2 } });
    expect(authentic.passport).to.include({ verified: false, status: null });
    expect((await tagRow(tag.p))!.last_counter).to.equal(2);

    const again = await page(uid.p, first);
    expect(again).to.include("This link was used before").and.not.include("Genuine tag");
    expect(again).to.include('role="alert"');
    expect(await verdict(uid.p, second)).to.deep.include({ verdict: "replayed", tag: { chip: "NTAG424", counter: 2 } });
    // A fresh tap (new random padding) with an old counter is a replay too; the counter never goes back.
    expect((await verdict(uid.p, queryOf(tap(tag.p, 1)))).verdict).to.equal("replayed");
    expect((await tagRow(tag.p))!.last_counter).to.equal(2);
    // Tracking parameters a shared link picked up do not disturb the page.
    expect(await page(uid.p, `utm_source=chat&${queryOf(tap(tag.p, 3))}`)).to.include("Genuine tag");
    expect((await tapsOf(uid.p)).map((t) => [t.verdict, t.counter])).to.deep.equal([
      ["authentic", 1],
      ["authentic", 2],
      ["replayed", 1],
      ["replayed", 2],
      ["replayed", 1],
      ["authentic", 3],
    ]);
  });

  it("a flipped bit, a wrong length or a repeated parameter is invalid, on a page that still shows the passport", async () => {
    const good = tap(tag.p, 10);
    for (const bad of [
      { ...good, cmac: flipBit(good.cmac, 0) },
      { ...good, cmac: flipBit(good.cmac, 63) },
      { ...good, picc_data: flipBit(good.picc_data, 77) },
      { ...good, cmac: good.cmac.slice(2) },
      { picc_data: good.picc_data },
    ]) {
      expect((await verdict(uid.p, queryOf(bad))).verdict, JSON.stringify(bad)).to.equal("invalid");
    }
    const html = await page(uid.p, `${queryOf({ ...good, cmac: flipBit(good.cmac, 5) })}&picc_data=${good.picc_data}`);
    expect(html).to.include("This tag could not be verified").and.include("Tapped shirt");
    // None of them moved the counter: the genuine tap still passes.
    expect((await verdict(uid.p, queryOf(good))).verdict).to.equal("authentic");

    // The JSON API holds its query to the schema: unknown, repeated or overlong parameters are 422s.
    for (const query of [`${queryOf(good)}&utm_source=x`, `${queryOf(good)}&cmac=${good.cmac}`, `picc_data=${"A".repeat(65)}&cmac=${good.cmac}`]) {
      const res = await fetch(`${api.url}/api/scan/${uid.p}?${query}`);
      expect(res.status, query).to.equal(422);
      expect((await json(res)).error.code).to.equal("VALIDATION_ERROR");
    }
    expect((await fetch(`${api.url}/api/scan/NOPE-ZZZZZZZZ?${queryOf(good)}`)).status).to.equal(404);
    const invalid = (await tapsOf(uid.p)).filter((t) => t.verdict === "invalid");
    expect(invalid).to.have.length(6);
    expect(invalid.every((t) => t.counter === null && t.tag_id === null)).to.equal(true);
  });

  it("unknown_tag on a product without a signing tag; not_bound for a genuine tag of another product, whose counter stays its own", async () => {
    const stranger = newTagUid();
    keys[stranger] = { sdmMetaRead: randomBytes(16), sdmFileRead: randomBytes(16) };
    expect((await verdict(uid.q, queryOf(tap(stranger, 5)))).verdict).to.equal("unknown_tag");
    expect(await page(uid.q, queryOf(tap(stranger, 6)))).to.include("Unknown tag");
    // On a product that has its own signing tag, a tag we cannot identify is indistinguishable from a forgery.
    expect((await verdict(uid.p, queryOf(tap(stranger, 7)))).verdict).to.equal("invalid");

    // Tag P (bound to product P, tapped lately) opened on Q's URL: its signature checks, but it is not Q's tag.
    const misplaced = await verdict(uid.q, queryOf(tap(tag.p, 50)));
    expect(misplaced).to.deep.include({ verdict: "not_bound", headline: "This tag belongs to another product", tag: { chip: "NTAG424", counter: 50 } });
    expect(await page(uid.q, queryOf(tap(tag.p, 51)))).to.include("This tag belongs to another product");
    expect((await tagRow(tag.p))!.last_counter).to.equal(10);
    expect((await verdict(uid.p, queryOf(tap(tag.p, 50)))).verdict).to.equal("authentic");
    // Another brand's product never learns of this brand's tags.
    expect((await verdict(uid.b, queryOf(tap(tag.p, 60)))).verdict).to.equal("unknown_tag");
  });

  it("without SUN parameters: unverified, no tag card, and a counted plain view is recorded as an unverified tap", async () => {
    expect(await verdict(uid.q)).to.deep.include({ verdict: "unverified", tag: null, headline: "Tag not checked" });
    const html = await page(uid.r);
    expect(html).to.include("Concurrent shirt").and.not.include("Tag check");
    await api.scanRecorder.drain();
    expect((await tapsOf(uid.r)).map((t) => t.verdict)).to.deep.equal(["unverified"]);
  });

  it("20 concurrent identical taps: exactly one is authentic, the others replayed", async () => {
    const query = queryOf(tap(tag.r, 7));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? verdict(uid.r, query).then((body) => body.verdict as string) : page(uid.r, query).then((html) => (html.includes("Genuine tag") ? "authentic" : html.includes("used before") ? "replayed" : "?")),
      ),
    );
    expect(answers.filter((v) => v === "authentic")).to.have.length(1);
    expect(answers.filter((v) => v === "replayed")).to.have.length(19);
    expect((await tagRow(tag.r))!.last_counter).to.equal(7);
    // The authentic tap is always recorded; replays only within one client's hourly budget of such rows.
    const recorded = (await tapsOf(uid.r)).filter((t) => t.counter === 7).map((t) => t.verdict);
    expect(recorded.filter((v) => v === "authentic")).to.have.length(1);
    expect(recorded.filter((v) => v === "replayed").length).to.be.within(0, TAP_RECORDS_PER_CLIENT_HOUR);
  });

  it("HEAD and prefetches check no tap, so the shopper's own view is still authentic", async () => {
    const query = queryOf(tap(tag.r, 8));
    expect((await fetch(`${api.url}/scan/${uid.r}?${query}`, { method: "HEAD" })).status).to.equal(200);
    expect((await fetch(`${api.url}/api/scan/${uid.r}?${query}`, { method: "HEAD" })).status).to.equal(200);
    expect(await page(uid.r, query, api.url, { "Sec-Purpose": "prefetch" })).to.not.include("Tag check");
    expect((await tagRow(tag.r))!.last_counter).to.equal(7);
    expect(await page(uid.r, query)).to.include("Genuine tag");
  });

  it("records a coarse client region only from a trusted proxy's header", async () => {
    const region = async (base: string, counter: number, value: string) => {
      await page(uid.r, queryOf(tap(tag.r, counter)), base, { "X-Forwarded-For": `198.51.100.${counter}`, "X-Client-Region": value });
      return (await tapsOf(uid.r)).find((t) => t.counter === counter)!.client_region;
    };
    expect(await region(proxied.url, 20, "bd")).to.equal("BD");
    expect(await region(proxied.url, 21, "DE-BY")).to.equal("DE-BY");
    expect(await region(proxied.url, 22, "<script>")).to.equal(null);
    // Without a trusted proxy the header is the client's own word: ignored.
    expect(await region(api.url, 23, "BD")).to.equal(null);
  });

  it("lists the brand's tags with status, last counter, last tap and taps by verdict; each brand sees its own", async () => {
    const res = await viewer.call(`/api/dashboard/tags?product=${uid.p}`);
    expect(await contract.check("GET", "/api/dashboard/tags", res.clone())).to.deep.equal([]);
    const body = await json(res);
    expect(body.meta).to.deep.equal({ page: 1, per_page: 25, total: 1 });
    const [listed] = body.data;
    expect(listed).to.include({ tag_uid: tag.p, chip: "NTAG424", key_version: 1, status: "active", product_uid: uid.p, last_counter: 50 });
    expect(listed.last_tap.verdict).to.equal("authentic");
    expect(listed.taps).to.deep.equal({ authentic: 5, replayed: 3, invalid: 0, unknown_tag: 0, not_bound: 2, unverified: 0 });

    const all = await json(await owner.call("/api/dashboard/tags?per_page=100"));
    expect(all.meta.total).to.equal(4);
    const spare = all.data.find((t: { status: string }) => t.status === "unassigned");
    expect(spare).to.include({ product_uid: null, last_counter: null, last_tap: null, last_accepted_at: null });
    expect((await json(await owner.call("/api/dashboard/tags?status=unassigned"))).data).to.have.length(1);
    expect((await json(await strangerOwner.call("/api/dashboard/tags"))).data).to.deep.equal([]);
    expect((await strangerOwner.call(`/api/dashboard/tags?product=${uid.p}`)).status).to.equal(404);
    expect((await owner.call("/api/dashboard/tags?status=lost")).status).to.equal(422);
  });

  it("the CLI's provision-tags writes the CSV (mode 600) with the derivation's keys, and refuses what the dashboard refuses", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "taps-cli-"));
    const run = (args: string[]) => runAdmin(args, { DATABASE_URL: api.config.databaseUrl });
    try {
      const uids = [newTagUid(), newTagUid()];
      const uidFile = path.join(dir, "uids.txt");
      writeFileSync(uidFile, `${uids[0]}\n${uids[1]!.toLowerCase()}\n`);
      const out = path.join(dir, "tags.csv");
      const done = await run(["provision-tags", "--brand", brand.slug, "--chip", "NTAG424", "--uids", uidFile, "--products", `${uid.q},${uid.q}`, "--out", out]);
      expect(done.code, done.stderr).to.equal(0);
      expect(done.stdout).to.include(`Provisioned 2 NTAG424 tags for ${brand.slug}`);
      expect(statSync(out).mode & 0o777).to.equal(0o600);
      const rows = csvRows(readFileSync(out, "utf8"));
      expect(rows.map((row) => [row.tag_uid, row.product_uid])).to.deep.equal([
        [uids[0], uid.q],
        [uids[1], uid.q],
      ]);
      for (const row of rows) expect(row.sdm_file_read_key).to.equal(deriveTagKey(api.config.tags.masterKey, row.tag_uid, 1, "sdm-file-read").toString("hex").toUpperCase());
      // Q now has signing tags: a tap of one of them is authentic there.
      keys[uids[1]!] = keysOfRow(rows[1]!);
      expect((await verdict(uid.q, queryOf(tap(uids[1]!, 1)))).verdict).to.equal("authentic");
      const entry = await api.db("app.audit_log").where({ brand_id: brand.id, action: "tags.provisioned", actor: "operator CLI" }).first();
      expect(entry).to.not.equal(undefined);

      const printed = await run(["provision-tags", "--brand", brand.slug, "--uids", newTagUid(), "--json"]);
      expect(printed.code, printed.stderr).to.equal(0);
      expect(JSON.parse(printed.stdout)[0]).to.include({ chip: "NTAG424", key_version: 1, product_uid: null });
      expect(JSON.parse(printed.stdout)[0].sdm_meta_read_key).to.match(/^[0-9A-F]{32}$/);

      const badChip = await run(["provision-tags", "--brand", brand.slug, "--chip", "NTAG213", "--uids", newTagUid()]);
      expect(badChip.code).to.equal(2);
      expect(badChip.stderr).to.include("--chip must be one of NTAG424, NTAG215");
      const badUid = await run(["provision-tags", "--brand", brand.slug, "--uids", "04XYZ"]);
      expect(badUid.code).to.equal(2);
      expect(badUid.stderr).to.include("tag_uids.0");
      const elsewhere = await run(["provision-tags", "--brand", other.slug, "--uids", tag.p]);
      expect(elsewhere.code).to.equal(1);
      expect(elsewhere.stderr).to.include("registered to another brand");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("NFC taps on the chain: binding by assignment, scan.verified, the demo's tags", () => {
  let stack: SeededStack;
  let app: Awaited<ReturnType<typeof proxiedApp>>;
  let receiver: WebhookReceiver;
  let receiverUrl: string;
  let received: Delivery[] = [];

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    app = await proxiedApp(stack.api);
    receiver = await startWebhookReceiver();
    received = receiver.received;
    receiverUrl = `${receiver.url}`;
  });
  after(async () => {
    await app?.close();
        await receiver?.close();
  });

  it("the demo's tags (in demo.json) are assigned on chain by their hash and tap as authentic", async () => {
    const { demo } = stack;
    expect(demo.tags.map((t) => t.product_uid)).to.deep.equal(demo.products.filter((p) => p.minted).map((p) => p.uid));
    for (const demoTag of demo.tags) {
      expect(demoTag).to.include({ type: "NTAG424" });
      expect(demoTag.tag_uid).to.match(/^04[0-9A-F]{12}$/);
      expect(String(await stack.contracts.passport.passportOfTag(tagHashOf(demoTag.tag_uid)))).to.equal(tokenIdOf(demoTag.product_uid));
      const row = await stack.api.db("app.tags").where({ tag_uid: demoTag.tag_uid }).first<{ last_counter: number }>();
      const tapped = emulateTap({
        uid: demoTag.tag_uid,
        counter: row!.last_counter + 1,
        keys: { sdmMetaRead: Buffer.from(demoTag.sdm_meta_read_key!, "hex"), sdmFileRead: Buffer.from(demoTag.sdm_file_read_key!, "hex") },
      });
      const url = `${stack.api.url}/scan/${demoTag.product_uid}?${queryOf(tapped)}`;
      expect(await (await fetch(url)).text(), demoTag.product_uid).to.include("Genuine tag");
      expect(await (await fetch(url)).text()).to.include("This link was used before");
    }
  });

  it("an assignment on chain binds the tag's record; scan.verified reaches the dashboard signed for an authentic tap of a verified passport only", async function () {
    this.timeout(240_000);
    const { db, config } = stack.api;
    const created = await createBrand(db, { slug: "taps-chain", name: "Taps on Chain", uidPrefix: "TPC", plan: "growth" });
    const brandId = created.brand.id;
    const owner = await dashboardClient(app.url, db, brandId, "owner");
    const post = (path: string, body?: unknown) => owner.call(path, { method: "POST", ...(body === undefined ? {} : { json: body }) });
    const { signingSecret } = await setDashboardWebhook({ db, config }, brandId, `${receiverUrl}/dashboard`);
    const v1 = await fetch(`${app.url}/api/v1/webhook/register`, {
      method: "POST",
      headers: { Authorization: `Bearer ${created.key.key}`, "X-Service-Brand": "taps-chain", "Content-Type": "application/json" },
      body: JSON.stringify({ url: `${receiverUrl}/v1`, events: ["scan.detected"] }),
    });
    expect(v1.status, await v1.clone().text()).to.equal(201);

    const newProduct = async (name: string) => {
      const res = await post("/api/dashboard/products", { sku: `TPC-${randomBytes(3).toString("hex")}`, name, category: "t-shirt", fabric_type: "cotton", price: 990 });
      expect(res.status, await res.clone().text()).to.equal(201);
      return (await json(res)).data.uid as string;
    };
    const minted = await newProduct("Minted tapped tee");
    const unminted = await newProduct("Unminted tapped tee");
    const issued = await post(`/api/dashboard/products/${minted}/certificate`);
    expect(issued.status, await issued.clone().text()).to.equal(202);

    // Two NTAG424 tags encoded with the unminted product's URL; the first is then assigned to the minted one on chain.
    const [moved, stays] = [newTagUid(), newTagUid()];
    const rows = csvRows(await (await post("/api/dashboard/tags/provision", { chip: "NTAG424", tag_uids: [moved, stays], product_uids: [unminted, unminted] })).text());
    const keys = new Map(rows.map((row) => [row.tag_uid, keysOfRow(row)]));
    await waitFor(
      "the certificate to be verified on chain",
      async () => ((await json(await fetch(`${stack.api.url}/api/dpp/${minted}`))).blockchain.verified === true ? true : undefined),
      120_000,
      250,
    );
    const assigned = await post(`/api/dashboard/products/${minted}/tag`, { tag_uid: moved });
    expect(assigned.status, await assigned.clone().text()).to.equal(200);
    const record = (tagUid: string) => db("app.tags as t").leftJoin("app.products as p", "p.id", "t.product_id").where("t.tag_uid", tagUid).first<{ chip: string; status: string; uid: string | null }>("t.chip", "t.status", "p.uid");
    expect(await record(moved)).to.deep.equal({ chip: "NTAG424", status: "active", uid: minted });

    // Each tap from its own client, so each view counts as a scan.
    let client = 0;
    const tapPage = async (productUid: string, query: string) => {
      client += 1;
      const res = await fetch(`${app.url}/scan/${productUid}?${query}`, { headers: { "X-Forwarded-For": `203.0.113.${client}` } });
      expect(res.status).to.equal(200);
      return res.text();
    };
    const tapOf = (tagUid: string, counter: number) => queryOf(emulateTap({ uid: tagUid, counter, keys: keys.get(tagUid)! }));
    const authentic = tapOf(moved, 1);
    expect(await tapPage(minted, authentic)).to.include("Genuine tag").and.include("Verified on");
    expect(await tapPage(minted, authentic)).to.include("This link was used before");
    const forged = emulateTap({ uid: moved, counter: 2, keys: keys.get(moved)! });
    expect(await tapPage(minted, queryOf({ ...forged, cmac: flipBit(forged.cmac, 9) }))).to.include("could not be verified");
    // The moved tag on the URL it was encoded with: found among the tags encoded for that product, and not bound to it.
    expect(await tapPage(unminted, tapOf(moved, 3))).to.include("This tag belongs to another product");
    // Authentic, but the passport is not on chain: a scan, not a verified one.
    expect(await tapPage(unminted, tapOf(stays, 1))).to.include("Genuine tag").and.include("Not yet certified");
    await app.recorder.drain();

    const events = await db("app.webhook_events").where({ brand_id: brandId }).orderBy("id").select<Array<{ type: string; payload: Record<string, unknown> }>>("type", "payload");
    expect(events.filter((e) => e.type === "scan.detected")).to.have.length(5);
    const verifiedEvents = events.filter((e) => e.type === "scan.verified");
    expect(verifiedEvents).to.have.length(1);
    expect(verifiedEvents[0]!.payload).to.include({ event: "scan.verified", uid: minted, verified: true, token_id: tokenIdOf(minted) });

    const dispatcher = new Dispatcher({ config, db, logger: createLogger("silent"), pollIntervalMs: 100, watchIntervalMs: 200 });
    dispatcher.start();
    try {
      await waitFor(
        "scan.verified at the dashboard receiver and five scan.detected at the v1 one",
        async () =>
          received.some((r) => r.path === "/dashboard" && r.payload.event === "scan.verified") && received.filter((r) => r.path === "/v1" && r.payload.event === "scan.detected").length === 5
            ? true
            : undefined,
        60_000,
        100,
      );
    } finally {
      await dispatcher.stop(2000);
    }
    const delivered = received.filter((r) => r.path === "/dashboard" && r.payload.event === "scan.verified");
    expect(delivered).to.have.length(1);
    expect(new Webhook(signingSecret!).verify(delivered[0]!.body, delivered[0]!.headers)).to.deep.equal(delivered[0]!.payload);
    expect(delivered[0]!.payload).to.include({ uid: minted, verified: true, tx_hash: (await json(await fetch(`${stack.api.url}/api/dpp/${minted}`))).blockchain.tx_hash });

    // A tag no one provisioned, assigned on chain, becomes a plain NTAG215 record; the tag it replaced is freed.
    const plain = newTagUid();
    expect((await post(`/api/dashboard/products/${minted}/tag`, { tag_uid: plain })).status).to.equal(200);
    expect(await record(plain)).to.deep.equal({ chip: "NTAG215", status: "active", uid: minted });
    expect(await record(moved)).to.deep.equal({ chip: "NTAG424", status: "unassigned", uid: null });
    // Another brand cannot assign a tag this brand holds a record of.
    const rival = await createBrand(db, { slug: "taps-chain-rival", name: "Rival", uidPrefix: "TPR", plan: "growth" });
    const rivalOwner = await dashboardClient(app.url, db, rival.brand.id, "owner");
    const rivalProduct = await json(await rivalOwner.call("/api/dashboard/products", { method: "POST", json: { sku: "TPR-1", name: "Rival tee", category: "t-shirt", fabric_type: "cotton", price: 990 } }));
    const rivalIssued = await rivalOwner.call(`/api/dashboard/products/${rivalProduct.data.uid}/certificate`, { method: "POST" });
    expect(rivalIssued.status).to.equal(202);
    await waitFor(
      "the rival's passport to be verified on chain",
      async () => ((await json(await fetch(`${stack.api.url}/api/dpp/${rivalProduct.data.uid}`))).blockchain.verified === true ? true : undefined),
      120_000,
      250,
    );
    const refused = await rivalOwner.call(`/api/dashboard/products/${rivalProduct.data.uid}/tag`, { method: "POST", json: { tag_uid: stays } });
    expect(refused.status).to.equal(409);
    expect((await json(refused)).error.message).to.equal("This tag is registered to another brand.");
  });
});
