// The SSRF guard: a corpus of hostile webhook URLs is refused at registration (over HTTP) and again at delivery,
// where DNS may have changed since. DNS answers come from a resolver injected here, so no test needs the internet.
import { pbkdf2 } from "node:crypto";
import dgram from "node:dgram";
import { lookup } from "node:dns/promises";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { expect } from "chai";
import { createBrand } from "../../api/src/brands/service";
import { loadConfig } from "../../api/src/config";
import { createLogger } from "../../api/src/logger";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { insertEndpoint } from "../../api/src/webhooks/endpoints.repo";
import { enqueueEvent } from "../../api/src/webhooks/outbox";
import { encryptSecret, generateSigningSecret } from "../../api/src/webhooks/secrets";
import { dnsResolver, resolveDestination, UrlRefusedError, useHostResolver, type HostResolver, type ResolvedAddress } from "../../api/src/webhooks/ssrf";
import { startInProcessApi, type InProcessApi } from "../../scripts/lib/api-process";
import { freePort, waitFor } from "../../scripts/lib/processes";
import { createTestDatabase } from "../support/hooks";
import { json } from "../support/http";

const PUBLIC_V4 = "93.184.216.34";
const PUBLIC_V6 = "2606:4700:4700::1111";

/** What the hostile DNS says; every name not listed fails as NXDOMAIN would. */
const DNS: Record<string, string[]> = {
  "public.example.test": [PUBLIC_V4],
  "public6.example.test": [PUBLIC_V6],
  "rebind.example.test": ["127.0.0.1"],
  "internal.example.test": ["10.1.2.3"],
  "mixed.example.test": [PUBLIC_V4, "10.0.0.5"],
  "mixed-last.example.test": [PUBLIC_V4, PUBLIC_V6, "169.254.169.254"],
  "v6private.example.test": ["fd12:3456::1"],
  "v6loop.example.test": ["::1"],
  "mapped.example.test": ["::ffff:192.168.0.10"],
  "mapped-meta.example.test": ["::ffff:169.254.169.254"],
  "cgnat.example.test": ["100.72.1.1"],
  "meta.example.test": ["169.254.169.254"],
  "zero.example.test": ["0.0.0.0"],
  "multicast.example.test": ["239.1.2.3"],
  "nat64.example.test": ["64:ff9b::a9fe:a9fe"],
  "nat64-local.example.test": ["64:ff9b:1::a00:1"],
  "6to4-private.example.test": ["2002:c0a8:1::1"],
  "siit.example.test": ["::ffff:0:a00:1"],
  // IPv4-compatible IPv6 (::/96), as inet_ntop prints it in answers and in hex: refused whatever it embeds.
  "compat.example.test": ["::7f00:1"],
  "compat-dotted.example.test": ["::10.0.0.1"],
  "compat-public.example.test": ["::8.8.8.8"],
  "localhost": ["127.0.0.1", "::1"],
  "app.localhost": ["127.0.0.1"],
  "metadata.google.internal": ["169.254.169.254"],
};

