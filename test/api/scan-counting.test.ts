// Views of the scan page counted as scans, on the real seeded stack: what a counted scan writes, and what one anonymous
// client can make a brand pay (quota, rows, webhook events); the page is shown whatever the counting does.
import { buildAppDeps } from "../../api/src/assemble";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { buildApp } from "../../api/src/app";
import { createBrand, setLimitOverrides } from "../../api/src/brands/service";
import { createProvider } from "../../api/src/chain/provider";
import { createLogger } from "../../api/src/logger";
import { tokenIdOf } from "../../api/src/passports/content";
import { SCAN_COUNTING, type ScanRecorder } from "../../api/src/scans/scan-recorder";
import { emulateTap, scanUrlOf } from "../../scripts/lib/tap-emulator";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";

describe("scan counting", () => {
  let stack: SeededStack;
  let server: Server;
  let base: string;
  let recorder: ScanRecorder;
  let provider: ReturnType<typeof createProvider>;
  const brand = { slug: "scan-abuse", id: 0, key: "" };
  const uids: string[] = [];

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    const created = await createBrand(stack.api.db, { slug: brand.slug, name: "Scan Abuse Ltd", uidPrefix: "SAB", plan: "growth" });
    brand.id = created.brand.id;
    brand.key = created.key.key;
    // More products than one client may count in an hour.
    for (let i = 0; i < SCAN_COUNTING.perClientPerHour + 5; i += 1) {
      const res = await fetch(`${stack.api.url}/api/v1/products`, {
        method: "POST",
        headers: { Authorization: `Bearer ${brand.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" },
        body: JSON.stringify({ sku: `SAB-${i}`, name: `Scan abuse tee ${i}`, category: "t-shirt", fabric_type: "organic cotton", price: 990 }),
      });
      expect(res.status, await res.clone().text()).to.equal(201);
      uids.push((await json(res)).data.uid as string);
    }
    // The stack's API behind one trusted proxy, so each test can speak for many clients through X-Forwarded-For.
    const { config, db, chain } = stack.api;
    provider = createProvider(config.rpcUrl, config.chainId);
    const deps = { config: { ...config, trustedProxyHops: 1 }, db, provider, chain, logger: createLogger("silent") };
    const app = buildAppDeps(deps);
    recorder = app.scanRecorder;
    server = buildApp(app).listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await recorder?.close();
    provider?.destroy();
  });

  /** What the brand has paid for scans so far: quota units, scan rows, scan.detected events. */
  async function costs() {
    const db = stack.api.db;
    const period = new Date().toISOString().slice(0, 7);
    const meter = await db("app.usage_monthly").where({ brand_id: brand.id, meter: "scans", period }).first<{ count: number } | undefined>("count");
    const rows = await db("app.scan_events as s").join("app.products as p", "p.id", "s.product_id").where("p.brand_id", brand.id).count<Array<{ n: number }>>("* as n");
    const events = await db("app.webhook_events").where({ brand_id: brand.id, type: "scan.detected" }).count<Array<{ n: number }>>("* as n");
    return { quota: meter?.count ?? 0, rows: Number(rows[0]!.n), events: Number(events[0]!.n) };
  }

  function view(uid: string, client: string) {
    return fetch(`${base}/scan/${uid}`, { headers: { "X-Forwarded-For": client } });
  }

  /** Views in parallel batches; every one must show the page. */
  async function views(pairs: Array<[uid: string, client: string]>) {
    for (let i = 0; i < pairs.length; i += 25) {
      const batch = await Promise.all(pairs.slice(i, i + 25).map(([uid, client]) => view(uid, client)));
      for (const res of batch) {
        expect(res.status).to.equal(200);
        expect(await res.text()).to.include("<!doctype html>");
      }
    }
    await recorder.drain();
  }

  async function lastScan(uid: string) {
    return stack.api.db("app.scan_events as s")
      .join("app.products as p", "p.id", "s.product_id")
      .where("p.uid", uid)
      .orderBy("s.id", "desc")
      .first<{ id: number; verified: boolean } | undefined>("s.id", "s.verified");
  }

  function outboxEvent(dedupeKey: string) {
    return stack.api.db("app.webhook_events").where({ dedupe_key: dedupeKey }).first<{ type: string; brand_id: number; payload: Record<string, unknown> } | undefined>("type", "brand_id", "payload");
  }

  it("records a counted view: a scan row, one unit of the brand's monthly scans and a scan.detected event", async () => {
    const before = await costs();
    await views([[uids[2]!, "203.0.113.50"]]);
    expect(await costs()).to.deep.equal({ quota: before.quota + 1, rows: before.rows + 1, events: before.events + 1 });
    const scan = (await lastScan(uids[2]!))!;
    expect(scan.verified).to.equal(false);
    const detected = await outboxEvent(`scan.detected:${scan.id}`);
    expect(detected).to.not.equal(undefined, "scan.detected is in the outbox");
    expect(detected!.brand_id).to.equal(brand.id);
    expect(detected!.payload).to.include({ event: "scan.detected", scan_id: scan.id, uid: uids[2], verified: false, token_id: null, tx_hash: null });
    // An unverified scan is not a scan.verified.
    expect(await outboxEvent(`scan.verified:${scan.id}`)).to.equal(undefined);
  });

  it("emits scan.verified only for an authentic tap of a passport verified on chain, not for a plain view of it", async () => {
    const demoTag = stack.demo.tags[0]!;
    const minted = demoTag.product_uid;
    await views([[minted, "203.0.113.51"]]);
    const plain = (await lastScan(minted))!;
    expect(plain.verified).to.equal(true);
    expect((await outboxEvent(`scan.detected:${plain.id}`))?.type).to.equal("scan.detected");
    expect(await outboxEvent(`scan.verified:${plain.id}`), "a plain view proves no tag").to.equal(undefined);

    const { last_counter } = await stack.api.db("app.tags").where({ tag_uid: demoTag.tag_uid }).first<{ last_counter: number }>("last_counter");
    const keys = { sdmMetaRead: Buffer.from(demoTag.sdm_meta_read_key!, "hex"), sdmFileRead: Buffer.from(demoTag.sdm_file_read_key!, "hex") };
    const url = scanUrlOf(base, minted, emulateTap({ uid: demoTag.tag_uid, counter: last_counter + 1, keys }));
    const res = await fetch(url, { headers: { "X-Forwarded-For": "203.0.113.60" } });
    expect(res.status).to.equal(200);
    await recorder.drain();
    const tapped = (await lastScan(minted))!;
    expect(tapped.id).to.not.equal(plain.id);
    const verified = await outboxEvent(`scan.verified:${tapped.id}`);
    expect(verified?.payload).to.include({ event: "scan.verified", uid: minted, verified: true, token_id: tokenIdOf(minted) });
  });

  it("does not count HEAD requests or browser prefetches", async () => {
    const before = await costs();
    const client = { "X-Forwarded-For": "203.0.113.52" };
    expect((await fetch(`${base}/scan/${uids[3]}`, { method: "HEAD", headers: client })).status).to.equal(200);
    expect((await fetch(`${base}/scan/${uids[3]}`, { headers: { ...client, "Sec-Purpose": "prefetch" } })).status).to.equal(200);
    await recorder.drain();
    expect(await costs()).to.deep.equal(before);
    // The same client's real view then counts.
    await views([[uids[3]!, "203.0.113.52"]]);
    expect((await costs()).quota).to.equal(before.quota + 1);
  });

  it("counts 200 views of one product by one client as one scan: one quota unit, one row, one scan.detected", async () => {
    const before = await costs();
    await views(Array.from({ length: 200 }, () => [uids[0]!, "203.0.113.7"] as [string, string]));
    const after = await costs();
    expect(after).to.deep.equal({ quota: before.quota + 1, rows: before.rows + 1, events: before.events + 1 });
  });

  it("counts each client once, an IPv6 /64 being one client", async () => {
    const before = await costs();
    await views([
      [uids[1]!, "203.0.113.8"],
      [uids[1]!, "203.0.113.9"],
      [uids[1]!, "2001:db8:5:6::1"],
      [uids[1]!, "2001:db8:5:6:ffff::2"],
      [uids[1]!, "2001:db8:5:7::1"],
    ]);
    expect(await costs()).to.deep.equal({ quota: before.quota + 4, rows: before.rows + 4, events: before.events + 4 });
  });

  it("lets one client add at most the hourly bound of scans, across products, while still showing every page", async () => {
    const before = await costs();
    const client = "198.51.100.23";
    await views(uids.flatMap((uid) => [[uid, client], [uid, client]] as Array<[string, string]>));
    const bound = SCAN_COUNTING.perClientPerHour;
    expect(uids.length).to.be.greaterThan(bound);
    expect(await costs()).to.deep.equal({ quota: before.quota + bound, rows: before.rows + bound, events: before.events + bound });
  });

  it("shows the page with the quota exhausted, and counts nothing", async () => {
    const used = (await costs()).quota;
    await setLimitOverrides(stack.api.db, brand.slug, { scans_per_month: used });
    try {
      const before = await costs();
      await views(uids.slice(0, 5).map((uid, i) => [uid, `192.0.2.${i + 1}`] as [string, string]));
      expect(await costs()).to.deep.equal(before);
    } finally {
      await setLimitOverrides(stack.api.db, brand.slug, {}, { clear: true });
    }
  });

  it("shows every page while the brand's scan counter is locked: no view waits for the database's writes", async function () {
    this.timeout(120_000);
    const db = stack.api.db;
    const period = new Date().toISOString().slice(0, 7);
    const locker = await db.transaction();
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await locker.rollback().catch(() => undefined);
    };
    try {
      // Whoever counts a scan of this brand now waits on its counter row, as under a flood of scans.
      const locked = await locker.raw("SELECT count FROM app.usage_monthly WHERE brand_id = ? AND meter = 'scans' AND period = ? FOR UPDATE", [brand.id, period]);
      expect(locked.rows).to.have.length(1);
      // More views than the pool has connections, each one that would count.
      const pending = uids.map((uid, i) => view(uid, `100.64.${i}.1`).then(async (res) => ({ status: res.status, body: await res.text() })));
      // A guard against hanging for ever before the fix (views waiting on the lock): give up, then fail below.
      const guard = new Promise<"stuck">((resolve) => setTimeout(() => resolve("stuck"), 30_000).unref());
      const answered = await Promise.race([Promise.all(pending), guard]);
      expect(answered, "every view answered while the counter was locked").to.not.equal("stuck");
      for (const page of answered as Array<{ status: number; body: string }>) {
        expect(page.status).to.equal(200);
        expect(page.body).to.include("Scan abuse tee");
      }
    } finally {
      await release();
    }
    await recorder.drain();
  });
});
