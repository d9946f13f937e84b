// Custom domains end to end with real parts: the shipped Caddyfile run by Debian's caddy (on-demand TLS asking the
// API) with certificates from Debian's pebble (a real ACME CA validating over HTTP-01/TLS-ALPN-01, its names resolved
// by our dns2 server), in front of the API. A custom domain verified through the dashboard's own flow (DNS records
// checked through the same dns2 server) and a brand subdomain get certificates chaining to pebble's root and serve
// the brand over HTTPS; a pending domain and a name never added fail the handshake.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { registerProduct } from "../../api/src/products/service";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort } from "../../scripts/lib/processes";
import { httpsGet, requirePrograms, startCaddy, startPebble, type Caddy, type Pebble } from "../support/caddy";
import { dashboardClient } from "../support/dashboard";
import { startDnsServer, type TestDnsServer } from "../support/dns-server";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const SHIPPED_CADDYFILE = path.join(__dirname, "..", "..", "scripts", "caddy", "Caddyfile");
const TARGET = "edge.passports.test";
const MAIN_HOST = "passports.test";
const BASE_DOMAIN = "brands.passports.test";
const VERIFIED = "shop.e2e-wear.test";
const PENDING = "shop.e2e-other.test";
const STRANGER = "stranger.test";
/** A first handshake waits for the whole ACME exchange (order, challenge, validation, issuance). */
const HANDSHAKE_MS = 45_000;

