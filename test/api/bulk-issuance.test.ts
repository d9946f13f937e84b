// Bulk issuance on the real seeded stack (chain, indexer, API with its jobs): a list of UIDs or every product of a CSV
// import is answered 202 with a job, minted in batches, read back as progress, counted once against the certificate
// quota however often it is asked for, and ends with one issuance.completed.
import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import { createBrand } from "../../api/src/brands/service";
import { monthlyUsage } from "../../api/src/metering/service";
import { dataHashOf, passportContentFor, tokenIdOf } from "../../api/src/passports/content";
import { findProductByUid } from "../../api/src/products/products.repo";
import { batchSizeFor } from "../../api/src/passports/mint-pump";
import { createLogger } from "../../api/src/logger";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { waitFor } from "../../scripts/lib/processes";
import { dashboardClient } from "../support/dashboard";
import { json } from "../support/http";
import { sharedStack, type SeededStack } from "../support/shared-stack";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

type Client = { slug: string; key: string; id: number };
type Job = { id: string; state: string; total: number; claimed: number; minted: number; confirmed: number; failed: number; progress_url: string; import_id: string | null };

describe("bulk issuance", () => {
  let stack: SeededStack;
  let receiver: WebhookReceiver;
  let dispatcher: Dispatcher;
  let brand: Client;
  let other: Client;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    receiver = await startWebhookReceiver();
    const limits = { api_calls_per_month: 100_000, requests_per_hour: 100_000 };
    const a = await createBrand(stack.api.db, { slug: "bulk-brand", name: "Bulk Brand", uidPrefix: "BULK", limitOverrides: { ...limits, certs_per_month: 6 } });
    const b = await createBrand(stack.api.db, { slug: "bulk-other", name: "Bulk Other", uidPrefix: "BOTH", limitOverrides: limits });
    brand = { slug: a.brand.slug, key: a.key.key, id: a.brand.id };
    other = { slug: b.brand.slug, key: b.key.key, id: b.brand.id };
    dispatcher = new Dispatcher({ config: stack.api.config, db: stack.api.db, logger: createLogger("silent"), pollIntervalMs: 100, watchIntervalMs: 200 });
    dispatcher.start();
  });
  after(async () => {
    await dispatcher?.stop(2000);
    await receiver?.close();
  });

  function call(client: Client, method: string, path: string, body?: unknown) {
    return fetch(`${stack.api.url}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${client.key}`, "X-Service-Brand": client.slug, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  async function register(client: Client, count: number, tag: string): Promise<string[]> {
    const uids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const res = await call(client, "POST", "/products", { sku: `${tag}-${i}`, name: `Bulk tee ${i}`, category: "t-shirt", price: 500 });
      expect(res.status).to.equal(201);
      uids.push((await json(res)).data.uid as string);
    }
    return uids;
  }
  async function until(client: Client, url: string, done: (job: Job) => boolean): Promise<Job> {
    let last: Job | undefined;
    await waitFor(
      "the bulk issuance to progress",
      async () => {
        const res = await fetch(url, { headers: { Authorization: `Bearer ${client.key}`, "X-Service-Brand": client.slug } });
        expect(res.status).to.equal(200);
        last = (await json(res)).data as Job;
        return done(last) ? true : undefined;
      },
      120_000,
      200,
    );
    return last!;
  }

  it("sizes a batch to the contract's cap and half the block gas limit", () => {
    expect(batchSizeFor(30_000_000n, 200n)).to.equal(200);
    expect(batchSizeFor(30_000_000n, 1000n)).to.equal(481);
    expect(batchSizeFor(2_000_000n, 200n)).to.equal(29);
    expect(batchSizeFor(100_000n, 200n)).to.equal(1);
  });

  it("answers 202 with a job, mints every UID once within the quota, refuses the rest, and sends one issuance.completed", async function () {
    this.timeout(240_000);
    const registration = await call(brand, "POST", "/webhook/register", { url: `${receiver.url}/bulk`, events: ["issuance.completed", "cert.issued"] });
    expect(registration.status).to.equal(201);
    const secret = (await json(registration)).data.signing_secret as string;
    // Eight products, a monthly limit of six certificates: six are issued, two refused. One issued alone first.
    const uids = await register(brand, 8, "BULK");
    expect((await call(brand, "POST", "/certs/issue", { uid: uids[0] })).status).to.equal(201);

    const started = await call(brand, "POST", "/certs/bulk", { uids: [...uids, uids[1]!.toLowerCase()] });
    expect(started.status).to.equal(202);
    const job = (await json(started)).data as Job;
    expect(job).to.include({ state: "queued", total: 8, import_id: null, progress_url: `${stack.api.url}/api/v1/certs/bulk/${job.id}` });

    const done = await until(brand, job.progress_url, (j) => j.state === "completed");
    expect(done).to.include({ total: 8, claimed: 6, minted: 6, confirmed: 6, failed: 2 });
    // The one issued before the job cost its unit then, not again: six units in all.
    expect((await monthlyUsage(stack.api.db, brand.id)).certsIssued).to.equal(6);
    const minted = await stack.api.db("app.passports as x").join("app.products as p", "p.id", "x.product_id").whereIn("p.uid", uids).where("x.status", "minted").select("p.uid", "x.tx_hash");
    expect(minted).to.have.length(6);
    for (const row of minted) expect(await stack.contracts.passport.exists(tokenIdOf(row.uid as string))).to.equal(true);
    // Anchored from the same content a single issuance and the public record build.
    const bulkUid = minted.find((r) => r.uid !== uids[0])!.uid as string;
    const bulkMinted = await findProductByUid(stack.api.db, bulkUid);
    expect(await stack.contracts.passport.dataHashOf(tokenIdOf(bulkUid))).to.equal(dataHashOf(passportContentFor(bulkMinted!)));
    // The seven claimed by the job went out together, not one transaction each.
    expect(new Set(minted.filter((r) => r.uid !== uids[0]).map((r) => r.tx_hash)).size).to.be.lessThan(5);

    await waitFor("issuance.completed", async () => (receiver.received.some((d) => d.payload.event === "issuance.completed" && d.payload.job_id === job.id) ? true : undefined), 60_000, 100);
    const completed = receiver.received.filter((d) => d.payload.event === "issuance.completed" && d.payload.job_id === job.id);
    expect(completed).to.have.length(1);
    expect(completed[0]!.payload).to.include({ total: 8, confirmed: 6, failed: 2, import_id: null, progress_url: job.progress_url });
    expect(new Webhook(secret).verify(completed[0]!.body, completed[0]!.headers)).to.deep.equal(completed[0]!.payload);
    // Each passport the job minted also has its own cert.issued.
    await waitFor("cert.issued of each", async () => (new Set(receiver.received.filter((d) => d.payload.event === "cert.issued").map((d) => d.payload.uid)).size >= 6 ? true : undefined), 60_000, 100);

    // Asked again: nothing new is minted or counted; the refused two are refused again (the quota is spent).
    const again = (await json(await call(brand, "POST", "/certs/bulk", { uids }))).data as Job;
    const second = await until(brand, again.progress_url, (j) => j.state === "completed");
    expect(second).to.include({ total: 8, minted: 6, confirmed: 6, failed: 2 });
    expect((await monthlyUsage(stack.api.db, brand.id)).certsIssued).to.equal(6);
    expect(receiver.received.filter((d) => d.payload.event === "issuance.completed" && d.payload.job_id === job.id)).to.have.length(1);
  });

  it("refuses unknown UIDs and malformed bodies, and keeps jobs within their brand", async () => {
    const [uid] = await register(other, 1, "BOTH");
    const foreign = await call(brand, "POST", "/certs/bulk", { uids: [uid] });
    expect(foreign.status).to.equal(422);
    expect((await json(foreign)).error.details[0]).to.deep.equal({ field: "uids", problem: `no product ${uid} in this brand` });
    expect((await call(brand, "POST", "/certs/bulk", { uids: [uid], import_id: "1" })).status).to.equal(422);
    expect((await call(brand, "POST", "/certs/bulk", {})).status).to.equal(422);
    expect((await call(brand, "POST", "/certs/bulk", { uids: [] })).status).to.equal(422);
    expect((await call(brand, "POST", "/certs/bulk", { import_id: "999999" })).status).to.equal(404);

    const mine = (await json(await call(other, "POST", "/certs/bulk", { uids: [uid] }))).data as Job;
    expect((await call(brand, "GET", `/certs/bulk/${mine.id}`)).status).to.equal(404);
    expect((await call(other, "GET", `/certs/bulk/${mine.id}`)).status).to.equal(200);
  });

  it("issues every product of a CSV import from the dashboard, and shows its progress there", async function () {
    this.timeout(240_000);
    const editor = await dashboardClient(stack.api.url, stack.api.db, other.id, "editor");
    const csv = ["sku,name,category,price", ...Array.from({ length: 25 }, (_, i) => `IMP-${i},Imported tee ${i},t-shirt,700`)].join("\n");
    const upload = await editor.call("/api/dashboard/imports", { method: "POST", headers: { "Content-Type": "text/csv" }, body: csv });
    expect(upload.status).to.equal(202);
    const importId = (await json(upload)).data.id as string;
    await waitFor("the import", async () => ((await json(await editor.call(`/api/dashboard/imports/${importId}`))).data.status === "done" ? true : undefined), 60_000, 100);
    const none = await editor.call(`/api/dashboard/imports/${importId}/issuance`);
    expect(none.status).to.equal(200);
    expect((await json(none)).data).to.equal(null);
    expect((await editor.call("/api/dashboard/imports/999999/issuance")).status).to.equal(404);

    const viewer = await dashboardClient(stack.api.url, stack.api.db, other.id, "viewer");
    expect((await viewer.call(`/api/dashboard/imports/${importId}/issue`, { method: "POST" })).status).to.equal(403);
    const started = await editor.call(`/api/dashboard/imports/${importId}/issue`, { method: "POST" });
    expect(started.status).to.equal(202);
    const job = (await json(started)).data as Job;
    expect(job).to.include({ total: 25, import_id: importId, progress_url: `${stack.api.url}/api/dashboard/issuances/${job.id}` });
    let done: Job | undefined;
    await waitFor(
      "the import's passports",
      async () => {
        done = (await json(await editor.call(`/api/dashboard/imports/${importId}/issuance`))).data as Job;
        return done.state === "completed" ? true : undefined;
      },
      120_000,
      200,
    );
    expect(done).to.include({ id: job.id, total: 25, minted: 25, confirmed: 25, failed: 0 });
    // The same job through the brand API, by the import's id.
    const v1 = (await json(await call(other, "POST", "/certs/bulk", { import_id: importId }))).data as Job;
    expect(v1).to.include({ total: 25, import_id: importId });
    expect((await monthlyUsage(stack.api.db, other.id)).certsIssued).to.equal(26);
  });
});
