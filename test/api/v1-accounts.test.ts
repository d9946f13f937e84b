// Brand accounts on the v1 API against a real Postgres over HTTP: keys, authentication errors, the invalid-key
// throttle, hourly and monthly limits (exact under concurrency), the usage summary and GET /api/v1/brand.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { expect } from "chai";
import Koa from "koa";
import type { AppDeps, AppState } from "../../api/src/deps";
import { createBrand, revokeKey, rotateKey, setBrandStatus, setLimitOverrides, type NewBrand } from "../../api/src/brands/service";
import { createProvider } from "../../api/src/chain/provider";
import { MonthlyLimitError } from "../../api/src/errors";
import { createLogger } from "../../api/src/logger";
import { consumeQuota, meterCall, monthlyUsage, periodOf, refundQuota, secondsToNextHour, secondsToNextMonth } from "../../api/src/metering/service";
import { errorHandler } from "../../api/src/middleware/error-handler";
import { requestId } from "../../api/src/middleware/request-id";
import { effectiveLimits, PLANS } from "../../api/src/plans/catalogue";
import { OpenApiRegistry } from "../../api/src/openapi/registry";
import { defineRoute, mountRoutes } from "../../api/src/routes/define-route";
import { ok } from "../../api/src/routes/v1/router-base";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

