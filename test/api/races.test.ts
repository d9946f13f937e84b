// Limits that parallel requests must not pass, against a real Postgres: the per-brand webhook cap, the login
// throttle (which must also not let a stranger lock an operator out), and operator logout revoking the session.
import { expect } from "chai";
import { hashPassword } from "../../api/src/auth/passwords";
import { ACCOUNT_POLICY, PAIR_POLICY, reserveAttempt, type AttemptKey } from "../../api/src/auth/throttle";
import { createBrand } from "../../api/src/brands/service";
import { RateLimitError } from "../../api/src/errors";
import { MAX_ENDPOINTS_PER_BRAND, setDashboardWebhook } from "../../api/src/webhooks/endpoints";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

describe("races and lockouts", () => {
  let api: InProcessApi;
  let counter = 0;

  before(async () => {
    // One trusted proxy: the client address is the X-Forwarded-For entry it appended, so a test can speak from any
    // address.
    api = await startInProcessApi({
      DATABASE_URL: await createTestDatabase("races"),
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      TRUSTED_PROXY_HOPS: "1",
    });
  });
  after(() => api?.close());

  async function newOperator(password: string) {
    counter += 1;
    const email = `operator-${counter}@races.test`;
    await api.db("app.operators").insert({ email, role: "operator", factory_id: 1001, password_hash: await hashPassword(password) });
    return email;
  }
  function login(email: string, password: string, from: string) {
    return fetch(`${api.url}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
      body: JSON.stringify({ email, password }),
    });
  }
  async function tokenFor(email: string, password: string, from: string) {
    const res = await login(email, password, from);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(200);
    return body.token as string;
  }
  const countOf = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

  describe("webhook endpoints of one brand", () => {
    it("lets exactly the cap through when 30 POST /api/v1/webhook/register race", async function () {
      this.timeout(60_000);
      const { brand, key } = await createBrand(api.db, { slug: "races-hooks", name: "Races Hooks", uidPrefix: "RCH", plan: "enterprise" });
      const headers = { Authorization: `Bearer ${key.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" };
      const attempts = Array.from({ length: MAX_ENDPOINTS_PER_BRAND + 10 }, (_, i) =>
        fetch(`${api.url}/api/v1/webhook/register`, {
          method: "POST",
          headers,
          body: JSON.stringify({ url: `http://127.0.0.1:9/hook-${i}`, events: ["cert.issued"] }),
        }).then(async (res) => ({ status: res.status, code: res.status === 201 ? undefined : (await json(res)).error.code })),
      );
      const results = await Promise.all(attempts);
      const statuses = results.map((r) => r.status);
      expect(countOf(statuses, 201), JSON.stringify(results)).to.equal(MAX_ENDPOINTS_PER_BRAND);
      expect(countOf(statuses, 409), JSON.stringify(results)).to.equal(10);
      expect(results.filter((r) => r.status === 409).every((r) => r.code === "CONFLICT")).to.equal(true);
      const stored = await api.db("app.webhook_endpoints").where({ brand_id: brand.id, kind: "v1" }).count<{ count: string }>("* as count").first();
      expect(Number(stored!.count)).to.equal(MAX_ENDPOINTS_PER_BRAND);
    });

    it("makes one dashboard receiver when first settings race", async () => {
      const { brand } = await createBrand(api.db, { slug: "races-dashboard", name: "Races Dashboard", uidPrefix: "RCD", plan: "enterprise" });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => setDashboardWebhook({ db: api.db, config: api.config }, brand.id, `http://127.0.0.1:9/dashboard-${i}`)),
      );
      expect(results.filter((r) => r.status === "rejected")).to.deep.equal([]);
      // Exactly one call made the receiver and was shown its secret; the others pointed it at their URL.
      const secrets = results.map((r) => (r.status === "fulfilled" ? r.value.signingSecret : undefined)).filter(Boolean);
      expect(secrets).to.have.length(1);
      expect(await api.db("app.webhook_endpoints").where({ brand_id: brand.id, kind: "dashboard" })).to.have.length(1);
    });
  });

  describe("POST /api/login", () => {
    it("verifies at most the limit of passwords when 50 wrong guesses race from one address", async function () {
      this.timeout(120_000);
      const email = await newOperator("the-right-password");
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => login(email, `wrong-guess-${i}`, "198.51.100.7").then((res) => res.status)),
      );
      // A 401 is a password that was verified and found wrong; a 429 was refused before any verification.
      expect(countOf(statuses, 401), statuses.join(",")).to.be.at.most(PAIR_POLICY.lockAfter);
      expect(countOf(statuses, 401) + countOf(statuses, 429), statuses.join(",")).to.equal(50);
      // The guesser's address stays locked, even with the right password.
      expect((await login(email, "the-right-password", "198.51.100.7")).status).to.equal(429);
    });

    it("does not let guesses from one address lock the operator out at another", async function () {
      this.timeout(120_000);
      const email = await newOperator("the-right-password");
      // Enough failures from the attacker's address to lock the account there (and, before, everywhere).
      for (let i = 0; i < PAIR_POLICY.lockAfter; i += 1) expect((await login(email, `guess-${i}`, "203.0.113.66")).status).to.equal(401);
      const locked = await login(email, "guess-again", "203.0.113.66");
      expect(locked.status).to.equal(429);
      expect(Number(locked.headers.get("retry-after"))).to.be.greaterThan(0);

      const res = await login(email, "the-right-password", "192.0.2.10");
      expect(res.status, JSON.stringify(await json(res.clone()))).to.equal(200);
      expect((await json(res)).token).to.match(/^prs_/);
    });
  });

  describe("the attempt throttle", () => {
    const policy = { windowSeconds: 900, slowAfter: 3, lockAfter: 5, lockSeconds: 900 };
    async function outcome(key: string, keyPolicy: AttemptKey["policy"] = policy) {
      try {
        await reserveAttempt(api.db, [{ key, policy: keyPolicy }]);
        return "allowed";
      } catch (error) {
        expect(error).to.be.instanceOf(RateLimitError);
        return "refused";
      }
    }

    it("locks at the limit and starts again once the lock and its window are over", async () => {
      const outcomes = [];
      for (let i = 0; i < 7; i += 1) outcomes.push(await outcome("test:lock"));
      expect(outcomes).to.deep.equal(["allowed", "allowed", "allowed", "allowed", "allowed", "refused", "refused"]);
      // Refused attempts do not count without end.
      const row = await api.db("app.auth_failures").where({ key: "test:lock" }).first();
      expect(row.failures).to.be.at.most(policy.lockAfter + 64);

      // A window that went stale under a live lock does not reset the count.
      await api.db("app.auth_failures").where({ key: "test:lock" }).update({ window_started_at: api.db.raw("now() - interval '1 hour'") });
      expect(await outcome("test:lock")).to.equal("refused");
      // The lock over too: the next attempt is the first of a new window.
      await api.db("app.auth_failures").where({ key: "test:lock" }).update({
        window_started_at: api.db.raw("now() - interval '1 hour'"),
        locked_until: api.db.raw("now() - interval '1 second'"),
      });
      expect(await outcome("test:lock")).to.equal("allowed");
      expect((await api.db("app.auth_failures").where({ key: "test:lock" }).first()).failures).to.equal(1);
    });

    it("never locks under a slowdown policy, and a success gives back the address's attempt", async () => {
      for (let i = 0; i < 100; i += 1) expect(await outcome("test:slow", ACCOUNT_POLICY)).to.equal("allowed");

      const email = await newOperator("pw-give-back");
      await login(email, "wrong", "192.0.2.30");
      await login(email, "pw-give-back", "192.0.2.30");
      const rows = await api.db("app.auth_failures").whereIn("key", [`login:ip:192.0.2.30`, `login:pair:192.0.2.30:${email}`, `login:email:${email}`]);
      // The failure stays counted against the address; the success cleared the account's counts.
      expect(rows.map((r) => [r.key, r.failures])).to.deep.equal([["login:ip:192.0.2.30", 1]]);
    });
  });

  describe("POST /api/logout", () => {
    // A token that works reaches validation (422 for an empty factory); a revoked one is refused first (401).
    async function tokenWorks(token: string) {
      const res = await fetch(`${api.url}/api/factories`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: "{}",
      });
      expect(res.status).to.be.oneOf([401, 422]);
      return res.status === 422;
    }
    function logout(token: string, body?: unknown) {
      return fetch(`${api.url}/api/logout`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    }

    it("revokes the session it is called with, and only that one", async function () {
      this.timeout(60_000);
      const email = await newOperator("pw-logout-1");
      const first = await tokenFor(email, "pw-logout-1", "192.0.2.20");
      const second = await tokenFor(email, "pw-logout-1", "192.0.2.20");
      expect(await tokenWorks(first)).to.equal(true);

      const res = await logout(first);
      expect(res.status).to.equal(204);
      expect(res.headers.get("cache-control")).to.equal("no-store");
      expect(await tokenWorks(first)).to.equal(false);
      expect(await tokenWorks(second)).to.equal(true);
      const again = await logout(first);
      expect(again.status).to.equal(401);
      expect((await json(again)).error.code).to.equal("UNAUTHORIZED");
    });

    it("revokes every session of the operator with {all: true}", async function () {
      this.timeout(60_000);
      const email = await newOperator("pw-logout-2");
      const other = await newOperator("pw-logout-3");
      const tokens = [await tokenFor(email, "pw-logout-2", "192.0.2.21"), await tokenFor(email, "pw-logout-2", "192.0.2.22")];
      const bystander = await tokenFor(other, "pw-logout-3", "192.0.2.21");

      expect((await logout(tokens[0]!, { all: true })).status).to.equal(204);
      for (const token of tokens) expect(await tokenWorks(token)).to.equal(false);
      expect(await tokenWorks(bystander)).to.equal(true);
    });

    it("refuses an unknown token, a bad body, and is in the OpenAPI document", async () => {
      expect((await logout("prs_forged")).status).to.equal(401);
      const email = await newOperator("pw-logout-4");
      const token = await tokenFor(email, "pw-logout-4", "192.0.2.23");
      expect((await logout(token, { all: "yes" })).status).to.equal(422);
      expect(await tokenWorks(token)).to.equal(true);

      const doc = await json(await fetch(`${api.url}/api/openapi.json`));
      expect(doc.paths["/api/logout"].post.security).to.deep.equal([{ bearer: [] }]);
      expect(doc.paths["/api/logout"].post.responses).to.include.keys(["204", "401"]);
    });
  });
});