describe("custom domains behind Caddy with certificates from pebble", function () {
  let dir: string;
  let dns: TestDnsServer;
  let api: InProcessApi;
  let pebble: Pebble;
  let caddy: Caddy;
  let httpsPort: number;
  /** Pebble's issuing root (regenerated at each start): the only certificate the client trusts. */
  let pebbleRoot: string;
  const brand = { id: 0, slug: "e2e-wear", uid: "" };
  let otherUid = "";

  before(async function () {
    this.timeout(120_000);
    requirePrograms("caddy", "pebble");
    dir = mkdtempSync(path.join(os.tmpdir(), "caddy-pebble-"));
    // Every name pebble validates resolves to this machine; the custom domain is a CNAME of our target.
    dns = await startDnsServer({
      [TARGET]: [{ type: "A", address: "127.0.0.1" }],
      [MAIN_HOST]: [{ type: "A", address: "127.0.0.1" }],
      [VERIFIED]: [{ type: "CNAME", target: TARGET }],
      [`${brand.slug}.${BASE_DOMAIN}`]: [{ type: "CNAME", target: TARGET }],
      [PENDING]: [{ type: "A", address: "127.0.0.1" }],
      [STRANGER]: [{ type: "A", address: "127.0.0.1" }],
    });
    api = await startInProcessApi({
      DATABASE_URL: await createTestDatabase("caddy_pebble"),
      RPC_URL: `http://127.0.0.1:${await freePort()}`,
      PUBLIC_BASE_URL: `https://${MAIN_HOST}`,
      BASE_DOMAIN,
      DOMAIN_CNAME_TARGET: TARGET,
      DNS_RESOLVERS: dns.address,
      DNS_TIMEOUT_MS: "1000",
      // Caddy is the one proxy in front, as in production.
      TRUSTED_PROXY_HOPS: "1",
    });

    // The brand adds its domain in the dashboard, publishes the TXT token, and checks: verified.
    brand.id = (await createBrand(api.db, { slug: brand.slug, name: "E2E Wear", uidPrefix: "E2EW", plan: "growth" })).brand.id;
    brand.uid = (await registerProduct(api.db, { id: brand.id, slug: brand.slug, uidPrefix: "E2EW" }, { sku: "E2E-1", name: "Caddy test tee", category: "t-shirt", price: 10 })).uid;
    const owner = await dashboardClient(api.url, api.db, brand.id, "owner");
    const added = await json(await owner.call("/api/dashboard/domain/custom", { method: "POST", json: { hostname: VERIFIED } }));
    dns.zone[`_passport-verify.${VERIFIED}`] = [{ type: "TXT", strings: [added.data.custom_domain.records[1].value] }];
    const checked = await json(await owner.call("/api/dashboard/domain/custom/check", { method: "POST" }));
    expect(checked.data.custom_domain.status, JSON.stringify(checked.data.custom_domain.steps)).to.equal("verified");
    // Another brand's domain, added but never verified.
    const other = await createBrand(api.db, { slug: "e2e-other", name: "E2E Other", uidPrefix: "E2EO", plan: "growth" });
    otherUid = (await registerProduct(api.db, { id: other.brand.id, slug: "e2e-other", uidPrefix: "E2EO" }, { sku: "E2O-1", name: "Other tee", category: "t-shirt", price: 10 })).uid;
    const otherOwner = await dashboardClient(api.url, api.db, other.brand.id, "owner");
    expect((await otherOwner.call("/api/dashboard/domain/custom", { method: "POST", json: { hostname: PENDING } })).status).to.equal(201);

    // Pebble validates HTTP-01 on Caddy's HTTP port and TLS-ALPN-01 on its HTTPS port.
    const [acme, management, http] = [await freePort(), await freePort(), await freePort()];
    httpsPort = await freePort();
    pebble = await startPebble({ dir, dnsServer: dns.address, ports: { acme, management, http, tls: httpsPort } });
    pebbleRoot = (await httpsGet(`https://127.0.0.1:${management}/roots/0`, { ca: pebble.listenerCa })).body;
    expect(pebbleRoot).to.match(/^-----BEGIN CERTIFICATE-----/);

    // The shipped Caddyfile, with the test's ports, CA and storage added to its global options.
    const shipped = readFileSync(SHIPPED_CADDYFILE, "utf8");
    const globals = [
      "admin off",
      `http_port ${http}`,
      `https_port ${httpsPort}`,
      `acme_ca ${pebble.directoryUrl}`,
      `acme_ca_root ${pebble.listenerCaFile}`,
      `storage file_system ${path.join(dir, "storage")}`,
    ];
    const caddyfile = shipped.replace(/^\{\n/m, `{\n${globals.map((line) => `\t${line}\n`).join("")}`);
    expect(caddyfile).not.to.equal(shipped);
    const upstream = new URL(api.url).host;
    // Two replicas, one of them stopped (nothing listens on its port), as during a rollout.
    const stopped = `127.0.0.1:${await freePort()}`;
    caddy = await startCaddy({
      dir,
      caddyfile,
      httpsPort,
      env: { PUBLIC_HOST: MAIN_HOST, ACME_EMAIL: "e2e@passports.test", API_UPSTREAM: `${upstream} ${stopped}`, TLS_ASK_URL: `http://${upstream}/internal/tls/ask` },
    });
  });

  after(async function () {
    this.timeout(30_000);
    await caddy?.stop();
    await pebble?.stop();
    await api?.close();
    await dns?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const through = (host: string, pathname: string) =>
    httpsGet(`https://${host}${pathname}`, { ca: pebbleRoot, connectTo: { host: "127.0.0.1", port: httpsPort }, timeoutMs: HANDSHAKE_MS }).catch((error: Error) => {
      throw new Error(`${error.message}\ncaddy log tail:\n${readFileSync(caddy.child.logFile, "utf8").split("\n").slice(-12).join("\n")}`);
    });

  it("gets a verified custom domain a certificate from pebble and serves the brand there over HTTPS", async function () {
    this.timeout(HANDSHAKE_MS + 15_000);
    const home = await through(VERIFIED, "/");
    expect(home.status).to.equal(200);
    expect(home.body).to.contain('class="brand-name">E2E Wear<');
    expect(home.certificate.subjectAltName).to.equal(`DNS:${VERIFIED}`);
    expect(home.certificate.issuer).to.match(/^Pebble Intermediate CA/);
    const scan = await through(VERIFIED, `/scan/${brand.uid}`);
    expect(scan.status).to.equal(200);
    // Absolute URLs on the page are on the brand's domain (https behind Caddy).
    expect(scan.body).to.contain(`https://${VERIFIED}/scan/${brand.uid}`);
    expect((await through(VERIFIED, `/scan/${otherUid}`)).status).to.equal(404);
    // The ask endpoint is Caddy's alone: not reachable through it.
    expect((await through(VERIFIED, `/internal/tls/ask?domain=${VERIFIED}`)).status).to.equal(404);
  });

  it("serves every request while one of its two API replicas is stopped (health checks, retries on another)", async function () {
    this.timeout(HANDSHAKE_MS + 30_000);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await through(VERIFIED, "/")).status);
    expect(statuses).to.deep.equal(Array.from({ length: 20 }, () => 200));
  });

  it("gets a brand subdomain a certificate the same way", async function () {
    this.timeout(HANDSHAKE_MS + 15_000);
    const home = await through(`${brand.slug}.${BASE_DOMAIN}`, "/");
    expect(home.status).to.equal(200);
    expect(home.body).to.contain('class="brand-name">E2E Wear<');
    expect(home.certificate.subjectAltName).to.equal(`DNS:${brand.slug}.${BASE_DOMAIN}`);
  });

  it("fails the handshake for a pending domain and for a name never added (no certificate is asked for)", async function () {
    this.timeout(30_000);
    for (const host of [PENDING, STRANGER]) {
      const failure = await through(host, "/").then(
        (answer) => `answered ${answer.status}`,
        (error: Error) => error.message,
      );
      expect(failure, host).to.match(/alert internal error/);
    }
    expect(readFileSync(caddy.child.logFile, "utf8")).not.to.contain(`"identifier":"${PENDING}"`);
  });
});