describe("v1 brand accounts, keys, limits and usage", () => {
  let api: InProcessApi;
  /** The brand's usage in Postgres once this process has written what its call meter holds (as GET /usage does). */
  const usageOf = async (brandId: number) => {
    await api.callMeter.settle(brandId);
    return monthlyUsage(api.db, brandId);
  };
  let counter = 0;

  before(async () => {
    // No chain is needed: nothing here mints. Nothing listens on this RPC port.
    api = await startInProcessApi({ DATABASE_URL: await createTestDatabase("v1_accounts"), RPC_URL: `http://127.0.0.1:${await freePort()}` });
  });
  after(() => api?.close());

  /** A fresh brand per test, so counters never leak between tests. */
  async function newBrand(overrides: Partial<NewBrand> = {}) {
    counter += 1;
    const { brand, key } = await createBrand(api.db, {
      slug: `brand-${counter}`,
      name: `Brand ${counter}`,
      uidPrefix: `B${counter}X`,
      plan: "starter",
      ...overrides,
    });
    return { brand, key: key.key, keyId: key.id, slug: brand.slug };
  }

  function call(path: string, headers: Record<string, string>, init: RequestInit = {}) {
    return fetch(`${api.url}${path}`, { ...init, headers: { "Content-Type": "application/json", ...headers } });
  }
  const as = (b: { key: string; slug: string }) => ({ Authorization: `Bearer ${b.key}`, "X-Service-Brand": b.slug });

  async function expectError(res: Response, status: number, code: string) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(status);
    expect(body.success).to.equal(false);
    expect(body.error.code).to.equal(code);
    return body;
  }

  function expectUsageHeaders(res: Response, used: number, limit: number, remaining: number) {
    expect(res.headers.get("x-plan-api-used")).to.equal(String(used));
    expect(res.headers.get("x-plan-api-limit")).to.equal(String(limit));
    expect(res.headers.get("x-ratelimit-remaining")).to.equal(String(remaining));
  }

  describe("plans", () => {
    it("applies valid per-brand overrides on top of the plan and ignores invalid ones", () => {
      expect(effectiveLimits({ plan: "enterprise" })).to.deep.include({ apiCallsPerMonth: 10_000, certsPerMonth: 500, requestsPerHour: 1_000 });
      const limits = effectiveLimits({ plan: "growth", limit_overrides: { api_calls_per_month: 50_000, certs_per_month: null, requests_per_hour: -3, bogus: 1 } });
      expect(limits.apiCallsPerMonth).to.equal(50_000);
      expect(limits.certsPerMonth).to.equal(null);
      expect(limits.requestsPerHour).to.equal(PLANS.growth.limits.requestsPerHour);
      expect(effectiveLimits({ plan: "no-such-plan" })).to.deep.equal(PLANS.starter.limits);
    });

    it("computes UTC periods and the seconds to the next hour and month", () => {
      expect(periodOf(new Date("2024-12-31T23:59:59Z"))).to.equal("2024-12");
      expect(secondsToNextMonth(new Date("2024-12-31T23:59:30Z"))).to.equal(30);
      expect(secondsToNextMonth(new Date("2024-02-28T00:00:00Z"))).to.equal(2 * 86_400);
      expect(secondsToNextHour(new Date("2024-05-01T10:59:15.500Z"))).to.equal(45);
    });
  });

  describe("authentication", () => {
    it("answers GET /api/v1/brand for a valid key and slug, without key material", async () => {
      const b = await newBrand({ plan: "growth" });
      const res = await call("/api/v1/brand", as(b));
      const body = await json(res);
      expect(res.status).to.equal(200);
      expect(body.success).to.equal(true);
      expect(body.data).to.deep.include({ slug: b.slug, name: b.brand.name, uid_prefix: b.brand.uidPrefix, status: "active", plan: "growth", plan_tier: 2, custom_limits: false });
      expect(body.data.limits).to.deep.equal({
        api_calls_per_month: 10_000,
        requests_per_hour: 500,
        certs_per_month: 5_000,
        scans_per_month: 50_000,
        carbon_ratings_per_month: null,
        price_usd_per_month: 199,
      });
      expect(new Date(body.data.created_at).getTime()).to.be.closeTo(Date.now(), 60_000);
      expect(JSON.stringify(body)).to.not.include(b.key.slice(8, 20));
      expectUsageHeaders(res, 1, 10_000, 499);
    });

    it("answers 401 MISSING_KEY without an Authorization header (or with an empty bearer)", async () => {
      const b = await newBrand();
      const none = await expectError(await call("/api/v1/brand", { "X-Service-Brand": b.slug }), 401, "MISSING_KEY");
      expect(none.error.details).to.deep.equal([{ field: "Authorization", problem: "is required" }]);
      await expectError(await call("/api/v1/brand", { Authorization: "Bearer ", "X-Service-Brand": b.slug }), 401, "MISSING_KEY");
    });

    it("answers 401 MISSING_KEY naming X-Service-Brand for a valid key sent without it (or with a blank one), and counts it as no failure", async () => {
      const b = await newBrand();
      const cases: Array<Record<string, string>> = [{ Authorization: `Bearer ${b.key}` }, { Authorization: `Bearer ${b.key}`, "X-Service-Brand": "  " }];
      for (const headers of cases) {
        const body = await expectError(await call("/api/v1/brand", headers), 401, "MISSING_KEY");
        expect(body.error.message).to.include("X-Service-Brand");
        expect(body.error.message).to.not.equal("The API key is not valid for this brand.");
        expect(body.error.details).to.deep.equal([{ field: "X-Service-Brand", problem: "is required" }]);
      }
      // A missing header is a client's configuration, not a guess: the invalid-key throttle does not count it.
      const failures = await api.db("app.auth_failures").where("key", "like", "apikey:ip:%").sum<Array<{ n: string | null }>>({ n: "failures" });
      const before = Number(failures[0]?.n ?? 0);
      await call("/api/v1/brand", { Authorization: `Bearer ${b.key}` });
      const after = await api.db("app.auth_failures").where("key", "like", "apikey:ip:%").sum<Array<{ n: string | null }>>({ n: "failures" });
      expect(Number(after[0]?.n ?? 0)).to.equal(before);
      expect((await usageOf(b.brand.id)).callsThisMonth).to.equal(0);
    });

    it("answers 401 INVALID_KEY saying so for an Authorization header that is not 'Bearer <key>'", async () => {
      const b = await newBrand();
      for (const authorization of [b.key, `Basic ${b.key}`, `Bearer${b.key}`, `Token ${b.key}`]) {
        const body = await expectError(await call("/api/v1/brand", { Authorization: authorization, "X-Service-Brand": b.slug }), 401, "INVALID_KEY");
        expect(body.error.message, authorization.slice(0, 12)).to.include("Bearer <key>");
        expect(body.error.details).to.deep.equal([{ field: "Authorization", problem: "must be 'Bearer <key>'" }]);
      }
      // A wrong key in the right form keeps the one answer that tells nothing about other brands.
      const wrong = await expectError(await call("/api/v1/brand", { ...as(b), Authorization: `Bearer ${b.key}x` }), 401, "INVALID_KEY");
      expect(wrong.error.message).to.equal("The API key is not valid for this brand.");
      expect(wrong.error.details).to.equal(undefined);
    });

    it("answers 401 INVALID_KEY for a wrong key, another scheme and another brand's key, and counts none of them", async () => {
      const a = await newBrand();
      const b = await newBrand();
      await expectError(await call("/api/v1/brand", { ...as(a), Authorization: `Bearer ${a.key}x` }), 401, "INVALID_KEY");
      await expectError(await call("/api/v1/brand", { Authorization: `Basic ${a.key}`, "X-Service-Brand": a.slug }), 401, "INVALID_KEY");
      const crossed = await call("/api/v1/brand", { Authorization: `Bearer ${a.key}`, "X-Service-Brand": b.slug });
      await expectError(crossed, 401, "INVALID_KEY");
      expect(crossed.headers.get("x-plan-api-used")).to.equal(null);
      expect((await usageOf(a.brand.id)).callsThisMonth).to.equal(0);
      expect((await usageOf(b.brand.id)).callsThisMonth).to.equal(0);
    });

    it("answers 403 BRAND_INACTIVE while the brand is suspended, and serves it again once reactivated", async () => {
      const b = await newBrand();
      await setBrandStatus(api.db, b.slug, "suspended");
      await expectError(await call("/api/v1/usage", as(b)), 403, "BRAND_INACTIVE");
      await setBrandStatus(api.db, b.slug, "active");
      const res = await call("/api/v1/usage", as(b));
      expect(res.status).to.equal(200);
      // The refused request was not a call.
      expect((await json(res)).data.calls_this_month).to.equal(1);
    });

    it("refuses a revoked key", async () => {
      const b = await newBrand();
      expect((await call("/api/v1/brand", as(b))).status).to.equal(200);
      await revokeKey(api.db, b.slug, String(b.keyId));
      await expectError(await call("/api/v1/brand", as(b)), 401, "INVALID_KEY");
    });

    it("rotates a key: the new key works at once, the old one stops (at once, or after the grace period)", async () => {
      const b = await newBrand();
      const rotated = await rotateKey(api.db, b.slug, b.key.slice(0, 14));
      expect(rotated.key.key).to.not.equal(b.key);
      await expectError(await call("/api/v1/brand", as(b)), 401, "INVALID_KEY");
      expect((await call("/api/v1/brand", as({ key: rotated.key.key, slug: b.slug }))).status).to.equal(200);

      const graced = await rotateKey(api.db, b.slug, String(rotated.key.id), { graceSeconds: 3600 });
      expect(graced.revoked.revokedAt!.getTime()).to.be.greaterThan(Date.now() + 3500_000);
      expect((await call("/api/v1/brand", as({ key: rotated.key.key, slug: b.slug }))).status).to.equal(200);
      expect((await call("/api/v1/brand", as({ key: graced.key.key, slug: b.slug }))).status).to.equal(200);
      // Revoking during the grace period ends it.
      await revokeKey(api.db, b.slug, String(rotated.key.id));
      await expectError(await call("/api/v1/brand", as({ key: rotated.key.key, slug: b.slug })), 401, "INVALID_KEY");
    });

    it("stores only the key's hash and prefix", async () => {
      const b = await newBrand();
      const row = await api.db("app.api_keys").where({ id: b.keyId }).first();
      expect(row.key_prefix).to.equal(b.key.slice(0, 14));
      expect(Buffer.from(row.key_hash).length).to.equal(32);
      expect(JSON.stringify(row)).to.not.include(b.key.slice(14));
    });
  });

  describe("limits", () => {
    it("admits exactly the monthly limit of 20 concurrent requests, refusing the rest with MONTHLY_LIMIT_REACHED", async () => {
      const b = await newBrand({ limitOverrides: { api_calls_per_month: 5 } });
      const responses = await Promise.all(Array.from({ length: 20 }, () => call("/api/v1/brand", as(b))));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).to.have.length(5);
      expect(statuses.filter((s) => s === 429)).to.have.length(15);
      const refused = responses.find((r) => r.status === 429)!;
      await expectError(refused, 429, "MONTHLY_LIMIT_REACHED");
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).to.be.closeTo(secondsToNextMonth(new Date()), 30);
      expectUsageHeaders(refused, 5, 5, PLANS.starter.limits.requestsPerHour - 5);
      expect((await usageOf(b.brand.id)).callsThisMonth).to.equal(5);
    });

    it("refuses past the hourly limit with RATE_LIMIT, Retry-After to the next hour and the three headers", async () => {
      const b = await newBrand({ limitOverrides: { requests_per_hour: 3 } });
      const admitted: Response[] = [];
      for (let i = 0; i < 3; i += 1) admitted.push(await call("/api/v1/brand", as(b)));
      expect(admitted.map((r) => r.status)).to.deep.equal([200, 200, 200]);
      expect(admitted.map((r) => r.headers.get("x-ratelimit-remaining"))).to.deep.equal(["2", "1", "0"]);
      const refused = await call("/api/v1/usage", as(b));
      await expectError(refused, 429, "RATE_LIMIT");
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).to.be.within(1, 3600);
      expect(retryAfter).to.be.closeTo(secondsToNextHour(new Date()), 30);
      expectUsageHeaders(refused, 3, 1_000, 0);
    });

    it("admits exactly the hourly limit of 20 concurrent requests, and the refused ones cost no monthly call", async () => {
      const b = await newBrand({ limitOverrides: { requests_per_hour: 5 } });
      const responses = await Promise.all(Array.from({ length: 20 }, () => call("/api/v1/brand", as(b))));
      expect(responses.filter((r) => r.status === 200)).to.have.length(5);
      const refused = responses.filter((r) => r.status === 429);
      expect(refused).to.have.length(15);
      for (const r of refused) expect((await json(r)).error.code).to.equal("RATE_LIMIT");
      const usage = await usageOf(b.brand.id);
      expect(usage.callsThisMonth).to.equal(5);
      expect(usage.endpointBreakdown).to.deep.equal([{ endpoint: "GET /api/v1/brand", calls: 5 }]);
    });

    it("keeps limits exact while calls are leased in growing blocks under a burst", async () => {
      const b = await newBrand({ limitOverrides: { api_calls_per_month: 37 } });
      // Back-to-back calls make the leases grow (1, 2, 4, …); a grant never exceeds what the limit leaves.
      const statuses: number[] = [];
      for (let i = 0; i < 60; i += 1) statuses.push((await call("/api/v1/brand", as(b))).status);
      expect(statuses.filter((s) => s === 200)).to.have.length(37);
      expect(statuses.slice(37).every((s) => s === 429)).to.equal(true);
      const usage = await usageOf(b.brand.id);
      expect(usage.callsThisMonth).to.equal(37);
      expect(usage.endpointBreakdown).to.deep.equal([{ endpoint: "GET /api/v1/brand", calls: 37 }]);
    });

    it("gives unused leased calls back, so the database counts only calls made", async () => {
      const b = await newBrand();
      for (let i = 0; i < 10; i += 1) expect((await call("/api/v1/brand", as(b))).status).to.equal(200);
      const row = () => api.db("app.usage_monthly").where({ brand_id: b.brand.id, meter: "api_calls" }).first<{ count: number }>("count");
      // A burst leases ahead of use; after settling, what was not used is back.
      await api.callMeter.settle(b.brand.id);
      expect((await row())!.count).to.equal(10);
    });

    it("gives unused leased calls back by itself once the brand has been idle for a second", async () => {
      const b = await newBrand();
      const row = () => api.db("app.usage_monthly").where({ brand_id: b.brand.id, meter: "api_calls" }).first<{ count: number }>("count");
      // Calls less than 100 ms apart grow the lease until the database counts calls not made yet.
      let made = 0;
      do {
        expect((await call("/api/v1/brand", as(b))).status).to.equal(200);
        made += 1;
      } while (made < 100 && (await row())!.count <= made);
      expect((await row())!.count, "leased ahead of use").to.be.greaterThan(made);
      await waitFor("the unused calls to come back", async () => ((await row())!.count === made ? true : undefined), 10_000, 50);
    });

    it("reports the monthly quota before the hourly limit when both are exhausted", async () => {
      const b = await newBrand({ limitOverrides: { requests_per_hour: 1, api_calls_per_month: 1 } });
      expect((await call("/api/v1/brand", as(b))).status).to.equal(200);
      await expectError(await call("/api/v1/brand", as(b)), 429, "MONTHLY_LIMIT_REACHED");
    });

    it("consumeQuota counts exactly the limit under concurrency, then throws MonthlyLimitError; refunds give units back", async () => {
      const b = await newBrand({ limitOverrides: { certs_per_month: 5 } });
      const limits = effectiveLimits({ plan: "starter", limit_overrides: { certs_per_month: 5 } });
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => consumeQuota(api.db, b.brand.id, "certs", limits)));
      expect(results.filter((r) => r.status === "fulfilled")).to.have.length(5);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(rejected).to.have.length(15);
      for (const r of rejected) {
        expect(r.reason).to.be.instanceOf(MonthlyLimitError);
        expect(r.reason.code).to.equal("MONTHLY_LIMIT_REACHED");
        expect(Number(r.reason.headers["Retry-After"])).to.be.greaterThan(0);
      }
      await refundQuota(api.db, b.brand.id, "certs", periodOf(new Date()));
      expect((await consumeQuota(api.db, b.brand.id, "certs", limits)).used).to.equal(5);
      // A refund goes to the month the unit was counted in, even once the next month has begun.
      const lastMonth = new Date(Date.UTC(2026, 0, 31, 23, 59, 59));
      const counted = await consumeQuota(api.db, b.brand.id, "certs", limits, lastMonth);
      expect(counted).to.include({ used: 1, period: "2026-01" });
      await refundQuota(api.db, b.brand.id, "certs", counted.period);
      expect((await monthlyUsage(api.db, b.brand.id, "2026-01")).certsIssued).to.equal(0);
      expect((await monthlyUsage(api.db, b.brand.id)).certsIssued).to.equal(5);
      // Unlimited meters count without refusing.
      expect((await consumeQuota(api.db, b.brand.id, "carbon_ratings", limits)).limit).to.equal(null);
    });

    it("counts a quota unit inside a transaction only if the transaction commits", async () => {
      const b = await newBrand();
      const limits = effectiveLimits({ plan: "starter" });
      await api.db
        .transaction(async (trx) => {
          await consumeQuota(trx, b.brand.id, "certs", limits);
          throw new Error("mint failed");
        })
        .catch(() => undefined);
      expect((await usageOf(b.brand.id)).certsIssued).to.equal(0);
    });

    it("keeps months apart", async () => {
      const b = await newBrand();
      const limits = effectiveLimits({ plan: "starter" });
      await meterCall(api.db, b.brand.id, limits, "GET /api/v1/brand", new Date("2020-01-31T23:59:59Z"));
      await meterCall(api.db, b.brand.id, limits, "GET /api/v1/brand", new Date("2020-02-01T00:00:00Z"));
      expect((await monthlyUsage(api.db, b.brand.id, "2020-01")).callsThisMonth).to.equal(1);
      expect((await monthlyUsage(api.db, b.brand.id, "2020-02")).callsThisMonth).to.equal(1);
      expect((await usageOf(b.brand.id)).callsThisMonth).to.equal(0);
    });
  });

  describe("a v1 route with validation (the chain every apiKey route declaration gets)", () => {
    let server: Server;
    let url: string;

    before(async () => {
      const deps: AppDeps = { ...api.deps, provider: createProvider(api.config.rpcUrl, api.config.chainId), logger: createLogger("silent") };
      const app = new Koa<AppState>();
      app.use(requestId());
      app.use(errorHandler(deps.logger));
      const router = mountRoutes(deps, new OpenApiRegistry(), [
        defineRoute({
          method: "post",
          path: "/api/v1/echo",
          operationId: "echo",
          tag: "test",
          summary: "echoes its body",
          auth: "apiKey",
          body: { type: "object", additionalProperties: false, required: ["sku"], properties: { sku: { type: "string", maxLength: 20 } } },
          responses: {},
          handler: (ctx) => ok(ctx, ctx.state.input, 201, { api_version: "1.0" }),
        }),
      ]);
      app.use(router.routes());
      app.silent = true;
      server = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => {
      server?.closeAllConnections();
      server?.close();
    });

    it("wraps success in the envelope and counts a 422 as a call, with the headers on the error", async () => {
      const b = await newBrand();
      const good = await fetch(`${url}/api/v1/echo`, { method: "POST", headers: { ...as(b), "Content-Type": "application/json" }, body: JSON.stringify({ sku: "A-1" }) });
      expect(good.status).to.equal(201);
      expect(await json(good)).to.deep.equal({ success: true, data: { sku: "A-1" }, meta: { api_version: "1.0" } });
      const bad = await fetch(`${url}/api/v1/echo`, { method: "POST", headers: { ...as(b), "Content-Type": "application/json" }, body: JSON.stringify({ sku: 5 }) });
      await expectError(bad, 422, "VALIDATION_ERROR");
      expectUsageHeaders(bad, 2, 1_000, 98);
      const unauthenticated = await fetch(`${url}/api/v1/echo`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      await expectError(unauthenticated, 401, "MISSING_KEY");
      // Authentication comes before the body is read: without a key, no body problem is reported.
      for (const [contentType, body] of [["application/json", "{not json"], ["text/plain", "sku=A-1"], ["application/json", "x".repeat(70_000)]]) {
        await expectError(await fetch(`${url}/api/v1/echo`, { method: "POST", headers: { "Content-Type": contentType! }, body }), 401, "MISSING_KEY");
      }
      // With a key, a body that is not JSON is a metered call answered 415, with the usage headers.
      const wrongType = await fetch(`${url}/api/v1/echo`, { method: "POST", headers: { ...as(b), "Content-Type": "text/plain" }, body: "sku=A-1" });
      await expectError(wrongType, 415, "UNSUPPORTED_MEDIA_TYPE");
      expectUsageHeaders(wrongType, 3, 1_000, 97);
      const usage = await usageOf(b.brand.id);
      expect(usage.endpointBreakdown).to.deep.equal([{ endpoint: "POST /api/v1/echo", calls: 3 }]);
    });
  });

  describe("GET /api/v1/usage", () => {
    it("reports this month's calls (this one included), quotas, plan, cost and calls per endpoint", async () => {
      const b = await newBrand();
      const limits = effectiveLimits({ plan: "starter" });
      await call("/api/v1/brand", as(b));
      await call("/api/v1/brand", as(b));
      await call("/api/v1/usage", as(b));
      await consumeQuota(api.db, b.brand.id, "certs", limits);
      await consumeQuota(api.db, b.brand.id, "certs", limits);
      await consumeQuota(api.db, b.brand.id, "carbon_ratings", limits);
      const res = await call("/api/v1/usage", as(b));
      expect(res.status).to.equal(200);
      const body = await json(res);
      expect(body.success).to.equal(true);
      expect(body.data).to.deep.equal({
        period: new Date().toISOString().slice(0, 7),
        calls_this_month: 4,
        plan_api_limit: 1_000,
        usage_pct: 0.4,
        certs_issued: 2,
        carbon_ratings: 1,
        monthly_plan: "starter",
        estimated_cost_usd: 49,
        endpoint_breakdown: [
          { endpoint: "GET /api/v1/brand", calls: 2 },
          { endpoint: "GET /api/v1/usage", calls: 2 },
        ],
      });
      expectUsageHeaders(res, 4, 1_000, 96);
      expect(res.headers.get("x-plan-certs-used")).to.equal("2");
      expect(res.headers.get("x-plan-carbon-ratings-used")).to.equal("1");
      expect(res.headers.get("x-usage-period")).to.equal(body.data.period);
    });

    it("meters a call to another v1 router once, under its route pattern, even when it answers 404", async () => {
      const b = await newBrand();
      const missing = await call(`/api/v1/products/${b.brand.uidPrefix}-ZZZZZZZZ`, as(b));
      await expectError(missing, 404, "NOT_FOUND");
      expectUsageHeaders(missing, 1, 1_000, 99);
      expect((await usageOf(b.brand.id)).endpointBreakdown).to.deep.equal([{ endpoint: "GET /api/v1/products/:uid", calls: 1 }]);
    });

    it("shows a brand only its own usage", async () => {
      const a = await newBrand();
      const b = await newBrand({ plan: "enterprise" });
      for (let i = 0; i < 3; i += 1) await call("/api/v1/brand", as(a));
      const res = await call("/api/v1/usage", as(b));
      const body = await json(res);
      expect(body.data.calls_this_month).to.equal(1);
      expect(body.data.endpoint_breakdown).to.deep.equal([{ endpoint: "GET /api/v1/usage", calls: 1 }]);
      expect(body.data).to.include({ monthly_plan: "enterprise", plan_api_limit: 10_000, estimated_cost_usd: 0 });
      // The enterprise price agreed in a custom SLA is what the month costs.
      await setLimitOverrides(api.db, b.slug, { price_usd_per_month: 1500 });
      expect((await json(await call("/api/v1/usage", as(b)))).data.estimated_cost_usd).to.equal(1500);
      // B's key cannot be pointed at A.
      await expectError(await call("/api/v1/usage", { Authorization: `Bearer ${b.key}`, "X-Service-Brand": a.slug }), 401, "INVALID_KEY");
      expect((await usageOf(a.brand.id)).callsThisMonth).to.equal(3);
    });
  });

  it("documents both routes in OpenAPI with the apiKey scheme and their errors", async () => {
    const doc = await json(await fetch(`${api.url}/api/openapi.json`));
    for (const path of ["/api/v1/brand", "/api/v1/usage"]) {
      const op = doc.paths[path].get;
      expect(op.security).to.deep.equal([{ apiKey: [] }]);
      expect(op.responses).to.include.keys(["200", "401", "403", "429"]);
      expect(op.responses["200"].content["application/json"].example.success).to.equal(true);
    }
  });

  // Last: it locks this client address, then clears the lock for anything that runs after.
  describe("the invalid-key throttle", () => {
    after(() => api.db("app.auth_failures").del());

    it("refuses further invalid keys from a client address with 429 RATE_LIMIT after 50, but not its valid keys", async function () {
      this.timeout(60_000);
      const b = await newBrand();
      await api.db("app.auth_failures").del();
      // Concurrent, so the growing delays of the slowed answers overlap instead of adding up.
      const wrong = await Promise.all(Array.from({ length: 50 }, (_, i) => call("/api/v1/brand", { ...as(b), Authorization: `Bearer pr_live_wrong${i}` })));
      expect(wrong.map((r) => r.status).every((s) => s === 401)).to.equal(true);
      const locked = await call("/api/v1/brand", { ...as(b), Authorization: "Bearer pr_live_wrong-again" });
      await expectError(locked, 429, "RATE_LIMIT");
      expect(Number(locked.headers.get("retry-after"))).to.be.within(1, 600);
      // A scanner behind the same address (a shared NAT) must not lock a working integration out.
      expect((await call("/api/v1/brand", as(b))).status).to.equal(200);
      await api.db("app.auth_failures").del();
      expect((await call("/api/v1/brand", { ...as(b), Authorization: "Bearer pr_live_wrong-again" })).status).to.equal(401);
    });
  });
});
