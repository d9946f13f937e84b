// The custom-domain checker against a real DNS server (dns2 over UDP on 127.0.0.1) and a real Postgres: each zone
// fixture (right, wrong and chained CNAMEs, a CNAME loop, missing, wrong and several TXT records, NXDOMAIN, a server
// that never answers) gives the verdict and words a brand can act on; the job verifies, backs off, fails a domain
// once its window is over, leaves a removed one alone, and two checkers at once never check the same domain twice.
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { loadConfig, type Config } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { backoffMs, DomainChecker } from "../../api/src/domains/checker";
import { checkDomainDns, createResolver, MAX_CNAME_HOPS } from "../../api/src/domains/dns-check";
import { insertDomain, markDomainRemoved, type CustomDomainRow } from "../../api/src/domains/domains.repo";
import { createLogger } from "../../api/src/logger";
import { startDnsServer, type TestDnsServer } from "../support/dns-server";
import { createTestDatabase } from "../support/hooks";

const TARGET = "edge.passports.test";
const TOKEN = "0123456789abcdef0123456789abcdef";
const TIMEOUT_MS = 300;

describe("custom domains: DNS checks and the checker (dns2, Postgres)", () => {
  let dns: TestDnsServer;
  let db: Knex;
  let config: Config;
  const brandIds: number[] = [];

  before(async function () {
    this.timeout(60_000);
    dns = await startDnsServer(
      {
        // Right: a CNAME to the target; the TXT token among other records, itself split in two strings.
        "right.shop.test": [{ type: "CNAME", target: TARGET }],
        "_passport-verify.right.shop.test": [{ type: "TXT", strings: ["google-site-verification=abc"] }, { type: "TXT", strings: [TOKEN.slice(0, 7), TOKEN.slice(7)] }],
        // A chain through a provider, the target written with capitals and a trailing dot.
        "chain.shop.test": [{ type: "CNAME", target: "shops.cdn.test" }],
        "shops.cdn.test": [{ type: "CNAME", target: "Edge.Passports.TEST." }],
        "_passport-verify.chain.shop.test": [{ type: "TXT", strings: [TOKEN] }],
        // Wrong: a CNAME elsewhere; the TXT record holds something else.
        "wrong.shop.test": [{ type: "CNAME", target: "parking.registrar.test" }],
        "parking.registrar.test": [{ type: "A", address: "192.0.2.10" }],
        "_passport-verify.wrong.shop.test": [{ type: "TXT", strings: ["ffffffffffffffffffffffffffffffff"] }],
        // No CNAME at all (an A record), and no TXT record at the label (the name exists, with another type).
        "apex.shop.test": [{ type: "A", address: "192.0.2.20" }],
        "_passport-verify.apex.shop.test": [{ type: "A", address: "192.0.2.21" }],
        // A loop, and a chain longer than the checker follows.
        "loop.shop.test": [{ type: "CNAME", target: "loop2.shop.test" }],
        "loop2.shop.test": [{ type: "CNAME", target: "loop.shop.test" }],
        ...longChain("long.shop.test", MAX_CNAME_HOPS + 1),
      },
      { silent: ["slow.shop.test", "_passport-verify.slow.shop.test"] },
    );
    db = createDb(await createTestDatabase("domains_dns"), 4);
    await migrateLatest(db);
    config = loadConfig({ SERVICE_MODE: "local", DNS_RESOLVERS: dns.address, DNS_TIMEOUT_MS: String(TIMEOUT_MS), DOMAIN_CNAME_TARGET: TARGET, DOMAIN_CHECK_INTERVAL_MS: "100" });
    for (const slug of ["dns-a", "dns-b", "dns-c", "dns-d", "dns-e", "dns-f"]) {
      brandIds.push((await createBrand(db, { slug, name: slug, uidPrefix: slug.replace("-", "").toUpperCase(), plan: "growth" })).brand.id);
    }
  });
  after(async () => {
    await db?.destroy();
    await dns?.close();
  });

  /** name → name-1 → … → name-n, then the target: n+1 CNAME records. */
  function longChain(name: string, hops: number) {
    const zone: Record<string, Array<{ type: "CNAME"; target: string }>> = {};
    let at = name;
    for (let i = 1; i <= hops; i++) {
      zone[at] = [{ type: "CNAME", target: `${i}.${name}` }];
      at = `${i}.${name}`;
    }
    zone[at] = [{ type: "CNAME", target: TARGET }];
    return zone;
  }

  const dnsCheck = (hostname: string) => checkDomainDns(createResolver(config.domains), { hostname, token: TOKEN }, TARGET);

  describe("configuration", () => {
    it("reads resolvers with ports and hostnames in their normal form, and lists every bad key", () => {
      const domains = loadConfig({ SERVICE_MODE: "local", DNS_RESOLVERS: "127.0.0.1:5353, [::1]:53,1.1.1.1", BASE_DOMAIN: "Brands.Example.COM.", DOMAIN_CNAME_TARGET: "Edge.Example.com" }).domains;
      expect(domains).to.include({ baseDomain: "brands.example.com", cnameTarget: "edge.example.com", dnsTimeoutMs: 5000, verifyWindowHours: 24, tlsAskSecret: undefined });
      expect(domains.dnsResolvers).to.deep.equal(["127.0.0.1:5353", "[::1]:53", "1.1.1.1"]);
      expect(loadConfig({ SERVICE_MODE: "local", PUBLIC_BASE_URL: "https://passports.example.com" }).domains.cnameTarget).to.equal("passports.example.com");
      expect(() => loadConfig({ SERVICE_MODE: "local", DNS_RESOLVERS: "dns.google,127.0.0.1:99999", BASE_DOMAIN: "https://x/", TLS_ASK_SECRET: "short" }))
        .to.throw(/BASE_DOMAIN must be a DNS name[\s\S]*DNS_RESOLVERS must list IP addresses.*"dns.google"[\s\S]*"127.0.0.1:99999"[\s\S]*TLS_ASK_SECRET must be at least 16/);
    });
  });

  describe("the two steps", () => {
    it("passes a CNAME to the target and the token among several TXT records (a record's strings joined)", async () => {
      expect(await dnsCheck("right.shop.test")).to.deep.equal({
        cname: { ok: true, detail: `right.shop.test is a CNAME of ${TARGET}.` },
        txt: { ok: true, detail: "The TXT record at _passport-verify.right.shop.test holds the token." },
      });
    });

    it("follows a chain of CNAMEs, comparing without letter case or trailing dot", async () => {
      const result = await dnsCheck("chain.shop.test");
      expect(result.cname).to.deep.equal({ ok: true, detail: `chain.shop.test leads to ${TARGET} through 2 CNAME records.` });
      expect(result.txt.ok).to.equal(true);
    });

    it("fails a CNAME to somewhere else and a TXT record without the token, saying what it found", async () => {
      expect(await dnsCheck("wrong.shop.test")).to.deep.equal({
        cname: { ok: false, detail: `wrong.shop.test points to parking.registrar.test, not to ${TARGET}.` },
        txt: { ok: false, detail: `The TXT record at _passport-verify.wrong.shop.test is not the token; its value must be ${TOKEN}.` },
      });
    });

    it("fails a name without a CNAME and a label without a TXT record", async () => {
      expect(await dnsCheck("apex.shop.test")).to.deep.equal({
        cname: { ok: false, detail: "apex.shop.test has no CNAME record." },
        txt: { ok: false, detail: "_passport-verify.apex.shop.test has no TXT record." },
      });
    });

    it("fails NXDOMAIN for both", async () => {
      expect(await dnsCheck("missing.shop.test")).to.deep.equal({
        cname: { ok: false, detail: "missing.shop.test does not exist in DNS (NXDOMAIN)." },
        txt: { ok: false, detail: "_passport-verify.missing.shop.test does not exist in DNS (NXDOMAIN)." },
      });
    });

    it("stops at a CNAME loop and at a chain longer than it follows", async () => {
      expect((await dnsCheck("loop.shop.test")).cname).to.deep.equal({ ok: false, detail: "The CNAME records of loop.shop.test go round in a loop at loop.shop.test." });
      expect((await dnsCheck("long.shop.test")).cname).to.deep.equal({ ok: false, detail: `long.shop.test has a chain of more than ${MAX_CNAME_HOPS} CNAME records; point it at ${TARGET} directly.` });
    });

    it("fails within the time limit when the server never answers", async () => {
      const started = Date.now();
      const result = await dnsCheck("slow.shop.test");
      expect(result.cname).to.deep.equal({ ok: false, detail: "The DNS query for slow.shop.test timed out." });
      expect(result.txt).to.deep.equal({ ok: false, detail: "The DNS query for _passport-verify.slow.shop.test timed out." });
      // One try of TIMEOUT_MS per query, asked at the same time (bounded, with room for a busy machine).
      expect(Date.now() - started).to.be.below(TIMEOUT_MS * 6);
    });
  });

  describe("the checker", () => {
    const logger = createLogger("silent");
    const deps = () => ({ db, config, logger });
    const add = async (brandIndex: number, hostname: string): Promise<CustomDomainRow> => {
      const added = await insertDomain(db, { brandId: brandIds[brandIndex]!, hostname, verifyToken: TOKEN });
      if (!("row" in added)) throw new Error(`${hostname} not added: ${added.taken}`);
      return added.row;
    };
    const row = async (id: number) => (await db("app.custom_domains").where({ id }).first()) as CustomDomainRow;
    const audit = (brandIndex: number) => db("app.audit_log").where({ brand_id: brandIds[brandIndex]! }).orderBy("id").select("action", "actor", "target", "details");

    it("backs off 1 minute after the first check, doubling, at most an hour", () => {
      expect([0, 1, 2, 3, 5, 6, 7, 30].map(backoffMs)).to.deep.equal([60_000, 120_000, 240_000, 480_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000]);
    });

    it("verifies a due domain with the right records, audited as the checker's; schedules the next check of a wrong one", async () => {
      const right = await add(0, "right.shop.test");
      const wrong = await add(1, "wrong.shop.test");
      const checked = await new DomainChecker(deps()).runOnce();
      expect(checked).to.equal(2);
      const verified = await row(right.id);
      expect(verified).to.include({ status: "verified", cname_ok: true, txt_ok: true, checks: 1, next_check_at: null });
      expect(verified.verified_at).to.be.an.instanceOf(Date);
      expect(await audit(0)).to.deep.equal([{ action: "domain.verified", actor: "domain checker", target: "right.shop.test", details: { cname_target: TARGET } }]);
      const pending = await row(wrong.id);
      expect(pending).to.include({ status: "pending", cname_ok: false, txt_ok: false, checks: 1 });
      expect(pending.next_check_at!.getTime() - pending.cname_checked_at!.getTime()).to.equal(60_000);
      // Not due yet: the next pass checks nothing.
      expect(await new DomainChecker(deps()).runOnce()).to.equal(0);
    });

    it("doubles the wait after each failed check, the last check falling at the window's end", async () => {
      const wrong = (await db("app.custom_domains").where({ hostname: "wrong.shop.test" }).first()) as CustomDomainRow;
      // Three checks made, the window began 23 h 55 min ago: the next wait (8 min) is cut to the window's end.
      await db("app.custom_domains").where({ id: wrong.id }).update({ checks: 3, next_check_at: db.fn.now(), window_started_at: db.raw("now() - interval '23 hours 55 minutes'") });
      await new DomainChecker(deps()).runOnce();
      const after = await row(wrong.id);
      expect(after.status).to.equal("pending");
      const windowEnds = after.window_started_at.getTime() + 24 * 3_600_000;
      expect(after.next_check_at!.getTime()).to.equal(windowEnds);
    });

    it("marks a domain failed with the reason at the first check after its window", async () => {
      const wrong = (await db("app.custom_domains").where({ hostname: "wrong.shop.test" }).first()) as CustomDomainRow;
      await db("app.custom_domains").where({ id: wrong.id }).update({ next_check_at: db.fn.now(), window_started_at: db.raw("now() - interval '24 hours 1 second'") });
      await new DomainChecker(deps()).runOnce();
      const failed = await row(wrong.id);
      expect(failed).to.include({ status: "failed", next_check_at: null });
      expect(failed.failure_reason).to.equal(
        `Not verified within 24 hours. CNAME: wrong.shop.test points to parking.registrar.test, not to ${TARGET}. ` +
          `TXT: The TXT record at _passport-verify.wrong.shop.test is not the token; its value must be ${TOKEN}.`,
      );
      expect((await audit(1)).map((entry) => entry.action)).to.deep.equal(["domain.failed"]);
    });

    it("writes nothing for a domain removed while it was being checked", async () => {
      const slow = await add(2, "slow.shop.test");
      const asked = () => dns.queries.filter((query) => query === "CNAME slow.shop.test").length;
      const before = asked();
      const pass = new DomainChecker(deps()).runOnce();
      // Once the check is waiting for the silent server, the brand removes the domain.
      for (let i = 0; i < 100 && asked() === before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(asked()).to.equal(before + 1);
      await db.transaction((trx) => markDomainRemoved(trx, brandIds[2]!));
      expect(await pass).to.equal(1);
      expect(await row(slow.id)).to.include({ status: "removed", checks: 0, cname_checked_at: null });
    });

    it("checks each due domain once when two checkers (two replicas) run at the same time", async () => {
      const hostnames = ["apex.shop.test", "missing.shop.test", "loop.shop.test"];
      for (const [i, hostname] of hostnames.entries()) await add(3 + i, hostname);
      const before = dns.queries.length;
      const [a, b] = await Promise.all([new DomainChecker(deps()).runOnce(), new DomainChecker(deps()).runOnce()]);
      expect(a + b).to.equal(3);
      const asked = dns.queries.slice(before).filter((query) => query.startsWith("TXT "));
      expect(asked.sort()).to.deep.equal(hostnames.map((hostname) => `TXT _passport-verify.${hostname}`).sort());
      for (const hostname of hostnames) expect(await db("app.custom_domains").where({ hostname }).first()).to.include({ checks: 1 });
    });

    it("runs by itself once started, and stops", async function () {
      this.timeout(10_000);
      // Brand 2's domain was removed: it may add another.
      const chain = await add(2, "chain.shop.test");
      const checker = new DomainChecker(deps());
      checker.start();
      try {
        const deadline = Date.now() + 5000;
        while ((await row(chain.id)).status !== "verified" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await checker.stop();
      }
      expect((await row(chain.id)).status).to.equal("verified");
    });
  });
});
