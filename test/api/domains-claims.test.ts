// Who holds a custom domain (issue 24, hardening), over the dashboard API against a real Postgres and a real DNS server
// (dns2 on 127.0.0.1): a brand that claims a hostname it does not control holds nothing against the real owner, who
// claims it too and, once its records are verified, is served there while the other claim is released with the
// reason; an unverified claim expires at the end of its window; of two brands proving control at once, one holds it.
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { DomainChecker } from "../../api/src/domains/checker";
import { createLogger } from "../../api/src/logger";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { dashboardClient, type DashboardClient } from "../support/dashboard";
import { startDnsServer, type TestDnsServer } from "../support/dns-server";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const TARGET = "edge.passports.test";

describe("custom domains: a hostname is held only by the brand that proved it (dns2, Postgres)", () => {
  let api: InProcessApi;
  let dns: TestDnsServer;
  const brands: Record<"owner" | "squatter" | "third", { id: number; client: DashboardClient }> = {} as never;

  before(async function () {
    this.timeout(60_000);
    dns = await startDnsServer({});
    api = await startInProcessApi({
      DATABASE_URL: await createTestDatabase("domains_claims"),
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      DNS_RESOLVERS: dns.address,
      DNS_TIMEOUT_MS: "500",
      DOMAIN_CNAME_TARGET: TARGET,
    });
    for (const [key, slug] of [["owner", "real-owner"], ["squatter", "squatter"], ["third", "third-brand"]] as const) {
      const id = (await createBrand(api.db, { slug, name: `Brand ${slug}`, uidPrefix: slug.replace(/-/g, "").slice(0, 6).toUpperCase(), plan: "growth" })).brand.id;
      brands[key] = { id, client: await dashboardClient(api.url, api.db, id, "owner") };
    }
  });
  after(async () => {
    await api?.close();
    await dns?.close();
  });

  type Who = keyof typeof brands;
  const add = (who: Who, hostname: string) => brands[who].client.call("/api/dashboard/domain/custom", { method: "POST", json: { hostname } });
  const check = (who: Who) => brands[who].client.call("/api/dashboard/domain/custom/check", { method: "POST" });
  const remove = (who: Who) => brands[who].client.call("/api/dashboard/domain/custom", { method: "DELETE" });
  const domainOf = async (who: Who) => (await json(await brands[who].client.call("/api/dashboard/domain"))).data.custom_domain;
  /** Caddy's question: may a certificate be obtained for this name (served here)? */
  const served = async (hostname: string) => (await fetch(`${api.url}/internal/tls/ask?domain=${hostname}`)).status === 200;
  /** The brand's DNS records as the dashboard asks for them, published at the zone (its provider). */
  async function publish(who: Who, hostname: string, extraTokens: string[] = []) {
    const token = (await domainOf(who)).records[1].value as string;
    dns.zone[hostname] = [{ type: "CNAME", target: TARGET }];
    dns.zone[`_passport-verify.${hostname}`] = [token, ...extraTokens].map((value) => ({ type: "TXT" as const, strings: [value] }));
    return token;
  }
  const audit = (who: Who) => api.db("app.audit_log").where({ brand_id: brands[who].id }).whereLike("action", "domain.%").orderBy("id").select("action", "actor", "target");
  const checker = () => new DomainChecker({ db: api.db, config: api.config, logger: createLogger("silent") });
  async function expectError(res: Response, status: number, code: string) {
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).to.equal(status);
    expect(body.error.code).to.equal(code);
  }

  it("a squatter's pending claim does not stop the real owner, whose verified claim wins; the squatter's is released, saying why", async () => {
    expect((await add("squatter", "shop.real-owner.test")).status).to.equal(201);
    const claimed = await add("owner", "shop.real-owner.test");
    expect(claimed.status, await claimed.clone().text()).to.equal(201);
    expect(await served("shop.real-owner.test")).to.equal(false);

    await publish("owner", "shop.real-owner.test");
    expect((await json(await check("owner"))).data.custom_domain.status).to.equal("verified");
    expect(await served("shop.real-owner.test")).to.equal(true);

    const lost = await domainOf("squatter");
    expect(lost).to.include({ hostname: "shop.real-owner.test", status: "released", next_check_at: null });
    expect(lost.failure_reason).to.match(/^Another brand proved control of shop\.real-owner\.test first/).and.not.to.include("real-owner brand");
    expect(await audit("squatter")).to.deep.equal([
      { action: "domain.added", actor: brands.squatter.client.email, target: "shop.real-owner.test" },
      { action: "domain.released", actor: "domain checker", target: "shop.real-owner.test" },
    ]);
    // Held now: nobody else may claim it, the squatter's claim has nothing left to check, and it can be removed.
    await expectError(await add("third", "shop.real-owner.test"), 409, "DOMAIN_TAKEN");
    await expectError(await check("squatter"), 409, "CONFLICT");
    expect((await remove("squatter")).status).to.equal(200);
    expect((await add("squatter", "shop.squatter.test")).status).to.equal(201);
    expect((await domainOf("owner")).status).to.equal("verified");
  });

  it("an unverified claim expires at the end of its window (failed), holding nothing; the checker releases it when the owner verifies", async function () {
    this.timeout(20_000);
    await remove("owner");
    await remove("squatter");
    expect((await add("squatter", "www.real-owner.test")).status).to.equal(201);
    // The squatter's window is over: the checker's last look fails it.
    await api.db("app.custom_domains").where({ brand_id: brands.squatter.id, status: "pending" }).update({ window_started_at: api.db.raw("now() - interval '25 hours'"), next_check_at: api.db.fn.now() });
    await checker().runOnce();
    const expired = await domainOf("squatter");
    expect(expired.status).to.equal("failed");
    expect(expired.failure_reason).to.match(/^Not verified within 24 hours/);

    const claimed = await add("owner", "www.real-owner.test");
    expect(claimed.status, await claimed.clone().text()).to.equal(201);
    await publish("owner", "www.real-owner.test");
    await api.db("app.custom_domains").where({ brand_id: brands.owner.id, status: "pending" }).update({ next_check_at: api.db.fn.now() });
    await checker().runOnce();
    expect((await domainOf("owner")).status).to.equal("verified");
    expect((await domainOf("squatter")).status).to.equal("released");
    expect(await served("www.real-owner.test")).to.equal(true);
  });

  it("of two brands proving control at once, exactly one holds the hostname; the other is released", async () => {
    await remove("squatter");
    await remove("third");
    expect((await add("squatter", "two.real-owner.test")).status).to.equal(201);
    expect((await add("third", "two.real-owner.test")).status).to.equal(201);
    // Both tokens published (the zone's owner let both): both prove it, only one may hold it.
    const token = (await domainOf("third")).records[1].value as string;
    await publish("squatter", "two.real-owner.test", [token]);
    await Promise.all([check("squatter"), check("third")]);
    const statuses = [(await domainOf("squatter")).status, (await domainOf("third")).status].sort();
    expect(statuses).to.deep.equal(["released", "verified"]);
    expect(Number((await api.db("app.custom_domains").where({ hostname: "two.real-owner.test", status: "verified" }).count("* as n").first())!.n)).to.equal(1);
  });
});