const resolver: HostResolver = async (hostname) => {
  const answers = DNS[hostname.toLowerCase()];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return answers.map((address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
};

/**
 * Hostile URLs; "{port}" is the test receiver's port, so a URL that slipped through to loopback would be seen
 * arriving there.
 */
const HOSTILE = [
  // Loopback in every spelling.
  "http://127.0.0.1:{port}/hook",
  "http://127.1:{port}/hook",
  "http://127.0.0.1.:{port}/hook",
  "http://2130706433:{port}/hook",
  "http://0x7f000001:{port}/hook",
  "http://0x7f.0.0.1:{port}/hook",
  "http://0177.0.0.1:{port}/hook",
  "http://017700000001:{port}/hook",
  "http://[::1]:{port}/hook",
  "http://[::ffff:127.0.0.1]:{port}/hook",
  "http://[::ffff:7f00:1]:{port}/hook",
  "http://[0:0:0:0:0:ffff:127.0.0.1]:{port}/hook",
  "http://[::7f00:1]:{port}/hook",
  "http://[::127.0.0.1]:{port}/hook",
  "http://localhost:{port}/hook",
  "http://LOCALHOST:{port}/hook",
  "http://app.localhost:{port}/hook",
  "http://rebind.example.test:{port}/hook",
  "http://v6loop.example.test:{port}/hook",
  // Unspecified, private, CGNAT, link-local, multicast, broadcast, reserved.
  "http://0.0.0.0:{port}/hook",
  "http://0:{port}/hook",
  "http://[::]:{port}/hook",
  "http://10.0.0.1/hook",
  "http://10.255.255.255:8080/hook",
  "http://172.16.0.1/hook",
  "http://172.31.255.254/hook",
  "http://192.168.1.1/hook",
  "http://3232235777/hook",
  "http://100.64.0.1/hook",
  "http://224.0.0.1/hook",
  "http://239.255.255.250:1900/hook",
  "http://255.255.255.255/hook",
  "http://192.0.0.192/hook",
  "http://198.18.0.1/hook",
  "http://[fe80::1]/hook",
  "http://[fc00::1]/hook",
  "http://[fd12:3456::1]/hook",
  "http://[ff02::1]/hook",
  "http://[::ffff:10.0.0.1]/hook",
  "http://[::a00:1]/hook",
  "http://[::c0a8:101]/hook",
  "http://[64:ff9b:1::a00:1]/hook",
  "http://[2002:a00:1::1]/hook",
  "http://[::ffff:0:a00:1]/hook",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
  // Cloud metadata services, literal and encoded.
  "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
  "http://169.254.170.2/v2/credentials",
  "http://0xa9fea9fe/latest/meta-data/",
  "http://2852039166/latest/meta-data/",
  "http://0251.0376.0251.0376/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://100.100.100.200/latest/meta-data/",
  "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
  "http://[2002:a9fe:a9fe::]/latest/meta-data/",
  "http://[::a9fe:a9fe]/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://metadata/computeMetadata/v1/",
  // Names whose DNS answers are hostile (or partly hostile).
  "http://internal.example.test/hook",
  "http://mixed.example.test/hook",
  "https://mixed-last.example.test/hook",
  "http://v6private.example.test/hook",
  "http://mapped.example.test/hook",
  "http://mapped-meta.example.test/hook",
  "http://cgnat.example.test/hook",
  "http://meta.example.test/hook",
  "http://zero.example.test/hook",
  "http://multicast.example.test/hook",
  "http://nat64.example.test/hook",
  "http://nat64-local.example.test/hook",
  "http://6to4-private.example.test/hook",
  "http://siit.example.test/hook",
  "http://compat.example.test/hook",
  "http://compat-dotted.example.test/hook",
  "http://compat-public.example.test/hook",
  "http://nxdomain.example.test/hook",
  // Not http(s), or with credentials.
  "ftp://public.example.test/hook",
  "file:///etc/passwd",
  "gopher://public.example.test:70/_hook",
  "javascript:alert(1)",
  "http://user:secret@public.example.test/hook",
  "//public.example.test/hook",
];

describe("SSRF guard", () => {
  let restoreResolver: () => void;
  let sink: http.Server;
  let port: number;
  let hits = 0;
  const at = (template: string) => template.replace("{port}", String(port));
  const strict = { httpsOnly: false, allowLoopback: false };

  before(async () => {
    restoreResolver = useHostResolver(resolver);
    sink = http.createServer((_req, res) => {
      hits += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
    port = (sink.address() as AddressInfo).port;
  });
  after(async () => {
    restoreResolver?.();
    sink?.closeAllConnections();
    await new Promise((resolve) => sink?.close(resolve));
  });

  it(`holds a corpus of at least 40 hostile URLs`, () => {
    expect(HOSTILE.length).to.be.at.least(40);
    expect(new Set(HOSTILE).size).to.equal(HOSTILE.length);
  });

  describe("the check itself", () => {
    for (const template of HOSTILE) {
      it(`refuses ${template}`, async () => {
        const outcome = await resolveDestination(at(template), strict, resolver).then(
          (d) => `allowed, would connect to ${d.address}`,
          (error: unknown) => error,
        );
        expect(outcome).to.be.instanceOf(UrlRefusedError);
      });
    }

    it("allows public addresses and names, and pins the address it checked", async () => {
      expect((await resolveDestination("https://public.example.test/hook", strict, resolver)).address).to.equal(PUBLIC_V4);
      expect((await resolveDestination("https://public6.example.test/hook", strict, resolver)).address).to.equal(PUBLIC_V6);
      expect((await resolveDestination(`http://${PUBLIC_V4}:8443/hook`, strict, resolver)).address).to.equal(PUBLIC_V4);
      expect((await resolveDestination(`https://[${PUBLIC_V6}]/hook`, strict, resolver)).address).to.equal(PUBLIC_V6);
    });

    it("allows loopback only when configured, and https only in production", async () => {
      const local = { httpsOnly: false, allowLoopback: true };
      expect((await resolveDestination(at("http://127.0.0.1:{port}/hook"), local, resolver)).address).to.equal("127.0.0.1");
      expect((await resolveDestination(at("http://[::1]:{port}/hook"), local, resolver)).address).to.equal("::1");
      expect((await resolveDestination(at("http://localhost:{port}/hook"), local, resolver)).address).to.equal("127.0.0.1");
      // Loopback allowance is not a private-network allowance.
      await resolveDestination("http://10.0.0.1/hook", local, resolver).then(
        () => expect.fail("10.0.0.1 was allowed"),
        (error: unknown) => expect(error).to.be.instanceOf(UrlRefusedError),
      );
      const production = { httpsOnly: true, allowLoopback: false };
      await resolveDestination("http://public.example.test/hook", production, resolver).then(
        () => expect.fail("http was allowed in production"),
        (error: unknown) => expect((error as UrlRefusedError).problem).to.equal("must use https"),
      );
      expect((await resolveDestination("https://public.example.test/hook", production, resolver)).address).to.equal(PUBLIC_V4);
    });
  });

  describe("resolving receiver hosts", () => {
    // A name server on 127.0.0.1 that reads every query and never answers: DNS as slow as it gets.
    let silent: dgram.Socket;
    let queries = 0;
    let server: string;

    before(async () => {
      silent = dgram.createSocket("udp4");
      silent.on("message", () => (queries += 1));
      await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
      server = `127.0.0.1:${silent.address().port}`;
    });
    after(() => silent?.close());

    it("keeps libuv's thread pool and the process's own lookups free while receivers' DNS hangs, then fails clearly", async () => {
      const resolve = dnsResolver({ servers: [server], timeoutMs: 2000 });
      const before = queries;
      let settled = 0;
      const hung = Array.from({ length: 8 }, (_, i) =>
        resolveDestination(`https://slow-${i}.example.test/hook`, strict, resolve).then(
          () => expect.fail("a name nobody answered for was allowed"),
          (error: unknown) => {
            settled += 1;
            return error;
          },
        ),
      );
      // Every resolution is waiting on the silent server (an A and an AAAA query each)...
      await waitFor("the queries to reach the silent server", async () => (queries - before >= 16 ? true : undefined), 5000, 5);
      // ...while thread-pool work (crypto, fs) and a getaddrinfo lookup of our own, started after them, all finish.
      let finished = 0;
      const count = <T>(work: Promise<T>) => work.then(() => (finished += 1));
      await Promise.all([
        ...Array.from({ length: 8 }, () => count(promisify(pbkdf2)("password", "salt", 1000, 32, "sha256"))),
        ...Array.from({ length: 4 }, () => count(readFile(__filename))),
        count(lookup("localhost")),
      ]);
      expect(finished).to.equal(13);
      expect(settled, "resolutions that ended before the other work did").to.equal(0);
      for (const error of await Promise.all(hung)) {
        expect(error).to.be.instanceOf(UrlRefusedError);
        expect((error as UrlRefusedError).problem).to.match(/^host "slow-\d\.example\.test" did not resolve in time \(DNS timeout\)$/);
      }
    });

    it("answers localhost itself (loopback, never asked of DNS), allowed only where loopback receivers are", async () => {
      const resolve = dnsResolver({ servers: [server], timeoutMs: 2000 });
      const before = queries;
      expect(await resolve("localhost")).to.deep.equal([{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }]);
      expect(await resolve("hooks.localhost.")).to.have.length(2);
      expect((await resolveDestination("http://localhost:9/hook", { httpsOnly: false, allowLoopback: true }, resolve)).address).to.equal("127.0.0.1");
      await resolveDestination("http://localhost:9/hook", strict, resolve).then(
        () => expect.fail("localhost was allowed"),
        (error: unknown) => expect(error).to.be.instanceOf(UrlRefusedError),
      );
      expect(queries - before).to.equal(0);
    });
  });

  describe("at registration (POST /api/v1/webhook/register)", () => {
    let api: InProcessApi;
    let headers: Record<string, string>;

    before(async () => {
      api = await startInProcessApi({
        DATABASE_URL: await createTestDatabase("ssrf_registration"),
        RPC_URL: `http://127.0.0.1:${await freePort()}`,
        ALLOW_LOOPBACK_WEBHOOKS: "false",
      });
      const { brand, key } = await createBrand(api.db, { slug: "ssrf", name: "SSRF", uidPrefix: "SSRF", plan: "enterprise" });
      headers = { Authorization: `Bearer ${key.key}`, "X-Service-Brand": brand.slug, "Content-Type": "application/json" };
    });
    after(() => api?.close());

    it("refuses every hostile URL with 422 VALIDATION_ERROR on url, and stores none", async () => {
      for (const template of HOSTILE) {
        const res = await fetch(`${api.url}/api/v1/webhook/register`, { method: "POST", headers, body: JSON.stringify({ url: at(template), events: ["cert.issued"] }) });
        const body = await json(res);
        expect(res.status, `${template}: ${JSON.stringify(body)}`).to.equal(422);
        expect(body.error.code).to.equal("VALIDATION_ERROR");
        expect(body.error.details[0].field).to.equal("url");
        expect(body.error.details[0].problem).to.be.a("string").and.not.equal("");
      }
      expect(await api.db("app.webhook_endpoints")).to.have.length(0);
    });

    it("says what is wrong: the resolved address class", async () => {
      const res = await fetch(`${api.url}/api/v1/webhook/register`, { method: "POST", headers, body: JSON.stringify({ url: "http://meta.example.test/x", events: ["cert.issued"] }) });
      const body = await json(res);
      expect(body.error.details[0].problem).to.equal('host "meta.example.test" resolves to a link-local (cloud metadata) address; only public addresses are allowed');
    });

    it("accepts a public URL (the control: the refusals above are not a blanket no)", async () => {
      const res = await fetch(`${api.url}/api/v1/webhook/register`, { method: "POST", headers, body: JSON.stringify({ url: "https://public.example.test/hook", events: ["cert.issued"] }) });
      expect(res.status).to.equal(201);
    });
  });

  describe("at delivery", () => {
    it("refuses every hostile URL again before connecting: nothing reaches the receiver", async () => {
      const databaseUrl = await createTestDatabase("ssrf_delivery");
      // Loopback refused: the corpus's loopback URLs point at our receiver, which must see no request.
      const config = loadConfig({ SERVICE_MODE: "local", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ALLOW_LOOPBACK_WEBHOOKS: "false" });
      const { createDb } = await import("../../api/src/db/knex");
      const { migrateLatest } = await import("../../api/src/db/migrate");
      const db = createDb(databaseUrl, 10);
      try {
        await migrateLatest(db);
        const { brand } = await createBrand(db, { slug: "ssrf-delivery", name: "SSRF delivery", uidPrefix: "SSRD" });
        // As if each URL had passed registration while its DNS still looked public: stored straight away.
        for (const template of HOSTILE) {
          await insertEndpoint(db, { brandId: brand.id, kind: "v1", url: at(template), events: ["cert.issued"], secretCiphertext: encryptSecret(config.secretsKey, generateSigningSecret()) });
        }
        const eventId = await db.transaction((trx) => enqueueEvent(trx, { brandId: brand.id, type: "cert.issued", payload: { event: "cert.issued" }, dedupeKey: "cert.issued:SSRD-1" }));
        const before = hits;
        const dispatcher = new Dispatcher({ config, db, logger: createLogger("silent"), resolver, watch: false, pollIntervalMs: 50, concurrency: 16 });
        dispatcher.start();
        try {
          await waitFor("every attempt to be recorded", async () => {
            const open = await db("app.webhook_deliveries").where({ event_id: eventId }).whereNull("last_error").first();
            return open ? undefined : true;
          }, 60_000, 50);
        } finally {
          await dispatcher.stop(1000);
        }
        const rows = await db("app.webhook_deliveries as d").join("app.webhook_endpoints as e", "e.id", "d.endpoint_id").where({ "d.event_id": eventId }).select("e.url", "d.status", "d.last_error", "d.last_response_code");
        expect(rows).to.have.length(HOSTILE.length);
        for (const row of rows) {
          expect(row.last_error, row.url).to.match(/^refused by the SSRF guard: URL /);
          expect(row.last_response_code, row.url).to.equal(null);
          expect(row.status, row.url).to.equal("pending");
        }
        expect(hits - before).to.equal(0);
      } finally {
        await db.destroy();
      }
    });

    it("connects to the address it checked, not to a second DNS answer", async () => {
      const databaseUrl = await createTestDatabase("ssrf_pinning");
      const config = loadConfig({ SERVICE_MODE: "local", DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ALLOW_LOOPBACK_WEBHOOKS: "true" });
      const { createDb } = await import("../../api/src/db/knex");
      const { migrateLatest } = await import("../../api/src/db/migrate");
      const db = createDb(databaseUrl, 5);
      // The first answer is our loopback receiver (allowed here); any later lookup would say a metadata address.
      // "hook.example.test" exists nowhere else, so a request that arrives went to the address the guard checked.
      let lookups = 0;
      const rebinding: HostResolver = async () => {
        lookups += 1;
        return [{ address: lookups === 1 ? "127.0.0.1" : "169.254.169.254", family: 4 }];
      };
      const seen: http.IncomingHttpHeaders[] = [];
      const receiver = http.createServer((req, res) => {
        seen.push(req.headers);
        req.resume();
        req.on("end", () => res.writeHead(204).end());
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const receiverPort = (receiver.address() as AddressInfo).port;
      try {
        await migrateLatest(db);
        const { brand } = await createBrand(db, { slug: "pinning", name: "Pinning", uidPrefix: "PIN" });
        await insertEndpoint(db, { brandId: brand.id, kind: "v1", url: `http://hook.example.test:${receiverPort}/in`, events: ["cert.issued"], secretCiphertext: encryptSecret(config.secretsKey, generateSigningSecret()) });
        const eventId = await db.transaction((trx) => enqueueEvent(trx, { brandId: brand.id, type: "cert.issued", payload: { event: "cert.issued" }, dedupeKey: "cert.issued:PIN-1" }));
        const dispatcher = new Dispatcher({ config, db, logger: createLogger("silent"), resolver: rebinding, watch: false, pollIntervalMs: 50 });
        dispatcher.start();
        try {
          await waitFor("the delivery", async () => ((await db("app.webhook_deliveries").where({ event_id: eventId, status: "succeeded" }).first()) ? true : undefined), 30_000, 50);
        } finally {
          await dispatcher.stop(1000);
        }
        expect(lookups).to.equal(1);
        expect(seen).to.have.length(1);
        expect(seen[0]!.host).to.equal(`hook.example.test:${receiverPort}`);
      } finally {
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(resolve));
        await db.destroy();
      }
    });
  });
});
