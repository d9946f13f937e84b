// The v1 webhook routes over HTTP against a real Postgres: registration, listing, delivery log, redelivery, secret
// rotation, deletion, and that a brand only ever sees its own webhooks.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { Webhook } from "standardwebhooks";
import { createBrand } from "../../api/src/brands/service";
import { createLogger } from "../../api/src/logger";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { enqueueEvent } from "../../api/src/webhooks/outbox";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

describe("v1 webhook routes", () => {
  let api: InProcessApi;
  let receiver: http.Server;
  let receiverUrl: string;
  const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  let counter = 0;

  before(async () => {
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("webhooks_routes"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  after(async () => {
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await api?.close();
  });

  async function newBrand() {
    counter += 1;
    const { brand, key } = await createBrand(api.db, { slug: `hooks-${counter}`, name: `Hooks ${counter}`, uidPrefix: `HK${counter}`, plan: "enterprise" });
    return { id: brand.id, headers: { Authorization: `Bearer ${key.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" } };
  }
  type Brand = Awaited<ReturnType<typeof newBrand>>;

  function call(brand: Brand, method: string, path: string, body?: unknown) {
    return fetch(`${api.url}/api/v1${path}`, { method, headers: brand.headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  }
  async function register(brand: Brand, path: string, events = ["cert.issued"]) {
    const res = await call(brand, "POST", "/webhook/register", { url: `${receiverUrl}${path}`, events });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(201);
    return body.data as { webhook_id: number; url: string; events: string[]; signing_secret: string; note: string };
  }
  async function expectError(res: Response, status: number, code: string) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(status);
    expect(body.error.code).to.equal(code);
    return body.error as { details?: Array<{ field: string; problem: string }> };
  }
  async function deliverOnce(brandId: number, uid: string) {
    const eventId = await api.db.transaction((trx) =>
      enqueueEvent(trx, { brandId, type: "cert.issued", payload: { event: "cert.issued", uid, timestamp: new Date().toISOString() }, dedupeKey: `cert.issued:${uid}` }),
    );
    const dispatcher = new Dispatcher({ config: api.config, db: api.db, logger: createLogger("silent"), watch: false, pollIntervalMs: 50 });
    dispatcher.start();
    try {
      await waitFor("the delivery", async () => {
        const open = await api.db("app.webhook_deliveries").where({ event_id: eventId }).whereNot({ status: "succeeded" }).first();
        return open ? undefined : true;
      }, 30_000, 50);
    } finally {
      await dispatcher.stop(1000);
    }
    return eventId;
  }

  describe("POST /api/v1/webhook/register", () => {
    it("registers and returns spec 2.9 with a whsec_ secret shown once", async () => {
      const brand = await newBrand();
      const res = await call(brand, "POST", "/webhook/register", { url: `${receiverUrl}/a`, events: ["product.certified", "cert.issued"] });
      expect(res.status).to.equal(201);
      const body = await json(res);
      expect(body.success).to.equal(true);
      expect(body.data).to.have.all.keys("webhook_id", "url", "events", "signing_secret", "note");
      expect(body.data.webhook_id).to.be.a("number");
      expect(body.data.url).to.equal(`${receiverUrl}/a`);
      expect(body.data.events).to.deep.equal(["product.certified", "cert.issued"]);
      expect(body.data.signing_secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(body.data.signing_secret.slice(6), "base64")).to.have.length(32);
      expect(body.data.note).to.contain("X-Service-Signature").and.to.contain("HMAC-SHA256");
      expect(res.headers.get("cache-control")).to.equal("no-store");

      // Stored encrypted, never in clear.
      const row = await api.db("app.webhook_endpoints").where({ id: body.data.webhook_id }).first();
      expect(row.secret_ciphertext).to.not.contain(body.data.signing_secret.slice(6, 20));
      // Listed without the secret.
      const list = await call(brand, "GET", "/webhooks");
      const listed = await json(list);
      expect(list.status).to.equal(200);
      expect(JSON.stringify(listed)).to.not.contain(body.data.signing_secret);
      expect(listed.data.webhooks).to.have.length(1);
      expect(listed.data.webhooks[0]).to.include({ webhook_id: body.data.webhook_id, status: "active", disabled_reason: null });
    });

    const invalid: Array<[string, unknown, string]> = [
      ["no url", { events: ["cert.issued"] }, "url"],
      ["no events", { url: "https://example.com/h" }, "events"],
      ["empty events", { url: "https://example.com/h", events: [] }, "events"],
      ["unknown event", { url: "https://example.com/h", events: ["order.paid"] }, "events.0"],
      ["repeated event", { url: "https://example.com/h", events: ["cert.issued", "cert.issued"] }, "events"],
      ["five events", { url: "https://example.com/h", events: ["cert.issued", "scan.detected", "order.verified", "product.certified", "cert.issued"] }, "events"],
      ["url not a string", { url: 42, events: ["cert.issued"] }, "url"],
      ["url too long", { url: `https://example.com/${"a".repeat(2048)}`, events: ["cert.issued"] }, "url"],
      ["ftp url", { url: "ftp://example.com/h", events: ["cert.issued"] }, "url"],
      ["not a url", { url: "hooks at my shop", events: ["cert.issued"] }, "url"],
      ["extra field", { url: "https://example.com/h", events: ["cert.issued"], secret: "mine" }, "secret"],
    ];
    for (const [what, body, field] of invalid) {
      it(`answers 422 VALIDATION_ERROR naming the field: ${what}`, async () => {
        const brand = await newBrand();
        const error = await expectError(await call(brand, "POST", "/webhook/register", body), 422, "VALIDATION_ERROR");
        expect(error.details!.map((d) => d.field)).to.include(field);
      });
    }

    it("answers 422 for a body that is not JSON and 401 without a key", async () => {
      const brand = await newBrand();
      const res = await fetch(`${api.url}/api/v1/webhook/register`, { method: "POST", headers: brand.headers, body: "{" });
      await expectError(res, 422, "VALIDATION_ERROR");
      const anonymous = await fetch(`${api.url}/api/v1/webhook/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      await expectError(anonymous, 401, "MISSING_KEY");
    });
  });

  describe("a brand's own webhooks only", () => {
    it("answers 404 to another brand for every webhook route", async () => {
      const owner = await newBrand();
      const stranger = await newBrand();
      const hook = await register(owner, "/owned");
      const eventId = await deliverOnce(owner.id, `OWN-${counter}`);
      const delivery = await api.db("app.webhook_deliveries").where({ event_id: eventId }).first();
      const id = hook.webhook_id;
      await expectError(await call(stranger, "GET", `/webhooks/${id}/deliveries`), 404, "NOT_FOUND");
      await expectError(await call(stranger, "POST", `/webhooks/${id}/deliveries/${delivery.id}/redeliver`), 404, "NOT_FOUND");
      await expectError(await call(stranger, "POST", `/webhooks/${id}/rotate-secret`), 404, "NOT_FOUND");
      await expectError(await call(stranger, "POST", `/webhooks/${id}/enable`), 404, "NOT_FOUND");
      await expectError(await call(stranger, "DELETE", `/webhooks/${id}`), 404, "NOT_FOUND");
      expect((await json(await call(stranger, "GET", "/webhooks"))).data).to.deep.equal({ webhooks: [] });
      // The owner still has it.
      expect((await json(await call(owner, "GET", "/webhooks"))).data.webhooks.map((w: { webhook_id: number }) => w.webhook_id)).to.deep.equal([id]);
    });

    it("validates path and query parameters", async () => {
      const brand = await newBrand();
      const hook = await register(brand, "/params");
      await expectError(await call(brand, "GET", "/webhooks/abc/deliveries"), 422, "VALIDATION_ERROR");
      await expectError(await call(brand, "GET", `/webhooks/${hook.webhook_id}/deliveries?limit=0`), 422, "VALIDATION_ERROR");
      await expectError(await call(brand, "GET", `/webhooks/${hook.webhook_id}/deliveries?limit=101`), 422, "VALIDATION_ERROR");
      await expectError(await call(brand, "GET", `/webhooks/${hook.webhook_id}/deliveries?status=lost`), 422, "VALIDATION_ERROR");
      await expectError(await call(brand, "GET", `/webhooks/${hook.webhook_id}/deliveries?sort=asc`), 422, "VALIDATION_ERROR");
      await expectError(await call(brand, "POST", `/webhooks/${hook.webhook_id}/deliveries/not-an-id/redeliver`), 422, "VALIDATION_ERROR");
      await expectError(await call(brand, "POST", `/webhooks/${hook.webhook_id}/deliveries/msg_${"0".repeat(32)}/redeliver`), 404, "NOT_FOUND");
      await expectError(await call(brand, "GET", "/webhooks/999999/deliveries"), 404, "NOT_FOUND");
    });
  });

  describe("delivery log, redelivery, rotation, deletion", () => {
    it("lists deliveries newest first with status, attempts and last response, in pages", async () => {
      const brand = await newBrand();
      const hook = await register(brand, "/log");
      const first = await deliverOnce(brand.id, `LOG-A-${counter}`);
      const second = await deliverOnce(brand.id, `LOG-B-${counter}`);
      const res = await call(brand, "GET", `/webhooks/${hook.webhook_id}/deliveries?limit=1`);
      expect(res.status).to.equal(200);
      const page = (await json(res)).data;
      expect(page.webhook.webhook_id).to.equal(hook.webhook_id);
      expect(page.deliveries).to.have.length(1);
      expect(page.deliveries[0]).to.include({ event_id: second, event: "cert.issued", status: "succeeded", attempts: 1, last_response_code: 200, last_error: null, next_attempt_at: null });
      expect(page.deliveries[0].delivery_id).to.match(/^msg_[0-9a-f]{32}$/);
      expect(page.next_before).to.equal(page.deliveries[0].delivery_id);
      const next = (await json(await call(brand, "GET", `/webhooks/${hook.webhook_id}/deliveries?limit=1&before=${page.next_before}`))).data;
      expect(next.deliveries.map((d: { event_id: string }) => d.event_id)).to.deep.equal([first]);
      const failedOnly = (await json(await call(brand, "GET", `/webhooks/${hook.webhook_id}/deliveries?status=failed`))).data;
      expect(failedOnly.deliveries).to.deep.equal([]);
    });

    it("redelivers one delivery with the same webhook-id", async () => {
      const brand = await newBrand();
      const hook = await register(brand, "/again");
      const eventId = await deliverOnce(brand.id, `AGAIN-${counter}`);
      const delivery = await api.db("app.webhook_deliveries").where({ event_id: eventId }).first();
      const res = await call(brand, "POST", `/webhooks/${hook.webhook_id}/deliveries/${delivery.id}/redeliver`);
      expect(res.status).to.equal(202);
      expect((await json(res)).data).to.include({ delivery_id: delivery.id, status: "pending", attempts: 0 });
      const dispatcher = new Dispatcher({ config: api.config, db: api.db, logger: createLogger("silent"), watch: false, pollIntervalMs: 50 });
      dispatcher.start();
      try {
        await waitFor("the redelivery", async () => (received.filter((r) => r.path === "/again").length === 2 ? true : undefined), 30_000, 50);
      } finally {
        await dispatcher.stop(1000);
      }
      const both = received.filter((r) => r.path === "/again");
      expect(both[1]!.headers["webhook-id"]).to.equal(delivery.id);
      expect(both[0]!.headers["webhook-id"]).to.equal(delivery.id);
    });

    it("rotates the secret: the new one is shown once and both sign during the overlap", async () => {
      const brand = await newBrand();
      const hook = await register(brand, "/rotate");
      const res = await call(brand, "POST", `/webhooks/${hook.webhook_id}/rotate-secret`);
      expect(res.status).to.equal(200);
      const rotated = (await json(res)).data;
      expect(rotated.signing_secret).to.match(/^whsec_/).and.not.equal(hook.signing_secret);
      const overlap = new Date(rotated.previous_secret_valid_until).getTime() - Date.now();
      expect(overlap).to.be.within(23 * 3600 * 1000, 24 * 3600 * 1000 + 60_000);
      const listed = (await json(await call(brand, "GET", "/webhooks"))).data.webhooks[0];
      expect(listed.previous_secret_valid_until).to.equal(rotated.previous_secret_valid_until);

      await deliverOnce(brand.id, `ROT-${counter}`);
      const request = received.filter((r) => r.path === "/rotate")[0]!;
      const headers = request.headers as Record<string, string>;
      expect(new Webhook(rotated.signing_secret).verify(request.body, headers)).to.include({ event: "cert.issued" });
      expect(new Webhook(hook.signing_secret).verify(request.body, headers)).to.include({ event: "cert.issued" });
    });

    it("shows why a webhook was disabled, refuses to redeliver until it is enabled again", async () => {
      const brand = await newBrand();
      const hook = await register(brand, "/disabled");
      const eventId = await deliverOnce(brand.id, `DIS-${counter}`);
      const delivery = await api.db("app.webhook_deliveries").where({ event_id: eventId }).first();
      await api.db("app.webhook_endpoints").where({ id: hook.webhook_id }).update({ status: "disabled", disabled_reason: "the receiver answered 410 Gone", disabled_at: api.db.fn.now() });
      const listed = (await json(await call(brand, "GET", "/webhooks"))).data.webhooks[0];
      expect(listed).to.include({ status: "disabled", disabled_reason: "the receiver answered 410 Gone" });
      expect(listed.disabled_at).to.be.a("string");
      await expectError(await call(brand, "POST", `/webhooks/${hook.webhook_id}/deliveries/${delivery.id}/redeliver`), 409, "CONFLICT");
      const enabled = await call(brand, "POST", `/webhooks/${hook.webhook_id}/enable`);
      expect(enabled.status).to.equal(200);
      expect((await json(enabled)).data).to.include({ status: "active", disabled_reason: null });
      expect((await call(brand, "POST", `/webhooks/${hook.webhook_id}/deliveries/${delivery.id}/redeliver`)).status).to.equal(202);
    });

    it("deletes a webhook with its delivery log", async () => {
      const brand = await newBrand();
      const hook = await register(brand, "/delete");
      await deliverOnce(brand.id, `DEL-${counter}`);
      const res = await call(brand, "DELETE", `/webhooks/${hook.webhook_id}`);
      expect(res.status).to.equal(200);
      expect((await json(res)).data).to.deep.equal({ webhook_id: hook.webhook_id, deleted: true });
      await expectError(await call(brand, "GET", `/webhooks/${hook.webhook_id}/deliveries`), 404, "NOT_FOUND");
      expect(await api.db("app.webhook_deliveries").where({ endpoint_id: hook.webhook_id })).to.have.length(0);
      await expectError(await call(brand, "DELETE", `/webhooks/${hook.webhook_id}`), 404, "NOT_FOUND");
    });
  });

  it("documents every webhook route in the OpenAPI document", async () => {
    const doc = await json(await fetch(`${api.url}/api/openapi.json`));
    expect(doc.paths["/api/v1/webhook/register"].post.responses["201"].content["application/json"].example.data.signing_secret).to.match(/^whsec_/);
    for (const path of ["/api/v1/webhooks", "/api/v1/webhooks/{id}", "/api/v1/webhooks/{id}/deliveries", "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", "/api/v1/webhooks/{id}/rotate-secret", "/api/v1/webhooks/{id}/enable"]) {
      expect(doc.paths, path).to.have.property(path);
    }
  });
});
