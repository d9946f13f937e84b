// Review of the shared-wallet ledger (issue 15), on a private Hardhat node: defects found by trying to break it,
// each proven here. A claim the contract refuses must not take the claims batched with it down: after a batch
// reverts, its claims are minted one by one, so only the refused claim fails for good (and only its unit is refunded).
import { buildAppDeps } from "../../api/src/assemble";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { Wallet } from "ethers";
import { createBrand, getBrand } from "../../api/src/brands/service";
import { createChainAccess } from "../../api/src/chain/access";
import { createProvider } from "../../api/src/chain/provider";
import { HARDHAT_TEST_KEY, loadConfig, type Config } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import type { AppDeps } from "../../api/src/deps";
import { createLogger } from "../../api/src/logger";
import { periodOf } from "../../api/src/metering/service";
import { dataHashOf, passportContentFor, tokenIdOf } from "../../api/src/passports/content";
import { mintPumpOf, startLedgerWork } from "../../api/src/passports/mint-pump";
import { issuePassport } from "../../api/src/passports/issuance";
import { effectiveLimits } from "../../api/src/plans/catalogue";
import { findProductByUid, type ProductRow } from "../../api/src/products/products.repo";
import { registerProduct } from "../../api/src/products/service";
import type { ChainNode } from "../../scripts/lib/hardhat-node";
import { startPrivateChain, type PrivateChain } from "../support/private-chain";

const silent = createLogger((process.env.LEDGER_TEST_LOG as "warn" | undefined) ?? "silent");

