// The dashboard's webhooks, API keys and usage over HTTP against a real Postgres: test events delivered by a real
// dispatcher to a receiver on 127.0.0.1 that checks both signatures, retries, redelivery, secret rotation, the SSRF
// guard, keys shown once, rotated with grace and revoked, usage equal to GET /api/v1/usage, roles, audit entries, and
// that a brand only ever reaches its own.
import { createHmac, timingSafeEqual } from "node:crypto";
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
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

type Received = { path: string; headers: Record<string, string>; body: string };

/** X-Service-Signature checked from its definition (hex HMAC-SHA256 of "<t>.<body>", keyed with the secret's text). */
function serviceSignatureValid(secret: string, headers: Record<string, string>, body: string): boolean {
  const parts = headers["x-service-signature"]!.split(",");
  const t = parts.find((p) => p.startsWith("t="))!.slice(2);
  const expected = Buffer.from(createHmac("sha256", Buffer.from(secret, "utf8")).update(`${t}.${body}`).digest("hex"));
  return parts.filter((p) => p.startsWith("v1=")).some((p) => {
    const sent = Buffer.from(p.slice(3));
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  });
}

describe("dashboard webhooks, API keys and usage", () => {
  let api: InProcessApi;
  let dispatcher: Dispatcher;
  let receiver: http.Server;
  let receiverUrl: string;
  const received: Received[] = [];
  /** Paths answered 500 this many more times before 200. */
  const failures = new Map<string, number>();
  let brandId: number;
  let brandKey: string;
  let owner: DashboardClient;
  let admin: DashboardClient;
  let editor: DashboardClient;
  let viewer: DashboardClient;
  let strangerId: number;
  let stranger: DashboardClient;

  before(async () => {
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("dashboard_hooks_keys"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "";
        received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") });
        const left = failures.get(path) ?? 0;
        if (left > 0) failures.set(path, left - 1);
        res.writeHead(left > 0 ? 500 : 200).end(left > 0 ? "receiver down" : "");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    dispatcher = new Dispatcher({ config: api.config, db: api.db, logger: createLogger("silent"), watch: false, prune: false, pollIntervalMs: 50 });
    dispatcher.start();

    const created = await createBrand(api.db, { slug: "hooks-brand", name: "Hooks Brand", uidPrefix: "HKB", plan: "growth" });
    brandId = created.brand.id;
    brandKey = created.key.key;
    owner = await dashboardClient(api.url, api.db, brandId, "owner");
    admin = await dashboardClient(api.url, api.db, brandId, "admin");
    editor = await dashboardClient(api.url, api.db, brandId, "editor");
    viewer = await dashboardClient(api.url, api.db, brandId, "viewer");
    const other = await createBrand(api.db, { slug: "stranger-brand", name: "Stranger", uidPrefix: "STR" });
    strangerId = other.brand.id;
    stranger = await dashboardClient(api.url, api.db, strangerId, "owner");
  });
  after(async () => {
    await dispatcher?.stop(1000);
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await api?.close();
  });

  async function expectError(res: Response, status: number, code: string) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(status);
    expect(body.error.code).to.equal(code);
    return body.error as { details?: Array<{ field: string; problem: string }> };
  }
  async function data(res: Response, status = 200) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(status);
    return body.data;
  }
  const requestsTo = (path: string) => received.filter((r) => r.path === path);
  const audit = async (id = brandId) => (await api.db("app.audit_log").where({ brand_id: id }).orderBy("id").select("action", "target", "details")) as Array<{ action: string; target: string; details: Record<string, unknown> }>;
  const delivery = (id: string) => api.db("app.webhook_deliveries").where({ id }).first();
  async function subscribe(path: string, events = ["cert.issued"]) {
    return data(await owner.call("/api/dashboard/webhooks", { method: "POST", json: { url: `${receiverUrl}${path}`, events } }), 201) as Promise<{
      endpoint: { id: number; url: string };
      signing_secret: string;
    }>;
  }

  describe("webhooks", () => {
    it("sets the dashboard receiver: a secret once when new, kept when the URL changes", async () => {
      const first = await data(await owner.call("/api/dashboard/webhooks/dashboard", { method: "PUT", json: { url: `${receiverUrl}/dash-old` } }));
      expect(first.signing_secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(first.endpoint).to.include({ kind: "dashboard", url: `${receiverUrl}/dash-old`, enabled: true, disabled_reason: null, last_delivery: null, secret_rotated_at: null });
      expect(first.endpoint.events).to.have.members(["order.paid", "cert.issued", "scan.verified", "tag.assigned"]);
      const moved = await data(await admin.call("/api/dashboard/webhooks/dashboard", { method: "PUT", json: { url: `${receiverUrl}/dash` } }), 200);
      expect(moved.signing_secret).to.equal(null);
      expect(moved.endpoint).to.include({ id: first.endpoint.id, url: `${receiverUrl}/dash` });

      const listed = await json(await owner.call("/api/dashboard/webhooks"));
      expect(listed.data.dashboard.id).to.equal(first.endpoint.id);
      expect(listed.data.subscriptions).to.deep.equal([]);
      expect(JSON.stringify(listed)).to.not.contain(first.signing_secret);
      const actions = (await audit()).map((e) => e.action);
      expect(actions).to.include.members(["webhook.created", "webhook.updated"]);
      expect(JSON.stringify(await audit())).to.not.contain(first.signing_secret.slice(6));
    });

    it("sends a signed test event through the outbox and dispatcher, to that endpoint only", async () => {
      const hook = await subscribe("/sub-test");
      await subscribe("/sub-bystander", ["product.certified", "order.verified", "scan.detected", "cert.issued"]);
      const queued = await data(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/test`, { method: "POST" }), 202);
      expect(queued.delivery_id).to.match(/^msg_[0-9a-f]{32}$/);
      await waitFor("the test delivery", async () => (requestsTo("/sub-test").length > 0 ? true : undefined), 30_000, 50);
      const request = requestsTo("/sub-test")[0]!;
      expect(request.headers["webhook-id"]).to.equal(queued.delivery_id);
      const payload = new Webhook(hook.signing_secret).verify(request.body, request.headers) as Record<string, unknown>;
      expect(payload).to.include({ event: "webhook.test", webhook_id: hook.endpoint.id, kind: "v1" });
      expect(serviceSignatureValid(hook.signing_secret, request.headers, request.body)).to.equal(true);
      expect(serviceSignatureValid("whsec_not-the-secret", request.headers, request.body)).to.equal(false);
      // The brand's other endpoints got nothing, whatever they subscribe to.
      expect(requestsTo("/dash")).to.deep.equal([]);
      expect(requestsTo("/sub-bystander")).to.deep.equal([]);

      await waitFor("the outcome", async () => ((await delivery(queued.delivery_id)).status === "succeeded" ? true : undefined), 10_000, 50);
      const log = await json(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/deliveries`));
      expect(log.data).to.have.length(1);
      expect(log.data[0]).to.include({ id: queued.delivery_id, event: "webhook.test", status: "succeeded", attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null });
      expect(log.meta).to.deep.equal({ next_before: null });
      const listed = (await data(await owner.call("/api/dashboard/webhooks"))).subscriptions[0];
      expect(listed.last_delivery.status).to.equal("succeeded");
      expect((await audit()).map((e) => e.action)).to.include.members(["webhook.created", "webhook.tested"]);
    });

    it("retries a failed test delivery on the real schedule, and redelivers it on request with the same webhook-id", async function () {
      this.timeout(60_000);
      const hook = await subscribe("/flaky");
      failures.set("/flaky", 1);
      const { delivery_id: id } = await data(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/test`, { method: "POST" }), 202);
      await waitFor("the first attempt", async () => ((await delivery(id)).attempts === 1 && (await delivery(id)).status === "pending" ? true : undefined), 10_000, 50);
      const failed = (await data(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/deliveries?status=pending`)))[0];
      expect(failed).to.include({ id, status: "pending", attempts: 1, last_status_code: 500 });
      expect(failed.last_error).to.contain("receiver down");
      expect(failed.next_attempt_at).to.be.a("string");
      // First retry after 5 s ± 20 %.
      await waitFor("the retry", async () => ((await delivery(id)).status === "succeeded" ? true : undefined), 20_000, 100);
      expect((await delivery(id)).attempts).to.equal(2);

      const again = await data(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/deliveries/${id}/redeliver`, { method: "POST" }));
      expect(again).to.include({ id, status: "pending", attempts: 0 });
      await waitFor("the redelivery", async () => (requestsTo("/flaky").length === 3 ? true : undefined), 10_000, 50);
      expect(requestsTo("/flaky").map((r) => r.headers["webhook-id"])).to.deep.equal([id, id, id]);
      expect((await audit()).map((e) => e.action)).to.include("webhook.redelivered");
    });

    it("rotates a secret: the new one once, both sign for 24 hours", async () => {
      const hook = await subscribe("/rotate");
      const rotated = await data(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/rotate-secret`, { method: "POST" }));
      expect(rotated.signing_secret).to.match(/^whsec_/).and.to.not.equal(hook.signing_secret);
      const overlap = new Date(rotated.previous_secret_valid_until).getTime() - Date.now();
      expect(overlap).to.be.within(23 * 3600_000, 24 * 3600_000 + 60_000);
      const listed = (await data(await owner.call("/api/dashboard/webhooks"))).subscriptions.find((s: { id: number }) => s.id === hook.endpoint.id);
      expect(listed.secret_rotated_at).to.be.a("string");
      expect(JSON.stringify(listed)).to.not.contain(rotated.signing_secret);

      await data(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/test`, { method: "POST" }), 202);
      await waitFor("the delivery", async () => (requestsTo("/rotate").length > 0 ? true : undefined), 30_000, 50);
      const request = requestsTo("/rotate")[0]!;
      expect(serviceSignatureValid(rotated.signing_secret, request.headers, request.body)).to.equal(true);
      expect(serviceSignatureValid(hook.signing_secret, request.headers, request.body)).to.equal(true);
      expect(new Webhook(rotated.signing_secret).verify(request.body, request.headers)).to.include({ event: "webhook.test" });
      const entry = (await audit()).find((e) => e.action === "webhook.secret_rotated")!;
      expect(JSON.stringify(entry)).to.not.contain(rotated.signing_secret.slice(6));
    });

    it("re-enables a disabled webhook; a disabled one takes no test event", async () => {
      const hook = await subscribe("/disabled");
      await api.db("app.webhook_endpoints").where({ id: hook.endpoint.id }).update({ status: "disabled", disabled_reason: "the receiver answered 410 Gone", disabled_at: api.db.fn.now() });
      const listed = (await data(await owner.call("/api/dashboard/webhooks"))).subscriptions.find((s: { id: number }) => s.id === hook.endpoint.id);
      expect(listed).to.include({ enabled: false, disabled_reason: "the receiver answered 410 Gone" });
      await expectError(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/test`, { method: "POST" }), 409, "CONFLICT");
      const enabled = await data(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/enable`, { method: "POST" }));
      expect(enabled).to.include({ id: hook.endpoint.id, enabled: true, disabled_reason: null });
      expect((await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/test`, { method: "POST" })).status).to.equal(202);
      expect((await audit()).map((e) => e.action)).to.include("webhook.enabled");
    });

    it("allows 5 test events per webhook in 10 minutes", async () => {
      const hook = await subscribe("/many");
      for (let i = 0; i < 5; i += 1) expect((await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/test`, { method: "POST" })).status).to.equal(202);
      const res = await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/test`, { method: "POST" });
      await expectError(res, 429, "RATE_LIMIT");
      expect(Number(res.headers.get("retry-after"))).to.be.greaterThan(0);
    });

    it("puts every URL through the SSRF guard and validates the body", async () => {
      for (const url of ["http://169.254.169.254/latest/meta-data", "http://10.0.0.8/hook", "ftp://example.com/hook", "not a url"]) {
        const error = await expectError(await owner.call("/api/dashboard/webhooks", { method: "POST", json: { url, events: ["cert.issued"] } }), 422, "VALIDATION_ERROR");
        expect(error.details!.map((d) => d.field)).to.include("url");
        await expectError(await owner.call("/api/dashboard/webhooks/dashboard", { method: "PUT", json: { url } }), 422, "VALIDATION_ERROR");
      }
      await expectError(await owner.call("/api/dashboard/webhooks", { method: "POST", json: { url: `${receiverUrl}/x`, events: ["order.paid"] } }), 422, "VALIDATION_ERROR");
      await expectError(await owner.call("/api/dashboard/webhooks", { method: "POST", json: { url: `${receiverUrl}/x`, events: [] } }), 422, "VALIDATION_ERROR");
      await expectError(await owner.call("/api/dashboard/webhooks", { method: "POST", json: { url: `${receiverUrl}/x`, events: ["cert.issued"], secret: "mine" } }), 422, "VALIDATION_ERROR");
      await expectError(await owner.call("/api/dashboard/webhooks/abc/test", { method: "POST" }), 422, "VALIDATION_ERROR");
      await expectError(await owner.call("/api/dashboard/webhooks/1/deliveries?limit=500"), 422, "VALIDATION_ERROR");
    });

    it("keeps webhooks to owners and admins, and each brand to its own", async () => {
      const hook = await subscribe("/owned");
      const { delivery_id: deliveryId } = await data(await owner.call(`/api/dashboard/webhooks/${hook.endpoint.id}/test`, { method: "POST" }), 202);
      for (const client of [editor, viewer]) await expectError(await client.call("/api/dashboard/webhooks"), 403, "FORBIDDEN");
      await expectError(await editor.call(`/api/dashboard/webhooks/${hook.endpoint.id}/rotate-secret`, { method: "POST" }), 403, "FORBIDDEN");
      const id = hook.endpoint.id;
      await expectError(await stranger.call(`/api/dashboard/webhooks/${id}/deliveries`), 404, "NOT_FOUND");
      await expectError(await stranger.call(`/api/dashboard/webhooks/${id}/deliveries/${deliveryId}/redeliver`, { method: "POST" }), 404, "NOT_FOUND");
      await expectError(await stranger.call(`/api/dashboard/webhooks/${id}/test`, { method: "POST" }), 404, "NOT_FOUND");
      await expectError(await stranger.call(`/api/dashboard/webhooks/${id}/rotate-secret`, { method: "POST" }), 404, "NOT_FOUND");
      await expectError(await stranger.call(`/api/dashboard/webhooks/${id}/enable`, { method: "POST" }), 404, "NOT_FOUND");
      await expectError(await stranger.call(`/api/dashboard/webhooks/${id}`, { method: "DELETE" }), 404, "NOT_FOUND");
      expect(await data(await stranger.call("/api/dashboard/webhooks"))).to.deep.equal({ dashboard: null, subscriptions: [] });
      await expectError(await stranger.call("/api/dashboard/webhooks/dashboard", { method: "DELETE" }), 404, "NOT_FOUND");
      expect((await audit(strangerId)).filter((e) => e.action.startsWith("webhook."))).to.deep.equal([]);
      // Still there for its owner; then deleted with its log.
      expect((await owner.call(`/api/dashboard/webhooks/${id}`, { method: "DELETE" })).status).to.equal(204);
      expect(await api.db("app.webhook_deliveries").where({ endpoint_id: id })).to.have.length(0);
      await expectError(await owner.call(`/api/dashboard/webhooks/${id}/deliveries`), 404, "NOT_FOUND");
    });

    it("delivers real dashboard events to the receiver, and removes it", async () => {
      const secretless = await data(await owner.call("/api/dashboard/webhooks"));
      const dashboardId = secretless.dashboard.id as number;
      await api.db.transaction((trx) =>
        enqueueEvent(trx, { brandId, type: "tag.assigned", payload: { event: "tag.assigned", uid: "HKB-1" }, dedupeKey: `tag.assigned:HKB-1:${Date.now()}` }),
      );
      await waitFor("the event", async () => (requestsTo("/dash").length > 0 ? true : undefined), 30_000, 50);
      expect(JSON.parse(requestsTo("/dash")[0]!.body)).to.include({ event: "tag.assigned" });
      expect((await owner.call("/api/dashboard/webhooks/dashboard", { method: "DELETE" })).status).to.equal(204);
      expect((await data(await owner.call("/api/dashboard/webhooks"))).dashboard).to.equal(null);
      expect(await api.db("app.webhook_endpoints").where({ id: dashboardId })).to.have.length(0);
    });
  });

  describe("API keys", () => {
    const v1 = (key: string, path = "/api/v1/usage") => fetch(`${api.url}${path}`, { headers: { Authorization: `Bearer ${key}`, "X-Service-Brand": "hooks-brand" } });

    it("creates a key shown once, lists keys without their values, records the last use", async () => {
      const created = await data(await owner.call("/api/dashboard/api-keys", { method: "POST", json: { label: "shop backend" } }), 201);
      expect(created.key).to.match(/^pr_live_/);
      expect(created.key.startsWith(created.prefix)).to.equal(true);
      expect(created).to.include({ label: "shop backend" });
      const listRes = await json(await admin.call("/api/dashboard/api-keys"));
      expect(JSON.stringify(listRes)).to.not.contain(created.key);
      const listed = listRes.data.find((k: { id: number }) => k.id === created.id);
      expect(listed).to.include({ prefix: created.prefix, label: "shop backend", status: "active", revoked_at: null, last_used_at: null });
      const ids = listRes.data.map((k: { id: number }) => k.id);
      expect(ids).to.deep.equal([...ids].sort((a: number, b: number) => b - a));

      expect((await v1(created.key)).status).to.equal(200);
      const used = (await data(await owner.call("/api/dashboard/api-keys"))).find((k: { id: number }) => k.id === created.id);
      expect(used.last_used_at).to.be.a("string");
      const entry = (await audit()).find((e) => e.action === "key.created")!;
      expect(entry.target).to.equal(`${created.prefix}…`);
      expect(JSON.stringify(await audit())).to.not.contain(created.key);
    });

    it("rotates with a grace period (both keys work), or at once (grace 0)", async () => {
      const first = await data(await owner.call("/api/dashboard/api-keys", { method: "POST" }), 201);
      const rotated = await data(await owner.call(`/api/dashboard/api-keys/${first.id}/rotate`, { method: "POST", json: { grace_seconds: 3600 } }), 201);
      expect(rotated.key).to.match(/^pr_live_/).and.to.not.equal(first.key);
      expect(rotated.old_key_id).to.equal(first.id);
      expect(new Date(rotated.old_key_expires_at).getTime() - Date.now()).to.be.within(3500_000, 3600_000);
      expect((await v1(first.key)).status).to.equal(200);
      expect((await v1(rotated.key)).status).to.equal(200);
      const listed = await data(await owner.call("/api/dashboard/api-keys"));
      expect(listed.find((k: { id: number }) => k.id === first.id).status).to.equal("expiring");

      const default24h = await data(await owner.call(`/api/dashboard/api-keys/${rotated.id}/rotate`, { method: "POST" }), 201);
      expect(new Date(default24h.old_key_expires_at).getTime() - Date.now()).to.be.within(86_300_000, 86_400_000);

      const now = await data(await owner.call(`/api/dashboard/api-keys/${default24h.id}/rotate`, { method: "POST", json: { grace_seconds: 0 } }), 201);
      await expectError(await v1(default24h.key), 401, "INVALID_KEY");
      expect((await v1(now.key)).status).to.equal(200);
      await expectError(await owner.call(`/api/dashboard/api-keys/${default24h.id}/rotate`, { method: "POST" }), 409, "CONFLICT");
      await expectError(await owner.call(`/api/dashboard/api-keys/${now.id}/rotate`, { method: "POST", json: { grace_seconds: 604_801 } }), 422, "VALIDATION_ERROR");
      await expectError(await owner.call(`/api/dashboard/api-keys/${now.id}/rotate`, { method: "POST", json: { grace_seconds: "soon" } }), 422, "VALIDATION_ERROR");
      expect((await audit()).filter((e) => e.action === "key.rotated")).to.have.length(3);
    });

    it("revokes a key at once; revoking again changes nothing", async () => {
      const created = await data(await owner.call("/api/dashboard/api-keys", { method: "POST", json: { label: "to revoke" } }), 201);
      expect((await v1(created.key)).status).to.equal(200);
      expect((await owner.call(`/api/dashboard/api-keys/${created.id}`, { method: "DELETE" })).status).to.equal(204);
      await expectError(await v1(created.key), 401, "INVALID_KEY");
      const listed = (await data(await owner.call("/api/dashboard/api-keys"))).find((k: { id: number }) => k.id === created.id);
      expect(listed.status).to.equal("revoked");
      const entries = (await audit()).filter((e) => e.action === "key.revoked").length;
      expect((await owner.call(`/api/dashboard/api-keys/${created.id}`, { method: "DELETE" })).status).to.equal(204);
      expect((await audit()).filter((e) => e.action === "key.revoked").length).to.equal(entries);
    });

    it("keeps keys to owners and admins, and each brand to its own", async () => {
      for (const client of [editor, viewer]) {
        await expectError(await client.call("/api/dashboard/api-keys"), 403, "FORBIDDEN");
        await expectError(await client.call("/api/dashboard/api-keys", { method: "POST" }), 403, "FORBIDDEN");
      }
      const mine = (await data(await owner.call("/api/dashboard/api-keys")))[0];
      await expectError(await stranger.call(`/api/dashboard/api-keys/${mine.id}`, { method: "DELETE" }), 404, "NOT_FOUND");
      await expectError(await stranger.call(`/api/dashboard/api-keys/${mine.id}/rotate`, { method: "POST" }), 404, "NOT_FOUND");
      const theirs = await data(await stranger.call("/api/dashboard/api-keys"));
      expect(theirs.map((k: { id: number }) => k.id)).to.not.include(mine.id);
      expect((await v1(brandKey)).status).to.equal(200);
      await expectError(await owner.call("/api/dashboard/api-keys", { method: "POST", json: { label: "x".repeat(61) } }), 422, "VALIDATION_ERROR");
      await expectError(await owner.call("/api/dashboard/api-keys", { method: "POST", json: { label: "ok", scope: "all" } }), 422, "VALIDATION_ERROR");
    });
  });

  describe("usage", () => {
    it("shows the plan, limits and this month's figures, the same as GET /api/v1/usage, to every role", async () => {
      const fromV1 = (await json(await fetch(`${api.url}/api/v1/usage`, { headers: { Authorization: `Bearer ${brandKey}`, "X-Service-Brand": "hooks-brand" } }))).data;
      const usage = await data(await viewer.call("/api/dashboard/usage"));
      expect(usage.plan).to.include({ name: "growth", tier: 2, price_usd_per_month: 199 });
      expect(usage.limits).to.include({ api_calls_per_month: 10_000, certs_per_month: 5_000, scans_per_month: 50_000 });
      expect(usage.period).to.equal(fromV1.period);
      // The dashboard's own requests are not API calls: the figures match the v1 answer, which counted itself.
      expect(usage.meters.api_calls).to.deep.equal({ used: fromV1.calls_this_month, limit: fromV1.plan_api_limit });
      expect(usage.meters.api_calls.used).to.be.greaterThan(5);
      expect(usage.meters.certs).to.deep.equal({ used: fromV1.certs_issued, limit: 5_000 });
      expect(usage.usage_pct).to.equal(fromV1.usage_pct);
      expect(usage.estimated_cost_usd).to.equal(fromV1.estimated_cost_usd);
      expect(usage.endpoints).to.deep.equal(fromV1.endpoint_breakdown);
      const strangers = await data(await stranger.call("/api/dashboard/usage"));
      expect(strangers.meters.api_calls.used).to.equal(0);
    });
  });
});
