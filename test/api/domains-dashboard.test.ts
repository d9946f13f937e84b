// The dashboard's Domain screen API over HTTP against a real Postgres and a real DNS server (dns2 on 127.0.0.1, the
// API's DNS_RESOLVERS): the subdomain every brand has, the custom domain gated by plan, hostnames refused with the
// reason, one domain per brand, a verified hostname held by its brand (DOMAIN_TAKEN without naming it), Check now with each step's result and its
// rate limit, verification, removal, roles and the audit log.
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { startDnsServer, type TestDnsServer } from "../support/dns-server";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const TARGET = "edge.passports.test";

describe("dashboard custom domain", () => {
  let api: InProcessApi;
  let dns: TestDnsServer;
  let owner: DashboardClient;
  let viewer: DashboardClient;
  let rivalOwner: DashboardClient;
  let starterOwner: DashboardClient;
  const brand = { id: 0, slug: "domain-brand" };
  const rival = { id: 0, slug: "rival-brand" };

  before(async function () {
    this.timeout(60_000);
    dns = await startDnsServer({});
    api = await startInProcessApi({
      DATABASE_URL: await createTestDatabase("domains_dashboard"),
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      DNS_RESOLVERS: dns.address,
      DNS_TIMEOUT_MS: "500",
      DOMAIN_CNAME_TARGET: TARGET,
    });
    brand.id = (await createBrand(api.db, { slug: brand.slug, name: "Domain Brand", uidPrefix: "DOMB", plan: "growth" })).brand.id;
    rival.id = (await createBrand(api.db, { slug: rival.slug, name: "Rival Brand", uidPrefix: "RIVB", plan: "enterprise" })).brand.id;
    const starter = await createBrand(api.db, { slug: "starter-brand", name: "Starter Brand", uidPrefix: "STRB", plan: "starter" });
    owner = await dashboardClient(api.url, api.db, brand.id, "owner");
    viewer = await dashboardClient(api.url, api.db, brand.id, "viewer");
    rivalOwner = await dashboardClient(api.url, api.db, rival.id, "owner");
    starterOwner = await dashboardClient(api.url, api.db, starter.brand.id, "owner");
  });
  after(async () => {
    await api?.close();
    await dns?.close();
  });

  async function expectError(res: Response, status: number, code: string) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(status);
    expect(body.error.code).to.equal(code);
    return body.error as { message: string; details?: Array<{ field: string; problem: string }> };
  }
  const add = (client: DashboardClient, hostname: string) => client.call("/api/dashboard/domain/custom", { method: "POST", json: { hostname } });
  const check = (client = owner) => client.call("/api/dashboard/domain/custom/check", { method: "POST" });
  const overview = async (client = owner) => {
    const res = await client.call("/api/dashboard/domain");
    expect(res.status).to.equal(200);
    return (await json(res)).data;
  };
  const audit = async (brandId: number) =>
    (await api.db("app.audit_log").where({ brand_id: brandId }).orderBy("id").select("action", "actor", "target", "details")) as Array<{ action: string; actor: string; target: string | null; details: Record<string, unknown> }>;
  /** "Check now" is allowed again at once (it is limited to one per 30 s). */
  const allowCheckNow = (brandId: number) => api.db("app.custom_domains").where({ brand_id: brandId }).update({ manual_check_at: null });

  it("shows every brand its subdomain; Starter sees the custom domain as not in its plan and is refused one (403 PLAN_FEATURE)", async () => {
    const data = await overview(starterOwner);
    expect(data.subdomain).to.deep.equal({ host: "starter-brand.localhost", url: `${new URL(api.url).protocol}//starter-brand.localhost:${new URL(api.url).port}` });
    expect(data).to.include({ plan: "starter", custom_domain_allowed: false, custom_domain: null });
    const error = await expectError(await add(starterOwner, "shop.starter.test"), 403, "PLAN_FEATURE");
    expect(error.message).to.match(/Growth/);
    expect(Number((await api.db("app.custom_domains").count("* as n").first())!.n)).to.equal(0);
  });

  it("refuses hostnames that cannot be a shop's, naming the problem (422, field hostname)", async () => {
    const cases: Array<[string, RegExp]> = [
      ["https://shop.example.com/", /hostname such as/],
      ["203.0.113.7", /hostname such as/],
      ["shop_1.example.com", /hostname such as/],
      ["localshop", /full hostname/],
      ["shop.domain-brand.localhost", /must not be under localhost/],
      ["127.0.0.1", /hostname such as/],
      ["printer.local", /public DNS/],
      [`${Array(4).fill("a".repeat(62)).join(".")}.test`, /at most 253/],
    ];
    for (const [hostname, problem] of cases) {
      const error = await expectError(await add(owner, hostname), 422, "VALIDATION_ERROR");
      expect(error.details, hostname).to.have.length(1);
      expect(error.details![0]!.field).to.equal("hostname");
      expect(error.details![0]!.problem, hostname).to.match(problem);
    }
    await expectError(await add(owner, ""), 422, "VALIDATION_ERROR");
    expect((await overview()).custom_domain).to.equal(null);
  });

  it("adds the domain (lower-cased, trailing dot dropped) with the CNAME and TXT records to create; audited", async () => {
    const res = await add(owner, "Shop.Alpha-Store.TEST.");
    expect(res.status, await res.clone().text()).to.equal(201);
    const domain = (await json(res)).data.custom_domain;
    expect(domain).to.include({ hostname: "shop.alpha-store.test", status: "pending", verified_at: null, failure_reason: null });
    expect(domain.records[0]).to.deep.equal({ type: "CNAME", name: "shop.alpha-store.test", value: TARGET });
    expect(domain.records[1]).to.include({ type: "TXT", name: "_passport-verify.shop.alpha-store.test" });
    expect(domain.records[1].value).to.match(/^[0-9a-f]{32}$/);
    expect(domain.steps.cname).to.deep.equal({ status: "not_checked", checked_at: null, detail: null });
    expect(new Date(domain.window_ends_at).getTime() - new Date(domain.created_at).getTime()).to.equal(24 * 3_600_000);
    // The viewer reads the same; only branding.write may change it.
    expect((await overview(viewer)).custom_domain.records).to.deep.equal(domain.records);
    await expectError(await add(viewer, "other.alpha-store.test"), 403, "FORBIDDEN");
    await expectError(await check(viewer), 403, "FORBIDDEN");
    await expectError(await viewer.call("/api/dashboard/domain/custom", { method: "DELETE" }), 403, "FORBIDDEN");
    expect((await audit(brand.id)).filter((e) => e.action.startsWith("domain."))).to.deep.equal([
      { action: "domain.added", actor: owner.email, target: "shop.alpha-store.test", details: {} },
    ]);
  });

  it("gives a brand one domain (409 CONFLICT)", async () => {
    await expectError(await add(owner, "another.alpha-store.test"), 409, "CONFLICT");
  });

  it("checks now: each step's result in words, then refuses another check for 30 s (429 RATE_LIMIT)", async () => {
    const token = (await overview()).custom_domain.records[1].value as string;
    dns.zone["shop.alpha-store.test"] = [{ type: "CNAME", target: "somewhere-else.test" }];
    dns.zone["_passport-verify.shop.alpha-store.test"] = [{ type: "TXT", strings: ["not-the-token"] }];
    const res = await check();
    expect(res.status, await res.clone().text()).to.equal(200);
    const domain = (await json(res)).data.custom_domain;
    expect(domain.status).to.equal("pending");
    expect(domain.steps.cname.status).to.equal("failed");
    expect(domain.steps.cname.detail).to.equal(`shop.alpha-store.test points to somewhere-else.test, not to ${TARGET}.`);
    expect(domain.steps.txt.status).to.equal("failed");
    expect(domain.steps.txt.detail).to.include("is not the token").and.to.include(token);
    expect(Date.now() - new Date(domain.steps.txt.checked_at).getTime()).to.be.below(10_000);
    // The next automatic check comes after the back-off (a minute after a first check).
    expect(new Date(domain.next_check_at).getTime() - new Date(domain.steps.txt.checked_at).getTime()).to.be.within(59_000, 61_000);
    const again = await check();
    await expectError(again.clone(), 429, "RATE_LIMIT");
    expect(Number(again.headers.get("retry-after"))).to.be.within(1, 30);
  });

  it("verifies once both records are right; audited as the checker's; a verified domain has nothing to check (409)", async () => {
    const token = (await overview()).custom_domain.records[1].value as string;
    dns.zone["shop.alpha-store.test"] = [{ type: "CNAME", target: `${TARGET.toUpperCase()}.` }];
    dns.zone["_passport-verify.shop.alpha-store.test"] = [{ type: "TXT", strings: ["v=spf1 -all"] }, { type: "TXT", strings: [token.slice(0, 10), token.slice(10)] }];
    await allowCheckNow(brand.id);
    const domain = (await json(await check())).data.custom_domain;
    expect(domain.status).to.equal("verified");
    expect(domain.steps.cname).to.include({ status: "passed", detail: `shop.alpha-store.test is a CNAME of ${TARGET}.` });
    expect(domain.steps.txt.status).to.equal("passed");
    expect(domain.next_check_at).to.equal(null);
    expect(domain.verified_at).to.be.a("string");
    const verified = (await audit(brand.id)).find((e) => e.action === "domain.verified");
    expect(verified).to.include({ actor: "domain checker", target: "shop.alpha-store.test" });
    await allowCheckNow(brand.id);
    await expectError(await check(), 409, "CONFLICT");
    // Verified, the hostname is the brand's alone (a claim only pending elsewhere holds nothing: domains-claims.test.ts).
    const taken = await expectError(await add(rivalOwner, "SHOP.alpha-store.test"), 409, "DOMAIN_TAKEN");
    expect(taken.message).to.include("shop.alpha-store.test").and.not.to.include("domain-brand").and.not.to.include("Domain Brand");
    expect((await overview(rivalOwner)).custom_domain).to.equal(null);
  });

  it("removes the domain (audited); the hostname is then free for another brand; nothing left to check or remove (404)", async () => {
    const oldToken = (await overview()).custom_domain.records[1].value as string;
    const res = await owner.call("/api/dashboard/domain/custom", { method: "DELETE" });
    expect(res.status).to.equal(200);
    expect((await json(res)).data.custom_domain).to.equal(null);
    expect((await audit(brand.id)).pop()).to.deep.include({ action: "domain.removed", actor: owner.email, target: "shop.alpha-store.test", details: { status: "verified" } });
    await expectError(await check(), 404, "NOT_FOUND");
    await expectError(await owner.call("/api/dashboard/domain/custom", { method: "DELETE" }), 404, "NOT_FOUND");
    const claimed = await add(rivalOwner, "shop.alpha-store.test");
    expect(claimed.status, await claimed.clone().text()).to.equal(201);
    // A new token: publishing the old brand's record proves nothing about the new one.
    expect((await json(claimed)).data.custom_domain.records[1].value).not.to.equal(oldToken);
  });

  it("gives a failed domain a new window when checked by hand", async () => {
    await api.db("app.custom_domains").where({ brand_id: rival.id, status: "pending" }).update({ status: "failed", failed_at: api.db.fn.now(), failure_reason: "Not verified within 24 hours.", next_check_at: null, window_started_at: api.db.raw("now() - interval '25 hours'") });
    expect((await overview(rivalOwner)).custom_domain.status).to.equal("failed");
    delete dns.zone["shop.alpha-store.test"];
    const domain = (await json(await check(rivalOwner))).data.custom_domain;
    expect(domain.status).to.equal("pending");
    expect(domain.failure_reason).to.equal(null);
    expect(domain.steps.cname.detail).to.equal("shop.alpha-store.test does not exist in DNS (NXDOMAIN).");
    expect(new Date(domain.window_ends_at).getTime() - Date.now()).to.be.within(23.9 * 3_600_000, 24 * 3_600_000);
  });
});