describe("shared-wallet ledger review (issue 15)", function () {
  this.timeout(180_000);
  let chain: ChainNode;
  let privateChain: PrivateChain;
  let deps: AppDeps;

  const certsCounted = async (db: Knex, brandId: number) =>
    Number((await db("app.usage_monthly").where({ brand_id: brandId, period: periodOf(new Date()), meter: "certs" }).first<{ count: number } | undefined>("count"))?.count ?? 0);

  before(async () => {
    privateChain = await startPrivateChain("chain-ledger-review");
    chain = privateChain.chain;
    const config: Config = loadConfig(privateChain.env);
    const db = createDb(config.databaseUrl, 10);
    const provider = createProvider(config.rpcUrl, config.chainId);
    deps = buildAppDeps({ config, db, provider, chain: createChainAccess(config, provider, db, silent), logger: silent });
    mintPumpOf(deps);
  });

  after(async () => {
    await mintPumpOf(deps).stop();
    deps?.provider.destroy();
    await deps?.db.destroy();
    await privateChain?.stop();
  });

  it("a claim the contract refuses, batched with good claims, fails alone: the others are minted and keep their unit", async () => {
    const { db } = deps;
    await createBrand(db, { slug: "review-brand", name: "Review Brand", uidPrefix: "RVW" });
    const brand = await getBrand(db, "review-brand");
    const products: ProductRow[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { uid } = await registerProduct(db, brand, { sku: `R-${i}`, name: `Review item ${i}`, category: "t-shirt", price: 100 });
      products.push((await findProductByUid(db, uid))!);
    }
    const counted = await certsCounted(db, brand.id);
    // Three claims as issuePassport makes them, each with its unit counted, in one transaction so one pump run
    // batches them; the first has a data hash the contract refuses (InvalidDataHash), so the batch reverts.
    const { deployment } = deps.chain.contracts();
    await db.transaction(async (trx) => {
      await trx.raw(
        "INSERT INTO app.usage_monthly (brand_id, period, meter, count) VALUES (?, ?, 'certs', 3) ON CONFLICT (brand_id, period, meter) DO UPDATE SET count = app.usage_monthly.count + 3",
        [brand.id, periodOf(new Date())],
      );
      for (const [i, product] of products.entries()) {
        await trx("app.passports").insert({
          product_id: product.id,
          brand_id: product.brand_id,
          token_id: tokenIdOf(product.uid),
          data_hash: i === 0 ? `0x${"0".repeat(64)}` : dataHashOf(passportContentFor(product)),
          status: "pending",
          chain_id: deployment.chainId,
          contract_address: deployment.contracts.ProductPassport.address,
          quota_period: periodOf(new Date()),
          requested_at: trx.raw(`now() + make_interval(secs => ${i})`),
        });
      }
    });
    mintPumpOf(deps).wake();
    const ids = products.map((p) => p.id);
    let rows: Array<{ product_id: number; status: string }> = [];
    for (let i = 0; i < 300; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await db("app.passports").whereIn("product_id", ids).orderBy("product_id").select("product_id", "status");
      if (rows.every((r) => r.status !== "pending")) break;
    }
    expect(rows.map((r) => r.status)).to.deep.equal(["failed", "minted", "minted"]);
    const { passport } = deps.chain.contracts();
    expect(await passport.exists(tokenIdOf(products[1]!.uid))).to.equal(true);
    expect(await passport.exists(tokenIdOf(products[2]!.uid))).to.equal(true);
    // Only the refused claim's unit is given back.
    expect(await certsCounted(db, brand.id)).to.equal(counted + 2);
  });

  it("five concurrent issuances of one UID, ten times over, with the pump and monitor running: no error, one claim each, quota exact", async () => {
    const { db } = deps;
    await createBrand(db, { slug: "probe-brand", name: "Probe Brand", uidPrefix: "PRB" });
    const brand = await getBrand(db, "probe-brand");
    const quota = { brandId: brand.id, limits: effectiveLimits({ plan: brand.plan, limit_overrides: brand.limitOverrides }) };
    const work = startLedgerWork({ ...deps, config: { ...deps.config, chainLedger: { ...deps.config.chainLedger, monitorIntervalMs: 20 } } });
    const errors: unknown[] = [];
    let created = 0;
    try {
      for (let round = 0; round < 10; round += 1) {
        const { uid } = await registerProduct(db, brand, { sku: `P-${round}`, name: `Probe ${round}`, category: "t-shirt", price: 100 });
        const results = await Promise.allSettled(Array.from({ length: 5 }, async () => issuePassport(deps, (await findProductByUid(db, uid))!, quota)));
        for (const r of results) {
          if (r.status === "rejected") errors.push(r.reason);
          else if (r.value.created) created += 1;
        }
      }
    } finally {
      await work.stop();
    }
    expect(errors).to.deep.equal([]);
    expect(created).to.equal(10);
    expect(await certsCounted(db, brand.id)).to.equal(10);
  });

  it("an issuance of a minted UID while a ledger handler updates its passport row twice: no deadlock", async () => {
    // The monitor's handlers update a passport row more than once in one transaction (minted, then events sent); the
    // second update checks the row's foreign key with FOR KEY SHARE on the product. A repeat issuance holding the
    // product row FOR UPDATE while its insert waits on that transaction deadlocked (seen in CI as a 500).
    const { db } = deps;
    await createBrand(db, { slug: "lock-brand", name: "Lock Brand", uidPrefix: "LCK" });
    const brand = await getBrand(db, "lock-brand");
    const { uid } = await registerProduct(db, brand, { sku: "L-1", name: "Lock probe", category: "t-shirt", price: 100 });
    const product = (await findProductByUid(db, uid))!;
    expect((await issuePassport(deps, product)).status).to.equal("minted");

    const handler = await db.transaction();
    try {
      await handler("app.passports").where({ product_id: product.id }).update({ events_sent: false });
      const repeat = issuePassport(deps, product);
      let waiting = false;
      for (let i = 0; i < 200 && !waiting; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        const row = await db.raw<{ rows: unknown[] }>(
          "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'insert into \"app\".\"passports\"%'",
        );
        waiting = row.rows.length > 0;
      }
      expect(waiting, "the repeat issuance's insert waits on the handler's transaction").to.equal(true);
      await handler("app.passports").where({ product_id: product.id }).update({ events_sent: true });
      await handler.commit();
      const again = await repeat;
      expect(again.created).to.equal(false);
      expect(again.status).to.equal("minted");
    } finally {
      if (!handler.isCompleted()) await handler.rollback();
    }
  });

  it("a claim the pump cannot settle from the chain (the node refuses its log query) does not stop other claims being minted", async () => {
    const { db, config } = deps;
    // A JSON-RPC proxy in front of the node that refuses eth_getLogs, as hosted nodes refuse a too-wide block range.
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const calls = JSON.parse(body) as { id: number; method: string } | Array<{ id: number; method: string }>;
        const refused = (Array.isArray(calls) ? calls : [calls]).some((c) => c.method === "eth_getLogs");
        if (refused) {
          const answer = (c: { id: number }) => ({ jsonrpc: "2.0", id: c.id, error: { code: -32005, message: "block range too large" } });
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls)));
          return;
        }
        void fetch(chain.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body }).then(async (r) => {
          res.setHeader("content-type", "application/json");
          res.end(await r.text());
        });
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const provider = createProvider(proxyUrl, config.chainId);
    const viaProxy: AppDeps = { ...deps, config: { ...config, rpcUrl: proxyUrl }, provider, chain: createChainAccess({ ...config, rpcUrl: proxyUrl }, provider, db, silent) };
    try {
      const brand = await getBrand(db, "review-brand");
      const made: ProductRow[] = [];
      for (const sku of ["R-onchain", "R-good"]) {
        const { uid } = await registerProduct(db, brand, { sku, name: sku, category: "t-shirt", price: 100 });
        made.push((await findProductByUid(db, uid))!);
      }
      const [onChain, good] = made as [ProductRow, ProductRow];
      // The first is minted outside the ledger (as the demo seed does), and its claim asks the pump to look first.
      const direct = new Wallet(HARDHAT_TEST_KEY, deps.provider);
      const { passport, deployment } = deps.chain.contracts();
      await (await passport.connect(direct).mint(direct.address, tokenIdOf(onChain.uid), 0, dataHashOf(passportContentFor(onChain)))).wait();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const claim = (product: ProductRow, recheck: boolean) => ({
        product_id: product.id,
        brand_id: product.brand_id,
        token_id: tokenIdOf(product.uid),
        data_hash: dataHashOf(passportContentFor(product)),
        status: "pending",
        chain_id: deployment.chainId,
        contract_address: deployment.contracts.ProductPassport.address,
        recheck_chain: recheck,
      });
      await db("app.passports").insert([claim(onChain, true), claim(good, false)]);
      mintPumpOf(viaProxy).wake();
      let status = "pending";
      for (let i = 0; i < 50 && status === "pending"; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        mintPumpOf(viaProxy).wake();
        status = (await db("app.passports").where({ product_id: good.id }).first<{ status: string }>("status"))!.status;
      }
      expect(status).to.equal("minted");
    } finally {
      await mintPumpOf(viaProxy).stop();
      provider.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
