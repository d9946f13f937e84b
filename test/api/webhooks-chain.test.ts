// Events from the operations that exist, on the real seeded stack (chain, indexer, API): cert.issued when a passport
// is issued, product.certified and tag.assigned once the indexer holds them at the confirmation depth.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { startWebhookReceiver, type Delivery, type WebhookReceiver } from "../support/webhook-receiver";
import { keccak256, toUtf8Bytes } from "ethers";
import { Webhook } from "standardwebhooks";
import { getBrand } from "../../api/src/brands/service";
import { createLogger } from "../../api/src/logger";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { setDashboardWebhook } from "../../api/src/webhooks/endpoints";
import { ConfirmationWatcher } from "../../api/src/webhooks/watcher";
import { waitFor } from "../../scripts/lib/processes";
import { json } from "../support/http";
import { sharedStack, waitForIndexer, type SeededStack } from "../support/shared-stack";


describe("webhook events from chain operations", () => {
  let stack: SeededStack;
  let receiver: WebhookReceiver;
  let receiverUrl: string;
  let received: Delivery[] = [];
  /** The tag assignment the first test delivered, for the second. */
  let assignment: { uid: string; tokenId: string; txHash: string; tagHash: string } | undefined;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    receiver = await startWebhookReceiver();
    received = receiver.received;
    receiverUrl = `${receiver.url}`;
  });
  after(async () => {
        await receiver?.close();
  });

  const v1Headers = () => ({ Authorization: `Bearer ${stack.demo.api_key}`, "X-Service-Brand": stack.demo.brand_slug, "Content-Type": "application/json" });
  function post(path: string, body: unknown, headers: Record<string, string>) {
    return fetch(`${stack.api.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  }
  const find = (path: string, event: string, uid: string) => received.filter((r) => r.path === path && r.payload.event === event && r.payload.uid === uid);

  it("issuing a passport sends cert.issued; the indexed mint at depth sends product.certified; a tag sends tag.assigned", async function () {
    this.timeout(240_000);
    const { api } = stack;
    const registration = await post("/api/v1/webhook/register", { url: `${receiverUrl}/v1`, events: ["product.certified", "cert.issued"] }, v1Headers());
    expect(registration.status).to.equal(201);
    const secret = (await json(registration)).data.signing_secret as string;
    const brand = await getBrand(api.db, stack.demo.brand_slug);
    const dashboard = await setDashboardWebhook({ db: api.db, config: api.config }, brand.id, `${receiverUrl}/dashboard`);
    expect(dashboard.signingSecret).to.match(/^whsec_/);

    // A product of the demo brand, made (as the brand says) by the operator's factory, which issues its passport and
    // then assigns a tag.
    const created = await post("/api/v1/products", { sku: `WH-${randomBytes(3).toString("hex")}`, name: "Webhook Test Tee", category: "t-shirt", price: 990, factory_id: 1001 }, v1Headers());
    expect(created.status).to.equal(201);
    const uid = (await json(created)).data.uid as string;
    const login = await json(await post("/api/login", { email: stack.demo.operator.email, password: stack.demo.operator.password }, { "Content-Type": "application/json" }));
    const operator = { Authorization: `Bearer ${login.token}`, "Content-Type": "application/json" };
    const minted = await post("/api/factories/1001/passports", { uid }, operator);
    expect(minted.status).to.equal(201);
    const mint = await json(minted);
    const tagUid = randomBytes(7).toString("hex").toUpperCase();
    const tagged = await post("/api/factories/1001/tags", { uid, tag_uid: tagUid }, operator);
    expect(tagged.status).to.equal(201);
    const tag = await json(tagged);
    await waitForIndexer(stack);

    // Not at depth yet under a deep confirmation setting: nothing chain-derived is enqueued for it.
    const deep = new ConfirmationWatcher({ db: api.db, config: { ...api.config, confirmations: 1_000_000 }, logger: createLogger("silent"), intervalMs: 1000 });
    await deep.tick();
    expect(await api.db("app.webhook_events").where({ dedupe_key: `product.certified:${uid}` })).to.have.length(0);

    const dispatcher = new Dispatcher({ config: api.config, db: api.db, logger: createLogger("silent"), pollIntervalMs: 100, watchIntervalMs: 200 });
    dispatcher.start();
    try {
      await waitFor(
        "cert.issued, product.certified and tag.assigned deliveries",
        async () =>
          find("/v1", "cert.issued", uid).length > 0 &&
          find("/v1", "product.certified", uid).length > 0 &&
          find("/dashboard", "cert.issued", uid).length > 0 &&
          find("/dashboard", "tag.assigned", uid).length > 0
            ? true
            : undefined,
        120_000,
        100,
      );
      // More watcher passes add nothing: one event per fact.
      const watcher = new ConfirmationWatcher({ db: api.db, config: api.config, logger: createLogger("silent"), intervalMs: 1000 });
      await watcher.tick();
      await watcher.tick();
    } finally {
      await dispatcher.stop(2000);
    }

    const [certified] = find("/v1", "product.certified", uid);
    expect(Object.keys(certified!.payload)).to.deep.equal(["event", "uid", "tx_hash", "certificate_url", "timestamp"]);
    expect(certified!.payload).to.include({ event: "product.certified", uid, tx_hash: mint.tx_hash, certificate_url: `${api.config.publicBaseUrl}/dpp-certificate/${uid}` });
    expect(certified!.payload.timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(new Webhook(secret).verify(certified!.body, certified!.headers)).to.deep.equal(certified!.payload);

    const [issued] = find("/v1", "cert.issued", uid);
    expect(issued!.payload).to.include({ event: "cert.issued", uid, tx_hash: mint.tx_hash, token_id: mint.token_id });
    expect(issued!.payload).to.have.property("certificate_pdf_url").that.is.a("string");

    const [assigned] = find("/dashboard", "tag.assigned", uid);
    expect(assigned!.payload).to.include({ event: "tag.assigned", uid, token_id: mint.token_id, tag_hash: keccak256(toUtf8Bytes(tagUid)), tx_hash: tag.tx_hash });
    expect(new Webhook(dashboard.signingSecret!).verify(assigned!.body, assigned!.headers)).to.deep.equal(assigned!.payload);
    // The dashboard receiver gets dashboard events only; v1 subscribers only what they chose.
    expect(find("/dashboard", "product.certified", uid)).to.have.length(0);
    expect(find("/v1", "tag.assigned", uid)).to.have.length(0);

    expect(await api.db("app.webhook_events").where({ dedupe_key: `product.certified:${uid}` })).to.have.length(1);
    expect(find("/v1", "product.certified", uid)).to.have.length(1);
    expect(find("/dashboard", "tag.assigned", uid)).to.have.length(1);
    assignment = { uid, tokenId: mint.token_id as string, txHash: tag.tx_hash as string, tagHash: keccak256(toUtf8Bytes(tagUid)) };
  });

  it("an assignment seen again under another hash of its ledger row (a fee bump, a re-send after a reorg) is not sent again", async function () {
    if (!assignment) this.skip();
    const { api } = stack;
    const { uid, tokenId, txHash, tagHash } = assignment!;
    const tagEvents = () => api.db("app.webhook_events").where({ type: "tag.assigned" }).whereRaw("payload::jsonb ->> 'uid' = ?", [uid]).select("dedupe_key");
    expect(await tagEvents()).to.have.length(1);
    const [row] = await api.db("app.chain_transactions").whereRaw("hashes @> ARRAY[?]::text[]", [txHash.toLowerCase()]).select<Array<{ id: number }>>("id");
    expect(row, "the assignment was sent through the ledger").to.not.equal(undefined);
    const bumped = `0x${randomBytes(32).toString("hex")}`;
    const legacyHash = `0x${randomBytes(32).toString("hex")}`;
    const watcher = new ConfirmationWatcher({ db: api.db, config: api.config, logger: createLogger("silent"), intervalMs: 1000 });
    const detail = { at: Math.floor(Date.now() / 1000), tag_hash: tagHash, previous_tag_hash: `0x${"0".repeat(64)}` };
    await api.db("app.chain_transactions").where({ id: row!.id }).update({ hashes: api.db.raw("array_append(hashes, ?)", [bumped]) });
    try {
      // The indexer reports the assignment again, in another block under the row's second hash; and an assignment
      // sent before the ledger under the key of that time (its hash and the indexer's event id).
      await api.db("app.webhook_events").insert({ id: `evt_${randomBytes(8).toString("hex")}`, brand_id: (await getBrand(api.db, stack.demo.brand_slug)).id, type: "tag.assigned", payload: JSON.stringify({ uid }), dedupe_key: `tag.assigned:${legacyHash}:legacy-ref` });
      await api.db("app.webhook_chain_facts").insert([
        { kind: "tag", ref: `reorg-copy-${bumped}`, token_id: tokenId, block_number: 1, tx_hash: bumped, detail },
        { kind: "tag", ref: "legacy-ref", token_id: tokenId, block_number: 1, tx_hash: legacyHash, detail },
      ]);
      await watcher.tick();
      expect(await api.db("app.webhook_chain_facts").whereIn("ref", [`reorg-copy-${bumped}`, "legacy-ref"])).to.have.length(0);
      expect((await tagEvents()).map((e: { dedupe_key: string }) => e.dedupe_key).sort()).to.deep.equal(
        [`tag.assigned:${legacyHash}:legacy-ref`, `tag.assigned:ledger-${row!.id}:${tokenId}:${tagHash}`].sort(),
      );
    } finally {
      await api.db("app.chain_transactions").where({ id: row!.id }).update({ hashes: api.db.raw("array_remove(hashes, ?)", [bumped]) });
      await api.db("app.webhook_chain_facts").whereIn("ref", [`reorg-copy-${bumped}`, "legacy-ref"]).del();
    }
  });
  it("holds no lock on the indexer's checkpoint while it waits for Ponder's tables, which a reorganisation takes first, the checkpoint last", async function () {
    this.timeout(60_000);
    const { api } = stack;
    const views = `"${api.config.onchainSchema}"`;
    const watcher = new ConfirmationWatcher({ db: api.db, config: api.config, logger: createLogger("silent"), intervalMs: 1000 });
    // Another session does what Ponder's reorganisation does: its tables (through the views) first, the checkpoint last.
    const ponder = await api.db.client.acquireConnection();
    try {
      await api.db.raw(`BEGIN; LOCK TABLE ${views}.passport, ${views}.tag_assignment IN ACCESS EXCLUSIVE MODE`).connection(ponder);
      const ticking = watcher.tick();
      await waitFor(
        "the watcher to wait for the passport table",
        async () => {
          const waiting = await api.db.raw<{ rows: unknown[] }>(
            "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ~ 'pg_views|passport'",
          );
          return waiting.rows.length > 0 ? true : undefined;
        },
        20_000,
      );
      // Before: the watcher's transaction held the checkpoint it had read, so one of the two was ended as a deadlock.
      await api.db.raw(`LOCK TABLE ${views}._ponder_checkpoint IN ACCESS EXCLUSIVE MODE`).connection(ponder);
      await api.db.raw("COMMIT").connection(ponder);
      expect(await ticking).to.be.a("number");
    } finally {
      await api.db.raw("ROLLBACK").connection(ponder).catch(() => undefined);
      await api.db.client.releaseConnection(ponder);
    }
  });
});
