// What anonymous requests to the public endpoints cost us, counted on the real seeded stack: certificate renders,
// JSON-RPC calls (through a counting proxy in front of the Hardhat node) and count(*) statements.
import { buildAppDeps } from "../../api/src/assemble";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { buildApp } from "../../api/src/app";
import { setBranding } from "../../api/src/brands/branding";
import { createProvider } from "../../api/src/chain/provider";
import { createLogger } from "../../api/src/logger";
import { EXPLORER_LOOKUPS } from "../../api/src/chain/transaction-lookup";
import { waitFor } from "../../scripts/lib/processes";
import { certificateRenders } from "../support/certificate-renders";
import { json } from "../support/http";
import { findProductWithChain } from "../../api/src/products/products.repo";
import { tokenIdOf } from "../../api/src/passports/content";
import { sharedStack, type SeededStack } from "../support/shared-stack";

/**
 * A JSON-RPC proxy on 127.0.0.1 that counts the methods it forwards, and can hold calls of one method until told to
 * let them through (to see how many a caller has under way at once).
 */
async function countingRpcProxy(target: string) {
  const calls = new Map<string, number>();
  let holding: { method: string; calls: number; held: Array<() => void> } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const parsed = JSON.parse(body) as { method: string } | Array<{ method: string }>;
      const methods = (Array.isArray(parsed) ? parsed : [parsed]).map((call) => call.method);
      for (const method of methods) calls.set(method, (calls.get(method) ?? 0) + 1);
      const forward = () =>
        fetch(target, { method: "POST", headers: { "Content-Type": "application/json" }, body })
          .then(async (answer) => {
            res.writeHead(answer.status, { "Content-Type": "application/json" });
            res.end(await answer.text());
          })
          .catch(() => {
            res.writeHead(502);
            res.end();
          });
      const gate = holding;
      const matching = gate ? methods.filter((method) => method === gate.method).length : 0;
      if (gate && matching > 0) {
        gate.calls += matching;
        gate.held.push(() => void forward());
      } else {
        void forward();
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: (...methods: string[]) => methods.reduce((n, method) => n + (calls.get(method) ?? 0), 0),
    /** Holds calls of `method` from now on; `held()` says how many are waiting, `release()` lets them all go. */
    hold(method: string) {
      const gate = { method, calls: 0, held: [] as Array<() => void> };
      holding = gate;
      return {
        held: () => gate.calls,
        release: () => {
          if (holding === gate) holding = undefined;
          for (const go of gate.held.splice(0)) go();
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const randomHash = () => `0x${randomBytes(32).toString("hex")}`;
const TX_LOOKUPS = ["eth_getTransactionByHash", "eth_getTransactionReceipt", "eth_getBlockByNumber", "eth_getBlockByHash"];

describe("public endpoint costs", () => {
  let stack: SeededStack;
  let rpc: Awaited<ReturnType<typeof countingRpcProxy>>;
  let server: http.Server;
  let base: string;
  let provider: ReturnType<typeof createProvider>;
  const minted = () => stack.demo.products.find((p) => p.minted)!;

  before(async function () {
    this.timeout(300_000);
    stack = await sharedStack();
    const { config, db, chain } = stack.api;
    rpc = await countingRpcProxy(config.rpcUrl);
    // The stack's API with its reads of the chain going through the counting proxy.
    provider = createProvider(rpc.url, config.chainId);
    server = buildApp(buildAppDeps({ config, db, provider, chain, logger: createLogger("silent") })).listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    provider?.destroy();
    await rpc?.close();
  });

  describe("GET /certificates/:uid.pdf", () => {
    const pdfUrl = () => `${base}/certificates/${minted().uid}.pdf`;

    it("renders a certificate once: repeats come from the cache, and a caller holding the ETag gets 304 without a render", async () => {
      const first = await fetch(pdfUrl());
      expect(first.status).to.equal(200);
      expect(first.headers.get("content-type")).to.equal("application/pdf");
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).to.equal("%PDF-");
      const etag = first.headers.get("etag")!;

      const renders = certificateRenders();
      for (let i = 0; i < 10; i += 1) {
        const again = await fetch(pdfUrl());
        expect(again.status).to.equal(200);
        expect(again.headers.get("etag")).to.equal(etag);
        expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).to.equal(true);
        const revalidated = await fetch(pdfUrl(), { headers: { "If-None-Match": etag } });
        expect(revalidated.status).to.equal(304);
      }
      expect(certificateRenders() - renders).to.equal(0);
    });

    it("gives a new ETag, and renders once, when something the PDF shows changes (the brand's colour)", async () => {
      const before = await fetch(pdfUrl());
      const etag = before.headers.get("etag")!;
      await before.arrayBuffer();
      const brand = await stack.api.db("app.brands").where({ slug: "demo-apparel" }).first<{ branding: Record<string, unknown> }>("branding");
      await setBranding(stack.api.db, "demo-apparel", { primary_color: "#123456" });
      try {
        const renders = certificateRenders();
        const stale = await fetch(pdfUrl(), { headers: { "If-None-Match": etag } });
        expect(stale.status).to.equal(200, "the old ETag no longer matches");
        const newEtag = stale.headers.get("etag")!;
        expect(newEtag).to.not.equal(etag);
        await stale.arrayBuffer();
        expect((await fetch(pdfUrl(), { headers: { "If-None-Match": newEtag } })).status).to.equal(304);
        expect(certificateRenders() - renders).to.equal(1);
      } finally {
        await stack.api.db("app.brands").where({ slug: "demo-apparel" }).update({ branding: JSON.stringify(brand!.branding) });
      }
    });
  });

  describe("GET /explorer/tx/:hash", () => {
    it("answers a malformed hash without asking the chain", async () => {
      const calls = rpc.count(...TX_LOOKUPS);
      for (const hash of ["0x1234", `0x${"z".repeat(64)}`, `${"a".repeat(66)}`, `0x${"a".repeat(65)}`]) {
        expect((await fetch(`${base}/explorer/tx/${hash}`)).status).to.equal(422);
      }
      expect(rpc.count(...TX_LOOKUPS)).to.equal(calls);
    });

    it("looks an unknown hash up once, however many ask at once or again, in either letter case", async () => {
      const hash = randomHash();
      const calls = rpc.count(...TX_LOOKUPS);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => fetch(`${base}/explorer/tx/${i % 2 ? hash : hash.toUpperCase().replace("0X", "0x")}`)),
      );
      for (const res of answers) expect(res.status).to.equal(404);
      for (let i = 0; i < 10; i += 1) expect((await fetch(`${base}/explorer/tx/${hash}`)).status).to.equal(404);
      expect(rpc.count(...TX_LOOKUPS) - calls).to.equal(1);
    });

    it("caps the lookups under way at once, and answers the rest busy rather than queue them", async () => {
      const { concurrent, waiting } = EXPLORER_LOOKUPS;
      const total = 120;
      const calls = rpc.count(...TX_LOOKUPS);
      // The chain answers nothing until released: every lookup the API starts stays under way.
      const gate = rpc.hold("eth_getTransactionByHash");
      const answered: Array<{ status: number; retryAfter: string | null }> = [];
      const requests = Array.from({ length: total }, () =>
        fetch(`${base}/explorer/tx/${randomHash()}`).then(async (res) => {
          await res.arrayBuffer();
          answered.push({ status: res.status, retryAfter: res.headers.get("retry-after") });
        }),
      );
      try {
        // Without a cap the held lookups pile up at the chain; with one the surplus is answered at once.
        await waitFor("the surplus answered, or the chain asked beyond the cap", async () =>
          answered.length >= total - concurrent - waiting || gate.held() > concurrent ? true : undefined,
        60_000, 20);
        expect(gate.held()).to.be.at.most(concurrent);
      } finally {
        gate.release();
        await Promise.all(requests);
      }
      const busy = answered.filter((a) => a.status === 503);
      expect(busy).to.have.length(total - concurrent - waiting);
      for (const a of busy) expect(a.retryAfter).to.match(/^\d+$/);
      expect(answered.filter((a) => a.status === 404)).to.have.length(concurrent + waiting);
      expect(rpc.count(...TX_LOOKUPS) - calls).to.equal(concurrent + waiting);
    });

    it("shows a real transaction, and a repeat costs no further calls", async () => {
      const { db } = stack.api;
      const row = await db("app.passports").whereNotNull("tx_hash").first<{ tx_hash: string }>("tx_hash");
      const first = await fetch(`${base}/explorer/tx/${row!.tx_hash}`);
      expect(first.status).to.equal(200);
      const page = await first.text();
      expect(page).to.include(row!.tx_hash).and.include("success").and.include("PassportsMinted");
      const calls = rpc.count(...TX_LOOKUPS);
      for (let i = 0; i < 5; i += 1) expect(await (await fetch(`${base}/explorer/tx/${row!.tx_hash}`)).text()).to.equal(page);
      expect(rpc.count(...TX_LOOKUPS)).to.equal(calls);
    });
  });

  describe("point reads", () => {
    type Sent = { sql: string; bindings: unknown[] };
    /** A request's answer, and every statement the API sent while it was served (background jobs' too). */
    async function sentDuring(path: string) {
      const sent: Sent[] = [];
      const onQuery = (query: { sql: string; bindings?: unknown[] }) => sent.push({ sql: query.sql, bindings: query.bindings ?? [] });
      stack.api.db.on("query", onQuery);
      try {
        const res = await fetch(base + path);
        expect(res.status).to.equal(200);
        return { body: await json(res), sent };
      } finally {
        stack.api.db.off("query", onQuery);
      }
    }
    /**
     * The statements that read the passport: those bound to one of its identifiers (UID, token id, passport id) or its
     * maker's id. Background jobs (the mint pump's sweeps) read passports meanwhile, but by state, not by these.
     */
    const readsOf = (sent: Sent[], ids: unknown[]) =>
      sent.filter(({ bindings }) => bindings.some((value) => ids.some((id) => value === id || (Array.isArray(value) && value.includes(id))))).map(({ sql }) => sql);
    // Minted UIDs no other test here reads, so the read caches do not answer them.
    const unread = (n: number) => stack.demo.products.filter((p) => p.minted).at(-n)!;

    it("GET /api/dpp/:uid reads the product, its indexed passport with its steps and its maker's registry entry in one statement", async () => {
      const { uid } = unread(1);
      const { body, sent } = await sentDuring(`/api/dpp/${uid}`);
      expect(body.blockchain.verified).to.equal(true);
      expect(body.supply_chain_events.length).to.be.greaterThan(0);
      expect(body.manufacturer.factory_id).to.be.a("number");
      const reads = readsOf(sent, [uid, body.blockchain.token_id, body.manufacturer.factory_id]);
      expect(reads, reads.join("\n")).to.have.length(1);
    });

    it("ReadDPPByProductId of a UID reads the passport with its versions, registration and access overrides in one statement", async () => {
      const { uid } = unread(2);
      const { body, sent } = await sentDuring(`/api/dpp-lifecycle/v1/dppsByProductId/${uid}?representation=full`);
      expect(body.digitalProductPassportId).to.be.a("string");
      expect(body.anchor.dataHash).to.match(/^0x[0-9a-f]{64}$/);
      expect(body.access.class).to.equal("public");
      const reads = readsOf(sent, [uid, body.digitalProductPassportId]);
      expect(reads, reads.join("\n")).to.have.length(1);
    });

    it("reads the product alone, and reports why, when the indexer's views cannot be read", async () => {
      // Views the statement cannot use: the tables it names, without the columns it reads.
      const schema = `views_broken_${randomBytes(4).toString("hex")}`;
      const db = stack.api.db;
      await db.raw(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.passport (token_id numeric); CREATE TABLE ${schema}.passport_owner (token_id numeric);
        CREATE TABLE ${schema}.supply_chain_event (token_id numeric); CREATE TABLE ${schema}.factory (factory_id numeric)`);
      try {
        const { uid } = unread(3);
        const failures: unknown[] = [];
        const read = await findProductWithChain(db, schema, uid, tokenIdOf(uid), undefined, (error) => failures.push(error));
        expect(read?.product.uid).to.equal(uid);
        expect(read?.chain).to.equal(undefined);
        expect(read?.viewsRead).to.equal(false);
        expect(failures.map((error) => (error as { code?: string }).code)).to.deep.equal(["42703"]);
        // Views not published yet are expected, not a failure to report.
        const unpublished = await findProductWithChain(db, `${schema}_absent`, uid, tokenIdOf(uid), undefined, (error) => failures.push(error));
        expect(unpublished?.viewsRead).to.equal(false);
        expect(failures).to.have.length(1);
      } finally {
        await db.raw(`DROP SCHEMA ${schema} CASCADE`);
      }
    });

    it("reads the product alone, and reports it, when Ponder holds the views' tables (a reorganisation): it does not wait for them", async function () {
      this.timeout(60_000);
      // Tables shaped like the views, with this UID's passport in them, one of which another session holds ACCESS
      // EXCLUSIVE as Ponder's reorganisation does; held until the read returns, or 20 s at most (statements time out
      // at 30 s here, so a read that waits for the lock gets it back and reads the chain: the check below fails).
      const schema = `views_locked_${randomBytes(4).toString("hex")}`;
      const db = stack.api.db;
      const views = ["passport", "passport_owner", "supply_chain_event", "factory"];
      await db.raw(`CREATE SCHEMA ${schema}; ${views.map((view) => `CREATE TABLE ${schema}.${view} AS SELECT * FROM ${stack.api.config.onchainSchema}.${view};`).join(" ")}`);
      const locker = await db.client.acquireConnection();
      try {
        const { uid } = unread(1);
        const unlocked = await findProductWithChain(db, schema, uid, tokenIdOf(uid));
        expect(unlocked?.chain?.passport, "the copied tables hold the passport").to.not.equal(undefined);
        await db.raw(`BEGIN; LOCK TABLE ${schema}.supply_chain_event IN ACCESS EXCLUSIVE MODE`).connection(locker);
        let lockHeld = true;
        const release = setTimeout(() => {
          lockHeld = false;
          void db.raw("ROLLBACK").connection(locker);
        }, 20_000);
        const failures: unknown[] = [];
        const read = await findProductWithChain(db, schema, uid, tokenIdOf(uid), undefined, (error) => failures.push(error)).finally(() => clearTimeout(release));
        expect(lockHeld, "answered while the table was still locked").to.equal(true);
        expect(read?.product.uid).to.equal(uid);
        expect(read?.viewsRead).to.equal(false);
        expect(failures.map((error) => (error as Error).name)).to.deep.equal(["KnexTimeoutError"]);
      } finally {
        await db.raw("ROLLBACK").connection(locker).catch(() => undefined);
        await db.client.releaseConnection(locker);
        await db.raw(`DROP SCHEMA ${schema} CASCADE`);
      }
    });
  });

  describe("GET /api/stats", () => {
    it("counts the platform once for many callers: concurrent and repeated requests share one set of count(*) and one head read", async () => {
      const counts: string[] = [];
      const onQuery = (query: { sql: string }) => {
        if (/AS brands_active|AS passports_minted/.test(query.sql)) counts.push(query.sql);
      };
      stack.api.db.on("query", onQuery);
      try {
        const heads = rpc.count("eth_blockNumber");
        const concurrent = await Promise.all(Array.from({ length: 40 }, () => fetch(`${base}/api/stats`)));
        for (const res of concurrent) expect(res.status).to.equal(200);
        for (let i = 0; i < 20; i += 1) expect((await fetch(`${base}/api/stats`)).status).to.equal(200);
        const body = await json(await fetch(`${base}/api/stats`));
        expect(body.brands).to.be.a("number").greaterThan(0);
        expect(body.passports_minted).to.be.a("number").greaterThan(0);
        expect(body.chain_head_block).to.be.a("number");
        // One snapshot (two statements), or two if the cache turned over mid-test: never one per request.
        expect(counts.length).to.be.at.most(4);
        expect(rpc.count("eth_blockNumber") - heads).to.be.at.most(2);
      } finally {
        stack.api.db.off("query", onQuery);
      }
    });
  });
});
