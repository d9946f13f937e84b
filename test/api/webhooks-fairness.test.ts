// Webhook fairness: one brand's hanging receivers and long backlog hold only their own share of the dispatcher's
// slots, and other brands' deliveries go out meanwhile. Real Postgres, real receivers on 127.0.0.1.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { loadConfig, type Config } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { createLogger } from "../../api/src/logger";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { insertEndpoint } from "../../api/src/webhooks/endpoints.repo";
import { enqueueEvent } from "../../api/src/webhooks/outbox";
import { encryptSecret, generateSigningSecret } from "../../api/src/webhooks/secrets";
import { waitFor } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";

/**
 * Paths under /hang/ never answer (the sender gives up at its time-out); every other path answers 204. Counts what
 * arrives, in order, and the most requests ever open at once per path and per path prefix.
 */
class Receivers {
  /** Paths of requests, in the order they arrived. */
  readonly arrivals: string[] = [];
  private readonly open = new Map<string, number>();
  private readonly peak = new Map<string, number>();
  private readonly server = http.createServer((req, res) => {
    const path = req.url ?? "";
    this.arrivals.push(path);
    const keys = [path, path.replace(/\/[^/]*$/, "/*")];
    for (const key of keys) {
      const now = (this.open.get(key) ?? 0) + 1;
      this.open.set(key, now);
      this.peak.set(key, Math.max(now, this.peak.get(key) ?? 0));
    }
    res.once("close", () => {
      for (const key of keys) this.open.set(key, this.open.get(key)! - 1);
    });
    req.resume();
    if (!path.startsWith("/hang/")) req.once("end", () => res.writeHead(204).end());
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }
  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }
  /** The most requests that were ever open at once to `key` (a path, or "/hang/*" for every path under /hang/). */
  peakOf(key: string): number {
    return this.peak.get(key) ?? 0;
  }
  count(prefix: string): number {
    return this.arrivals.filter((p) => p.startsWith(prefix)).length;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe("webhook fairness across brands", () => {
  let db: Knex;
  let config: Config;
  let receivers: Receivers;
  let serial = 0;

  before(async () => {
    const databaseUrl = await createTestDatabase("webhooks_fairness");
    config = loadConfig({ SERVICE_MODE: "local", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ALLOW_LOOPBACK_WEBHOOKS: "true" });
    db = createDb(databaseUrl, 10);
    await migrateLatest(db);
    receivers = await new Receivers().start();
  });
  after(async () => {
    await receivers?.stop();
    await db?.destroy();
  });

  async function brandWithEndpoints(slug: string, paths: string[]): Promise<number> {
    const { brand } = await createBrand(db, { slug, name: slug, uidPrefix: slug.replace(/-/g, "").toUpperCase() });
    for (const path of paths) {
      await insertEndpoint(db, { brandId: brand.id, kind: "v1", url: receivers.url(path), events: ["cert.issued"], secretCiphertext: encryptSecret(config.secretsKey, generateSigningSecret()) });
    }
    return brand.id;
  }

  async function enqueue(brandId: number, events: number): Promise<void> {
    await db.transaction(async (trx) => {
      for (let i = 0; i < events; i += 1) {
        serial += 1;
        await enqueueEvent(trx, { brandId, type: "cert.issued", payload: { event: "cert.issued", serial }, dedupeKey: `cert.issued:FAIR-${serial}` });
      }
    });
  }

  it("delivers brand B while brand A's hanging receivers work through their backlog, A never holding more than its slots", async () => {
    // A: three receivers that never answer, 12 events each, all older than B's. B: one healthy receiver, 6 events.
    const brandA = await brandWithEndpoints("fair-a", ["/hang/a1", "/hang/a2", "/hang/a3"]);
    const brandB = await brandWithEndpoints("fair-b", ["/ok/b"]);
    await enqueue(brandA, 12);
    await db.raw(
      "UPDATE app.webhook_deliveries SET next_attempt_at = now() - interval '1 minute' WHERE endpoint_id IN (SELECT id FROM app.webhook_endpoints WHERE brand_id = ?)",
      [brandA],
    );
    await enqueue(brandB, 6);

    // Four slots; one endpoint may use one of them, one brand two.
    const dispatcher = new Dispatcher({
      config,
      db,
      logger: createLogger("silent"),
      watch: false,
      prune: false,
      pollIntervalMs: 50,
      timeoutMs: 1000,
      concurrency: 4,
      endpointConcurrency: 1,
      brandConcurrency: 2,
    });
    dispatcher.start();
    let aBeforeB: number;
    try {
      await waitFor("B's six deliveries", async () => (receivers.count("/ok/b") >= 6 ? true : undefined), 120_000, 10);
      aBeforeB = receivers.count("/hang/");
      // Let A go through several rounds of attempts, so the caps are seen to hold beyond the first claim.
      await waitFor("A's attempts", async () => (receivers.count("/hang/") >= 8 ? true : undefined), 120_000, 20);
    } finally {
      await dispatcher.stop(500);
    }

    // B's deliveries did not queue behind A's 36 older ones: they went out while A's first attempts were hanging
    // (a second round is allowed for, should the machine be slow enough for A's first ones to time out meanwhile).
    expect(aBeforeB, "A's requests before B's six arrived").to.be.at.most(4);
    const b = await db("app.webhook_deliveries as d")
      .join("app.webhook_endpoints as e", "e.id", "d.endpoint_id")
      .where("e.brand_id", brandB)
      .select("d.status", "d.attempts");
    expect(b).to.have.length(6);
    for (const row of b) expect(row).to.deep.equal({ status: "succeeded", attempts: 1 });

    // A held at most its brand's two slots, one per endpoint, and its backlog was still waiting when B was done.
    expect(receivers.peakOf("/hang/*"), "A's requests open at once").to.equal(2);
    for (const path of ["/hang/a1", "/hang/a2", "/hang/a3"]) expect(receivers.peakOf(path), path).to.be.at.most(1);
    const untried = await db("app.webhook_deliveries as d")
      .join("app.webhook_endpoints as e", "e.id", "d.endpoint_id")
      .where({ "e.brand_id": brandA, "d.attempts": 0 })
      .count<{ count: string }>("* as count")
      .first();
    expect(Number(untried!.count), "A's deliveries never tried").to.be.greaterThan(0);
  });
});
