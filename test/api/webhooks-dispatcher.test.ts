// The outbox and the webhook dispatcher against real Postgres and a real HTTP receiver on 127.0.0.1.
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import { createBrand } from "../../api/src/brands/service";
import { ConfigError, loadConfig, type Config } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { createLogger } from "../../api/src/logger";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { registerV1Endpoint, rotateSecret, setDashboardWebhook } from "../../api/src/webhooks/endpoints";
import { emitOrderPaid, emitOrderVerified, emitScan } from "../../api/src/webhooks/emitters";
import { certIssuedPayload, type EventType } from "../../api/src/webhooks/events";
import { enqueueEvent } from "../../api/src/webhooks/outbox";
import { pruneWebhookHistory } from "../../api/src/webhooks/retention.repo";
import { MAX_ATTEMPTS } from "../../api/src/webhooks/schedule";
import { decryptSecret, encryptSecret, generateSigningSecret } from "../../api/src/webhooks/secrets";
import { stopProcess, waitFor } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
type Reply = { status: number; headers?: Record<string, string>; body?: string } | "hold";

/** A webhook receiver on 127.0.0.1 that records every request and answers with what `reply` says. */
class Receiver {
  readonly requests: Received[] = [];
  reply: (request: Received) => Reply = () => ({ status: 200 });
  private readonly held: Array<{ path: string; res: http.ServerResponse }> = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      this.requests.push(received);
      const reply = this.reply(received);
      if (reply === "hold") {
        this.held.push({ path: received.path, res });
        return;
      }
      res.writeHead(reply.status, reply.headers).end(reply.body ?? "");
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  /** Answers the oldest held request to `path` whose sender is still connected. */
  release(path: string, status: number): void {
    const live = this.held.find((h) => h.path === path && !h.res.destroyed && !h.res.writableEnded);
    live?.res.writeHead(status).end();
  }
  /** Requests to `path` so far. */
  to(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }
  async stop(): Promise<void> {
    for (const { res } of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const ROOT = path.resolve(__dirname, "..", "..");

describe("webhook outbox and dispatcher", () => {
  let databaseUrl: string;
  let db: Knex;
  let config: Config;
  let brandId: number;
  let otherBrandId: number;
  let receiver: Receiver;
  const dispatchers: Dispatcher[] = [];
  let counter = 0;

  function dispatcher(overrides: Partial<ConstructorParameters<typeof Dispatcher>[0]> = {}): Dispatcher {
    const d = new Dispatcher({ config, db, logger: createLogger("silent"), watch: false, pollIntervalMs: 100, ...overrides });
    dispatchers.push(d);
    d.start();
    return d;
  }

  async function register(pathName: string, events: EventType[] = ["cert.issued"], brand = brandId) {
    return registerV1Endpoint({ db, config }, brand, `${receiver.url}${pathName}`, events);
  }

  async function enqueueCert(brand = brandId): Promise<{ eventId: string; payload: Record<string, unknown> }> {
    counter += 1;
    const uid = `WH-${String(counter).padStart(8, "0")}`;
    const payload = certIssuedPayload({
      uid,
      txHash: `0x${"ab".repeat(32)}`,
      tokenId: String(1000 + counter),
      networkUrl: `http://127.0.0.1/explorer/tx/0x${"ab".repeat(32)}`,
      certificateUrl: `http://127.0.0.1/dpp-certificate/${uid}`,
      certificatePdfUrl: `http://127.0.0.1/certificates/${uid}.pdf`,
      at: new Date(),
    });
    const eventId = await db.transaction((trx) => enqueueEvent(trx, { brandId: brand, type: "cert.issued", payload, dedupeKey: `cert.issued:${uid}` }));
    return { eventId, payload };
  }

  async function deliveryOf(eventId: string, endpointId: number) {
    return db("app.webhook_deliveries").where({ event_id: eventId, endpoint_id: endpointId }).first();
  }

  async function settled(eventId: string, endpointId: number, status = "succeeded", timeoutMs = 30_000) {
    return waitFor(`delivery of ${eventId} to be ${status}`, async () => {
      const row = await deliveryOf(eventId, endpointId);
      return row?.status === status ? row : undefined;
    }, timeoutMs, 50);
  }

  before(async () => {
    databaseUrl = await createTestDatabase("webhooks_dispatcher");
    config = loadConfig({ SERVICE_MODE: "local", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" });
    db = createDb(databaseUrl, 10);
    await migrateLatest(db);
    brandId = (await createBrand(db, { slug: "hooks", name: "Hooks Ltd", uidPrefix: "WH" })).brand.id;
    otherBrandId = (await createBrand(db, { slug: "other-hooks", name: "Other", uidPrefix: "OH" })).brand.id;
    receiver = await new Receiver().start();
  });

  afterEach(async () => {
    while (dispatchers.length > 0) await dispatchers.pop()!.stop(1000);
    receiver.reply = () => ({ status: 200 });
  });

  after(async () => {
    await receiver?.stop();
    await db?.destroy();
  });

  describe("signing secrets at rest", () => {
    it("are encrypted under SECRETS_KEY, which production must set and which must be 32 bytes", () => {
      const hex = "11".repeat(32);
      const base64 = Buffer.alloc(32, 7).toString("base64");
      expect(loadConfig({ SECRETS_KEY: hex }).secretsKey).to.deep.equal(Buffer.from(hex, "hex"));
      expect(loadConfig({ SECRETS_KEY: base64 }).secretsKey).to.deep.equal(Buffer.alloc(32, 7));
      for (const bad of ["too-short", "22".repeat(31), Buffer.alloc(16).toString("base64")]) {
        expect(() => loadConfig({ SECRETS_KEY: bad }), bad).to.throw(ConfigError, /SECRETS_KEY must be 32 bytes/);
      }
      const problems = (() => {
        try {
          loadConfig({ SERVICE_MODE: "production" });
          return [];
        } catch (error) {
          return (error as ConfigError).problems;
        }
      })();
      expect(problems).to.include("SECRETS_KEY is required in production");

      const secret = generateSigningSecret();
      const stored = encryptSecret(Buffer.from(hex, "hex"), secret);
      expect(stored).to.not.contain(secret.slice(6));
      expect(decryptSecret(Buffer.from(hex, "hex"), stored)).to.equal(secret);
      expect(() => decryptSecret(Buffer.alloc(32, 7), stored)).to.throw();
    });
  });

  describe("enqueueEvent", () => {
    it("is idempotent on the dedupe key: one event, one delivery per subscribed endpoint", async () => {
      const endpoint = (await register("/idem")).endpoint;
      const payload = { event: "cert.issued", uid: "WH-IDEMPOTE" };
      const first = await db.transaction((trx) => enqueueEvent(trx, { brandId, type: "cert.issued", payload, dedupeKey: "cert.issued:WH-IDEMPOTE" }));
      const second = await db.transaction((trx) => enqueueEvent(trx, { brandId, type: "cert.issued", payload, dedupeKey: "cert.issued:WH-IDEMPOTE" }));
      expect(second).to.equal(first);
      expect(first).to.match(/^evt_[0-9a-f]{32}$/);
      const deliveries = await db("app.webhook_deliveries").where({ event_id: first });
      expect(deliveries.filter((d) => d.endpoint_id === endpoint.id)).to.have.length(1);
      await db("app.webhook_endpoints").where({ id: endpoint.id }).del();
    });

    it("writes nothing when the caller's transaction rolls back", async () => {
      await register("/rollback");
      const failing = await db
        .transaction(async (trx) => {
          await enqueueEvent(trx, { brandId, type: "cert.issued", payload: { event: "cert.issued" }, dedupeKey: "cert.issued:WH-ROLLBACK" });
          throw new Error("the state change failed");
        })
        .then(() => undefined, (error: Error) => error.message);
      expect(failing).to.equal("the state change failed");
      expect(await db("app.webhook_events").where({ dedupe_key: "cert.issued:WH-ROLLBACK" })).to.have.length(0);
    });

    it("fans out only to the brand's active endpoints subscribed to the type (v1 and dashboard)", async () => {
      await db("app.webhook_endpoints").del();
      const certs = (await register("/fan-certs", ["cert.issued"])).endpoint;
      const scans = (await register("/fan-scans", ["scan.detected"])).endpoint;
      const foreign = (await register("/fan-foreign", ["cert.issued"], otherBrandId)).endpoint;
      const dashboard = (await setDashboardWebhook({ db, config }, brandId, `${receiver.url}/fan-dashboard`)).endpoint;
      const disabled = (await register("/fan-disabled", ["cert.issued"])).endpoint;
      await db("app.webhook_endpoints").where({ id: disabled.id }).update({ status: "disabled" });
      const { eventId } = await enqueueCert();
      const targets = (await db("app.webhook_deliveries").where({ event_id: eventId })).map((d) => d.endpoint_id).sort();
      expect(targets).to.deep.equal([certs.id, dashboard.id].sort());
      expect(targets).to.not.include.members([scans.id, foreign.id, disabled.id]);
      await db("app.webhook_endpoints").del();
    });
  });

  describe("events whose producers come later (scans, orders)", () => {
    it("a recorded scan sends scan.detected to v1 subscribers and, when verified, scan.verified to the dashboard", async () => {
      await db("app.webhook_endpoints").del();
      await register("/scans-v1", ["scan.detected", "order.verified"]);
      await setDashboardWebhook({ db, config }, brandId, `${receiver.url}/scans-dashboard`);
      const scanIds = await db.transaction(async (trx) => {
        const [product] = await trx("app.products")
          .insert({ brand_id: brandId, uid: "WH-SCAN0001", sku: "S-1", name: "Scanned", category: "shirt", price: 10, carbon_kg: 1, carbon_rating: "A" })
          .returning<Array<{ id: number }>>("id");
        const ids: number[] = [];
        for (const verified of [true, false]) {
          const [scan] = await trx("app.scan_events").insert({ product_id: product!.id, verified }).returning<Array<{ id: number }>>("id");
          await emitScan(trx, { brandId, scanId: scan!.id, uid: "WH-SCAN0001", verified, verdict: verified ? "authentic" : "unverified", tokenId: verified ? "77" : null, txHash: verified ? `0x${"cd".repeat(32)}` : null, at: new Date() });
          ids.push(scan!.id);
        }
        return ids;
      });
      await db.transaction(async (trx) => {
        const order = { brandId, orderId: "ord_1001", uid: "WH-SCAN0001", amountMinor: 245000, currency: "BDT", paymentMethod: "cash_qr" as const, gatewayTrxId: null, at: new Date() };
        await emitOrderPaid(trx, order);
        await emitOrderVerified(trx, order);
      });
      dispatcher();
      await waitFor("five deliveries", async () => (receiver.to("/scans-v1").length + receiver.to("/scans-dashboard").length === 5 ? true : undefined), 30_000, 50);

      const v1 = receiver.to("/scans-v1").map((r) => JSON.parse(r.body));
      const dashboard = receiver.to("/scans-dashboard").map((r) => JSON.parse(r.body));
      expect(v1.filter((p) => p.event === "scan.detected").map((p) => p.scan_id).sort()).to.deep.equal([...scanIds].sort());
      expect(v1.find((p) => p.event === "scan.detected" && p.scan_id === scanIds[1])).to.include({ uid: "WH-SCAN0001", verified: false, token_id: null, tx_hash: null });
      expect(dashboard.filter((p) => p.event === "scan.verified").map((p) => p.scan_id)).to.deep.equal([scanIds[0]]);
      expect(v1.find((p) => p.event === "order.verified")).to.include({ order_id: "ord_1001", amount: "2450.00", currency: "BDT", payment_method: "cash_qr" });
      expect(dashboard.find((p) => p.event === "order.paid")).to.include({ order_id: "ord_1001" });
      await db("app.webhook_endpoints").del();
    });
  });

  describe("delivery", () => {
    it("POSTs the payload with both signatures, each verifiable by a receiver", async () => {
      const { endpoint, signingSecret } = await register("/signed");
      const { eventId, payload } = await enqueueCert();
      dispatcher();
      const row = await settled(eventId, endpoint.id);
      const [request] = receiver.to("/signed");
      expect(request).to.not.equal(undefined);
      expect(JSON.parse(request!.body)).to.deep.equal(payload);
      expect(request!.headers["content-type"]).to.equal("application/json");
      expect(request!.headers["webhook-id"]).to.equal(row.id);
      expect(request!.headers["x-service-event-id"]).to.equal(eventId);
      expect(request!.headers["x-service-event"]).to.equal("cert.issued");

      // Standard Webhooks, checked by the reference verifier (it also checks the timestamp is recent).
      const verified = new Webhook(signingSecret).verify(request!.body, request!.headers as Record<string, string>);
      expect(verified).to.deep.equal(payload);
      // X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 keyed with the secret string over "<t>.<body>">.
      const header = String(request!.headers["x-service-signature"]);
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      expect(match, header).to.not.equal(null);
      const expected = createHmac("sha256", signingSecret).update(`${match![1]}.${request!.body}`).digest("hex");
      expect(match![2]).to.equal(expected);
      expect(match![1]).to.equal(request!.headers["webhook-timestamp"]);

      expect(row).to.include({ attempts: 1, last_response_code: 200, last_error: null });
      // A tampered body must not verify: the check above is not vacuous.
      expect(() => new Webhook(signingSecret).verify(request!.body.replace("WH-", "XX-"), request!.headers as Record<string, string>)).to.throw();
    });

    it("retries a 500 to success with the same webhook-id, the first retry seconds later", async () => {
      const { endpoint } = await register("/flaky");
      let calls = 0;
      receiver.reply = (r) => (r.path === "/flaky" && ++calls === 1 ? { status: 500, body: "database down" } : { status: 200 });
      const { eventId } = await enqueueCert();
      dispatcher();
      const failed = await waitFor("the first attempt to fail", async () => {
        const row = await deliveryOf(eventId, endpoint.id);
        return row?.status === "pending" && row.attempts === 1 ? row : undefined;
      }, 30_000, 50);
      expect(failed.last_response_code).to.equal(500);
      expect(failed.last_error).to.equal("HTTP 500: database down");
      // The schedule: first retry 5 s after the failure, ±20 % jitter.
      const delay = (failed.next_attempt_at.getTime() - failed.last_attempt_at.getTime()) / 1000;
      // Measured from the claim, so the attempt's own time is included: up to 6 s of jitter plus a loaded machine.
      expect(delay).to.be.within(3.9, 9);

      const row = await settled(eventId, endpoint.id);
      expect(row).to.include({ attempts: 2, last_response_code: 200, last_error: null });
      const requests = receiver.to("/flaky");
      expect(requests).to.have.length(2);
      expect(requests[1]!.headers["webhook-id"]).to.equal(requests[0]!.headers["webhook-id"]);
      expect(requests[1]!.headers["webhook-id"]).to.equal(row.id);
      expect(requests[1]!.body).to.equal(requests[0]!.body);
    });

    it("does not follow redirects: a 3xx is a failed attempt", async () => {
      const { endpoint } = await register("/moved");
      receiver.reply = (r) => (r.path === "/moved" ? { status: 302, headers: { Location: `${receiver.url}/elsewhere` } } : { status: 200 });
      const { eventId } = await enqueueCert();
      dispatcher();
      const row = await waitFor("the redirect to be recorded", async () => {
        const r = await deliveryOf(eventId, endpoint.id);
        return r?.last_response_code ? r : undefined;
      }, 30_000, 50);
      expect(row.status).to.equal("pending");
      expect(row.last_response_code).to.equal(302);
      expect(row.last_error).to.contain("redirect not followed");
      expect(receiver.to("/elsewhere")).to.have.length(0);
    });

    it("gives up on a receiver that does not answer within the time limit, and retries later", async () => {
      const { endpoint } = await register("/slow");
      let calls = 0;
      receiver.reply = (r) => (r.path === "/slow" && ++calls === 1 ? "hold" : { status: 200 });
      const { eventId } = await enqueueCert();
      dispatcher({ timeoutMs: 1000 });
      const row = await waitFor("the attempt to time out", async () => {
        const r = await deliveryOf(eventId, endpoint.id);
        return r?.last_error ? r : undefined;
      }, 30_000, 50);
      expect(row).to.include({ status: "pending", attempts: 1, last_response_code: null, last_error: "timed out after 1 s" });
    });

    it("disables the endpoint on 410 Gone and tells the brand why", async () => {
      const { endpoint } = await register("/gone");
      receiver.reply = (r) => (r.path === "/gone" ? { status: 410 } : { status: 200 });
      const { eventId } = await enqueueCert();
      dispatcher();
      const row = await settled(eventId, endpoint.id, "failed");
      expect(row.last_response_code).to.equal(410);
      // The endpoint is disabled right after the attempt is recorded.
      const after = await waitFor("the endpoint to be disabled", async () => {
        const e = await db("app.webhook_endpoints").where({ id: endpoint.id }).first();
        return e.status === "disabled" ? e : undefined;
      }, 30_000, 50);
      expect(after.disabled_reason).to.contain("410");
      // A disabled endpoint gets no new deliveries.
      const next = await enqueueCert();
      expect(await deliveryOf(next.eventId, endpoint.id)).to.equal(undefined);
    });

    it("disables an endpoint that has failed every attempt for days once a delivery runs out of attempts", async () => {
      const { endpoint } = await register("/down");
      const { eventId } = await enqueueCert();
      const queued = await enqueueCert();
      // Both deliveries have been failing for three days; the first is on its last attempt.
      await db("app.webhook_endpoints").where({ id: endpoint.id }).update({ failing_since: db.raw("now() - interval '3 days'"), consecutive_failures: 30 });
      await db("app.webhook_deliveries").where({ event_id: eventId, endpoint_id: endpoint.id }).update({ attempts: MAX_ATTEMPTS - 1 });
      await db("app.webhook_deliveries").where({ event_id: queued.eventId, endpoint_id: endpoint.id }).update({ next_attempt_at: db.raw("now() + interval '1 hour'") });
      receiver.reply = (r) => (r.path === "/down" ? { status: 503 } : { status: 200 });
      dispatcher();
      const row = await settled(eventId, endpoint.id, "failed");
      expect(row.attempts).to.equal(MAX_ATTEMPTS);
      const after = await waitFor("the endpoint to be disabled", async () => {
        const e = await db("app.webhook_endpoints").where({ id: endpoint.id }).first();
        return e.status === "disabled" ? e : undefined;
      }, 30_000, 50);
      expect(after.disabled_reason).to.match(/no delivery accepted for 3\.0 days/);
      expect(after.disabled_reason).to.contain("HTTP 503");
      // Outstanding deliveries of a disabled endpoint fail with the reason instead of waiting forever.
      const other = await deliveryOf(queued.eventId, endpoint.id);
      expect(other.status).to.equal("failed");
      expect(other.last_error).to.contain("endpoint disabled");
    });

    it("signs with the old and the new secret during a rotation's overlap", async () => {
      const { endpoint, signingSecret: oldSecret } = await register("/rotated");
      const { signingSecret: newSecret } = await rotateSecret({ db, config }, brandId, "v1", endpoint.id);
      expect(newSecret).to.not.equal(oldSecret);
      const { eventId, payload } = await enqueueCert();
      dispatcher();
      await settled(eventId, endpoint.id);
      const [request] = receiver.to("/rotated");
      const headers = request!.headers as Record<string, string>;
      expect(headers["webhook-signature"]!.split(" ")).to.have.length(2);
      expect(new Webhook(newSecret).verify(request!.body, headers)).to.deep.equal(payload);
      expect(new Webhook(oldSecret).verify(request!.body, headers)).to.deep.equal(payload);
      const parts = headers["x-service-signature"]!.split(",");
      const t = parts[0]!.slice(2);
      const sign = (secret: string) => `v1=${createHmac("sha256", secret).update(`${t}.${request!.body}`).digest("hex")}`;
      expect(parts.slice(1)).to.deep.equal([sign(newSecret), sign(oldSecret)]);
    });
  });

  describe("concurrency and crashes", () => {
    it("two dispatchers on one database never deliver an attempt twice", async () => {
      const { endpoint } = await register("/race");
      const events: string[] = [];
      for (let i = 0; i < 150; i += 1) events.push((await enqueueCert()).eventId);
      // Separate pools, as separate processes would have; both start at once on the same backlog.
      const secondDb = createDb(databaseUrl, 10);
      try {
        dispatcher({ concurrency: 8 });
        dispatcher({ db: secondDb, concurrency: 8 });
        await waitFor("every delivery to succeed", async () => {
          const open = await db("app.webhook_deliveries").where({ endpoint_id: endpoint.id }).whereNot({ status: "succeeded" }).count<{ count: number }>("* as count").first();
          return Number(open!.count) === 0 ? true : undefined;
        }, 120_000, 100);
        while (dispatchers.length > 0) await dispatchers.pop()!.stop(1000);
      } finally {
        await secondDb.destroy();
      }
      const ids = receiver.to("/race").map((r) => String(r.headers["webhook-id"]));
      expect(ids).to.have.length(events.length);
      expect(new Set(ids).size).to.equal(events.length);
      const attempts = await db("app.webhook_deliveries").where({ endpoint_id: endpoint.id }).sum<{ sum: string }>("attempts as sum").first();
      expect(Number(attempts!.sum)).to.equal(events.length);
    });

    it("a dispatcher killed mid-delivery leaves the delivery to be retried, with the same webhook-id", async function () {
      this.timeout(120_000);
      const { endpoint } = await register("/crash");
      let calls = 0;
      receiver.reply = (r) => (r.path === "/crash" && ++calls === 1 ? "hold" : { status: 200 });
      const { eventId } = await enqueueCert();
      let child: ChildProcess | undefined;
      try {
        child = spawn(process.execPath, ["--import", "tsx", "api/src/webhooks/dispatcher-main.ts"], {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            SERVICE_MODE: "local",
            DATABASE_URL: databaseUrl,
            LOG_LEVEL: "silent",
            WEBHOOK_POLL_INTERVAL_MS: "100",
            // A short attempt limit keeps the claim's lease (2 × limit + 5 s) short, so the test need not wait long.
            WEBHOOK_TIMEOUT_MS: "2000",
          },
          stdio: "ignore",
        });
        await waitFor("the child dispatcher to send the request", async () => (receiver.to("/crash").length === 1 ? true : undefined), 60_000, 50);
        const exited = new Promise((resolve) => child!.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      } finally {
        if (child) await stopProcess(child, 1000);
      }
      const orphan = await deliveryOf(eventId, endpoint.id);
      expect(orphan).to.include({ status: "delivering", attempts: 1 });

      dispatcher();
      const row = await settled(eventId, endpoint.id, "succeeded", 60_000);
      expect(row.attempts).to.equal(2);
      const requests = receiver.to("/crash");
      expect(requests).to.have.length(2);
      expect(requests[1]!.headers["webhook-id"]).to.equal(requests[0]!.headers["webhook-id"]);
    });

    it("a dispatcher stopped gracefully finishes its in-flight attempt", async () => {
      const { endpoint } = await register("/graceful");
      receiver.reply = (r) => (r.path === "/graceful" ? "hold" : { status: 200 });
      const { eventId } = await enqueueCert();
      const d = dispatcher();
      await waitFor("the request to arrive", async () => (receiver.to("/graceful").length === 1 ? true : undefined), 30_000, 20);
      // stop() waits for the attempt in flight, which the receiver answers only after stop() has begun.
      const stopping = d.stop(8000);
      receiver.release("/graceful", 200);
      await stopping;
      dispatchers.splice(dispatchers.indexOf(d), 1);
      const row = await deliveryOf(eventId, endpoint.id);
      expect(row).to.include({ status: "succeeded", attempts: 1 });
    });

    it("a dispatcher whose grace period runs out gives the claim back untried, for another to retry at once", async () => {
      const { endpoint } = await register("/stuck");
      receiver.reply = (r) => (r.path === "/stuck" ? "hold" : { status: 200 });
      const { eventId } = await enqueueCert();
      const d = dispatcher();
      await waitFor("the request to arrive", async () => (receiver.to("/stuck").length === 1 ? true : undefined), 30_000, 20);
      await d.stop(200);
      dispatchers.splice(dispatchers.indexOf(d), 1);
      const row = await deliveryOf(eventId, endpoint.id);
      expect(row).to.include({ status: "pending", attempts: 0, claim_token: null });
      expect(row.next_attempt_at.getTime()).to.be.at.most(Date.now() + 1000);
    });
  });

  describe("history retention", () => {
    it("deletes finished deliveries past the retention period and the bodies of events no delivery needs", async () => {
      await db("app.webhook_endpoints").del();
      const endpoint = (await register("/retention")).endpoint;
      const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
      const age = async (eventId: string, days: number, status: string, finishedDaysAgo = days) => {
        await db("app.webhook_events").where({ id: eventId }).update({ created_at: daysAgo(days) });
        await db("app.webhook_deliveries").where({ event_id: eventId }).update({
          created_at: daysAgo(days),
          status,
          last_attempt_at: daysAgo(finishedDaysAgo),
          delivered_at: status === "succeeded" ? daysAgo(finishedDaysAgo) : null,
        });
      };
      const oldDelivered = (await enqueueCert()).eventId;
      await age(oldDelivered, 31, "succeeded");
      const oldFailed = (await enqueueCert()).eventId;
      await age(oldFailed, 40, "failed");
      // Redelivered by the brand: pending again, so it and its event's body stay whatever their age.
      const oldPending = (await enqueueCert()).eventId;
      await age(oldPending, 45, "pending");
      await db("app.webhook_deliveries").where({ event_id: oldPending }).update({ next_attempt_at: new Date(Date.now() + 3_600_000) });
      const recent = (await enqueueCert()).eventId;
      await age(recent, 29, "succeeded");
      // Created long ago, redelivered and delivered two days ago: age counts from when it finished.
      const redelivered = (await enqueueCert()).eventId;
      await age(redelivered, 50, "succeeded", 2);

      expect(await pruneWebhookHistory(db, 30)).to.deep.equal({ deliveries: 2, events: 2 });
      const deliveries = await db("app.webhook_deliveries").where({ endpoint_id: endpoint.id }).pluck("event_id");
      expect(deliveries.sort()).to.deep.equal([oldPending, recent, redelivered].sort());
      const events = await db("app.webhook_events").whereIn("id", [oldDelivered, oldFailed, oldPending, recent, redelivered]).select("id", "payload");
      const bodyOf = (id: string) => events.find((e) => e.id === id)?.payload;
      expect(bodyOf(oldDelivered)).to.equal(null);
      expect(bodyOf(oldFailed)).to.equal(null);
      expect(bodyOf(oldPending)).to.be.an("object");
      expect(bodyOf(recent)).to.be.an("object");
      expect(bodyOf(redelivered)).to.be.an("object");

      // The pruned event keeps its dedupe key: the same fact enqueued again sends nothing.
      const uid = (await db("app.webhook_events").where({ id: oldDelivered }).first()).dedupe_key.replace("cert.issued:", "");
      const again = await db.transaction((trx) => enqueueEvent(trx, { brandId, type: "cert.issued", payload: { event: "cert.issued", uid }, dedupeKey: `cert.issued:${uid}` }));
      expect(again).to.equal(oldDelivered);
      expect(await db("app.webhook_deliveries").where({ event_id: oldDelivered })).to.have.length(0);

      // A second pass finds nothing more.
      expect(await pruneWebhookHistory(db, 30)).to.deep.equal({ deliveries: 0, events: 0 });
      await db("app.webhook_endpoints").del();
    });
  });
});
