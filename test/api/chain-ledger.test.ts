// The shared wallet's ledger on a private Hardhat node: two "replicas" (separate pools, providers and ledgers) share
// one wallet without a nonce collision, concurrent issuances on both are minted once each in shared batches with the
// quota exact, and the monitor re-sends a dropped transaction, replaces a stuck one, resumes a row signed by a
// process that stopped, and heals a one-block reorganisation under a mint.
import { buildAppDeps } from "../../api/src/assemble";
import { expect } from "chai";
import { Wallet, type JsonRpcProvider } from "ethers";
import { ProductPassport__factory } from "../../typechain-types";
import { createBrand, getBrand } from "../../api/src/brands/service";
import { createChainAccess } from "../../api/src/chain/access";
import { ChainLedger, type LedgerRow } from "../../api/src/chain/ledger";
import { LedgerMonitor } from "../../api/src/chain/ledger-monitor";
import { createProvider } from "../../api/src/chain/provider";
import { HARDHAT_TEST_KEY, loadConfig, type Config } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import type { AppDeps } from "../../api/src/deps";
import { MonthlyLimitError } from "../../api/src/errors";
import { createLogger } from "../../api/src/logger";
import { periodOf } from "../../api/src/metering/service";
import { dataHashOf, passportContentFor, tokenIdOf } from "../../api/src/passports/content";
import { issuePassport } from "../../api/src/passports/issuance";
import { mintPumpOf } from "../../api/src/passports/mint-pump";
import { effectiveLimits } from "../../api/src/plans/catalogue";
import { findProductByUid } from "../../api/src/products/products.repo";
import { registerProduct } from "../../api/src/products/service";
import type { ChainNode } from "../../scripts/lib/hardhat-node";
import { startPrivateChain, type PrivateChain } from "../support/private-chain";

const silent = createLogger((process.env.LEDGER_TEST_LOG as "warn" | undefined) ?? "silent");
/** Any address: plain value-less transfers are the cheapest transactions to count nonces with. */
const SINK = "0x000000000000000000000000000000000000dEaD";

type Replica = { deps: AppDeps; monitor: LedgerMonitor; close: () => Promise<void> };

describe("shared-wallet ledger (one nonce authority across replicas)", function () {
  this.timeout(180_000);
  let chain: ChainNode;
  let privateChain: PrivateChain;
  let env: Record<string, string>;
  let admin: JsonRpcProvider;
  let a: Replica;
  let b: Replica;

  function replica(overrides: Record<string, string> = {}): Replica {
    const config: Config = loadConfig({ ...env, ...overrides });
    const db = createDb(config.databaseUrl, 10);
    const provider = createProvider(config.rpcUrl, config.chainId);
    const chainAccess = createChainAccess(config, provider, db, silent);
    const deps: AppDeps = buildAppDeps({ config, db, provider, chain: chainAccess, logger: silent });
    // As startLedgerWork does: the issuance handler is registered, so this replica's monitor settles mints.
    mintPumpOf(deps);
    const monitor = new LedgerMonitor({ ledger: chainAccess.ledger, settings: config.chainLedger, logger: silent });
    return {
      deps,
      monitor,
      close: async () => {
        provider.destroy();
        await db.destroy();
      },
    };
  }

  const send = (ledger: ChainLedger, purpose = "test_transfer") => ledger.sendCall({ purpose, to: SINK, data: "0x", gasLimit: 21_000n });
  const certsCounted = async (db: Knex, brandId: number) =>
    Number((await db("app.usage_monthly").where({ brand_id: brandId, period: periodOf(new Date()), meter: "certs" }).first<{ count: number } | undefined>("count"))?.count ?? 0);
  const automine = (on: boolean) => admin.send("evm_setAutomine", [on]);
  const mineOne = () => admin.send("evm_mine", []);

  before(async () => {
    privateChain = await startPrivateChain("chain-ledger");
    chain = privateChain.chain;
    env = { ...privateChain.env, CHAIN_REPLACE_AFTER_S: "1" };
    admin = createProvider(chain.rpcUrl, chain.chainId);
    a = replica();
    b = replica();
  });

  after(async () => {
    await a?.close();
    await b?.close();
    admin?.destroy();
    await privateChain?.stop();
  });

  afterEach(async () => {
    await automine(true);
  });

  it("two replicas sending 2 x 30 transactions at once: all mined, nonces contiguous, none collides", async () => {
    // The deployment sent from the wallet outside the ledger: the ledger starts after it (the node's pending count).
    const first = await admin.getTransactionCount(a.deps.chain.ledger.address, "pending");
    const sent = await Promise.all([
      ...Array.from({ length: 30 }, () => send(a.deps.chain.ledger)),
      ...Array.from({ length: 30 }, () => send(b.deps.chain.ledger)),
    ]);
    const receipts = await Promise.all(sent.map((row, i) => (i < 30 ? a : b).deps.chain.ledger.wait(row.id, { timeoutMs: 60_000 })));
    expect(receipts.every((r) => r.status === 1)).to.equal(true);
    const nonces = sent.map((row) => row.nonce).sort((x, y) => x - y);
    expect(nonces).to.deep.equal(Array.from({ length: 60 }, (_, i) => first + i));
    expect(new Set(receipts.map((r) => r.hash)).size).to.equal(60);
    expect(await admin.getTransactionCount(a.deps.chain.ledger.address, "latest")).to.equal(first + 60);
  });

  it("2 x 20 concurrent issuances on two replicas: each passport minted once, in shared batches, quota exact", async () => {
    const { db } = a.deps;
    const limits = { certs_per_month: 40, api_calls_per_month: 1_000_000, requests_per_hour: 1_000_000 };
    await createBrand(db, { slug: "ledger-brand", name: "Ledger Brand", uidPrefix: "LDG", limitOverrides: limits });
    const brand = await getBrand(db, "ledger-brand");
    const quota = { brandId: brand.id, limits: effectiveLimits({ plan: brand.plan, limit_overrides: brand.limitOverrides }) };
    const uids: string[] = [];
    for (let i = 0; i < 41; i += 1) uids.push((await registerProduct(db, brand, { sku: `L-${i}`, name: `Ledger item ${i}`, category: "t-shirt", price: 100 })).uid);
    const issue = async (r: Replica, uid: string) => issuePassport(r.deps, (await findProductByUid(r.deps.db, uid))!, quota);

    // Each UID asked of both replicas at once: one claim each, 40 certificates counted, none twice.
    const results = await Promise.all(uids.slice(0, 40).flatMap((uid) => [issue(a, uid), issue(b, uid)]));
    expect(results.every((r) => r.status === "minted")).to.equal(true);
    expect(results.filter((r) => r.created)).to.have.length(40);

    const { passport } = a.deps.chain.contracts();
    expect(await passport.balanceOf(a.deps.chain.ledger.address)).to.equal(40n);
    const mints = await db("app.chain_transactions").whereIn("purpose", ["mint", "mint_batch"]).select<LedgerRow[]>("*");
    expect(mints.every((m) => m.status === "final")).to.equal(true);
    expect(mints.length).to.be.lessThan(40);
    const links = await db("app.passports").whereNotNull("chain_tx_id").select<Array<{ chain_tx_id: string }>>("chain_tx_id");
    expect(links).to.have.length(40);
    expect(await certsCounted(db, brand.id)).to.equal(40);

    // The 41st is over the limit: refused with no claim left behind; a repeat of a minted UID costs nothing.
    const over = await issue(a, uids[40]!).catch((error: unknown) => error);
    expect(over).to.be.instanceOf(MonthlyLimitError);
    expect(await db("app.passports").where({ product_id: (await findProductByUid(db, uids[40]!))!.id }).first()).to.equal(undefined);
    expect((await issue(b, uids[0]!)).created).to.equal(false);
    expect(await certsCounted(db, brand.id)).to.equal(40);
  });

  it("a claim whose mint keeps reverting fails for good after three transactions, and its quota unit is refunded then", async () => {
    const { db } = a.deps;
    const brand = await getBrand(db, "ledger-brand");
    const { uid } = await registerProduct(db, brand, { sku: "L-revert", name: "Reverting item", category: "t-shirt", price: 100 });
    const product = (await findProductByUid(db, uid))!;
    const counted = await certsCounted(db, brand.id);
    // A claim as issuePassport makes it, with its unit counted, but a data hash the contract refuses (InvalidDataHash).
    const { deployment } = a.deps.chain.contracts();
    await db.transaction(async (trx) => {
      await trx("app.usage_monthly").where({ brand_id: brand.id, period: periodOf(new Date()), meter: "certs" }).increment("count", 1);
      await trx("app.passports").insert({
        product_id: product.id,
        brand_id: product.brand_id,
        token_id: tokenIdOf(uid),
        data_hash: `0x${"0".repeat(64)}`,
        status: "pending",
        chain_id: deployment.chainId,
        contract_address: deployment.contracts.ProductPassport.address,
        quota_period: periodOf(new Date()),
      });
    });
    mintPumpOf(b.deps).wake();
    let row: { status: string; error: string | null; quota_period: string | null } | undefined;
    for (let i = 0; i < 200 && row?.status !== "failed"; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = await db("app.passports").where({ product_id: product.id }).first("status", "error", "quota_period");
    }
    expect(row!.status).to.equal("failed");
    expect(row!.error).to.match(/reverted/);
    expect(row!.quota_period).to.equal(null);
    expect(await certsCounted(db, brand.id)).to.equal(counted);
    const reverted = await db("app.chain_transactions").where({ purpose: "mint", status: "failed" }).count<{ n: number }>("* as n").first();
    expect(Number(reverted!.n)).to.equal(3);
  });

  it("a transaction the node dropped is broadcast again by the monitor and mines", async () => {
    await automine(false);
    const row = await send(a.deps.chain.ledger);
    expect(await admin.send("hardhat_dropTransaction", [row.tx_hash])).to.equal(true);
    const tick = await b.monitor.tick();
    expect(tick.elected).to.equal(true);
    expect(tick.rebroadcast).to.equal(1);
    await mineOne();
    const receipt = await a.deps.chain.ledger.wait(row.id, { timeoutMs: 10_000 });
    expect(receipt.hash).to.equal(row.tx_hash);
    await b.monitor.tick();
    expect((await a.deps.chain.ledger.find(row.id))!.status).to.equal("final");
  });

  it("a stuck transaction is replaced with higher fees after the set time, and the waiter follows the new hash", async () => {
    await automine(false);
    const row = await send(a.deps.chain.ledger);
    const waiting = a.deps.chain.ledger.wait(row.id, { timeoutMs: 30_000, pollMs: 50 });
    // Not yet due: the first tick leaves it alone.
    expect((await b.monitor.tick()).replaced).to.equal(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await b.monitor.tick()).replaced).to.equal(1);
    const replaced = (await a.deps.chain.ledger.find(row.id))!;
    expect(replaced.hashes).to.deep.equal([row.tx_hash, replaced.tx_hash]);
    // Both fee fields at least 12.5 % higher: clear of the node's replacement rule.
    expect(BigInt(replaced.max_fee_per_gas!) * 1000n >= BigInt(row.max_fee_per_gas!) * 1125n).to.equal(true);
    expect(BigInt(replaced.max_priority_fee_per_gas!) * 1000n >= BigInt(row.max_priority_fee_per_gas!) * 1125n).to.equal(true);
    await mineOne();
    const receipt = await waiting;
    expect(receipt.hash).to.equal(replaced.tx_hash);
    expect(receipt.hash).to.not.equal(row.tx_hash);
  });

  it("a row signed by a process that stopped before broadcasting is sent by a new process", async () => {
    // A ledger whose broadcasts never reach the node: its row stays `signed`, as after a crash right after the commit.
    class Unplugged extends ChainLedger {
      protected override tryBroadcast(): Promise<string | undefined> {
        return Promise.resolve("unplugged");
      }
    }
    const { config, db, provider } = a.deps;
    const unplugged = new Unplugged({ db, provider, privateKey: config.signerPrivateKey, chainId: config.chainId, logger: silent, confirmations: 1 });
    const row = await send(unplugged);
    expect((await unplugged.find(row.id))!.status).to.equal("signed");
    expect(await admin.getTransaction(row.tx_hash)).to.equal(null);

    const restarted = replica();
    try {
      expect((await restarted.monitor.tick()).rebroadcast).to.equal(1);
      const receipt = await restarted.deps.chain.ledger.wait(row.id, { timeoutMs: 10_000 });
      expect(receipt.status).to.equal(1);
      await restarted.monitor.tick();
      expect((await restarted.deps.chain.ledger.find(row.id))!.status).to.equal("final");
    } finally {
      await restarted.close();
    }
  });

  it("a nonce taken by a transaction sent outside the ledger: the call is superseded and sent again, the waiter follows", async () => {
    await automine(false);
    const row = await send(a.deps.chain.ledger);
    const waiting = a.deps.chain.ledger.wait(row.id, { timeoutMs: 30_000, pollMs: 50 });
    // Someone else spends the same nonce with the same key (the node drops ours, theirs is mined).
    await admin.send("hardhat_dropTransaction", [row.tx_hash]);
    const outside = new Wallet(HARDHAT_TEST_KEY, admin);
    const fees = await admin.getFeeData();
    await outside.sendTransaction({ to: SINK, value: 1n, nonce: row.nonce, gasLimit: 21_000n, maxFeePerGas: fees.maxFeePerGas! * 2n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas! * 2n });
    await mineOne();
    await automine(true);
    // Acted on when seen on two ticks in a row.
    expect((await b.monitor.tick()).superseded).to.equal(0);
    expect((await b.monitor.tick()).superseded).to.equal(1);
    const gone = (await a.deps.chain.ledger.find(row.id))!;
    expect(gone.status).to.equal("superseded");
    expect(gone.superseded_by).to.be.a("number");
    const receipt = await waiting;
    const redo = (await a.deps.chain.ledger.find(gone.superseded_by!))!;
    expect(receipt.hash).to.equal(redo.tx_hash);
    expect(redo.nonce).to.be.greaterThan(row.nonce);
  });

  it("a one-block reorganisation under a mint: the passport goes back to pending, is minted again once, cert.issued at depth once", async () => {
    // This replica waits for 3 confirmations before a mint is final (and its cert.issued goes out).
    const deep = replica({ CONFIRMATIONS: "3" });
    try {
      const { db } = deep.deps;
      const brand = await getBrand(db, "ledger-brand");
      const { uid } = await registerProduct(db, brand, { sku: "L-reorg", name: "Reorged item", category: "t-shirt", price: 100 });
      const product = (await findProductByUid(db, uid))!;
      const snapshot = await admin.send("evm_snapshot", []);
      const issued = await issuePassport(deep.deps, product);
      expect(issued.status).to.equal("minted");
      const events = () => db("app.webhook_events").where({ dedupe_key: `cert.issued:${uid}` }).select("id");
      expect(await events()).to.have.length(0);

      // Another branch: back to before the mint, and one (empty) block in its place.
      expect(await admin.send("evm_revert", [snapshot])).to.equal(true);
      await mineOne();
      const tick = await deep.monitor.tick();
      expect(tick.reorgs).to.have.length(1);
      expect(tick.reorgs[0]!.deep).to.equal(false);
      // No page shows it verified while its transaction is not on the chain.
      expect((await db("app.passports").where({ product_id: product.id }).first()).status).to.equal("pending");
      const reorg = await db("app.chain_reorgs").orderBy("id", "desc").first();
      expect(reorg.deep).to.equal(false);

      // The monitor re-sent it (automine mined it); the next ticks record it, then finalise it at depth 3.
      await deep.monitor.tick();
      const again = await db("app.passports").where({ product_id: product.id }).first();
      expect(again.status).to.equal("minted");
      expect(await events()).to.have.length(0);
      await mineOne();
      await mineOne();
      await deep.monitor.tick();
      expect(await events()).to.have.length(1);
      const { passport } = deep.deps.chain.contracts();
      expect(await passport.exists(BigInt(again.token_id))).to.equal(true);
      const mints = await db("app.passports as x").join("app.chain_transactions as t", "t.id", "x.chain_tx_id").where("x.product_id", product.id).select("t.status");
      expect(mints.map((m: { status: string }) => m.status)).to.deep.equal(["final"]);
    } finally {
      await deep.close();
    }
  });

  it("a reverted transaction whose block leaves the chain is sent again, so the wallet's next transaction is not stuck behind its nonce", async () => {
    const deep = replica({ CONFIRMATIONS: "3" });
    try {
      const { ledger } = deep.deps.chain;
      const { deployment } = deep.deps.chain.contracts();
      const snapshot = await admin.send("evm_snapshot", []);
      // A call the passport contract refuses (no such function): mined, reverted.
      const refused = await ledger.sendCall({ purpose: "test_revert", to: deployment.contracts.ProductPassport.address, data: "0xdeadbeef", gasLimit: 100_000n });
      await deep.monitor.tick();
      const recorded = (await ledger.find(refused.id))!;
      expect(recorded.status).to.equal("failed");
      expect(recorded.block_hash).to.be.a("string");

      // Another branch without it: its nonce is free again. The wallet's next transaction comes after it.
      expect(await admin.send("evm_revert", [snapshot])).to.equal(true);
      await mineOne();
      const next = await send(ledger);
      expect(next.nonce).to.equal(refused.nonce + 1);
      let state = (await ledger.find(next.id))!;
      for (let i = 0; i < 6 && !["mined", "final"].includes(state.status); i += 1) {
        await deep.monitor.tick();
        state = (await ledger.find(next.id))!;
      }
      expect(state.status, "the next transaction mines once the gap is filled").to.be.oneOf(["mined", "final"]);
      const again = (await ledger.find(refused.id))!;
      expect(again.status).to.equal("failed");
      expect(again.block_hash).to.not.equal(recorded.block_hash);
      const reorg = await deep.deps.db("app.chain_reorgs").where({ chain_tx_id: refused.id }).first();
      expect(reorg).to.include({ deep: false });
      // Mined on the new branch under the same hash: the same signed bytes.
      expect(again.mined_hash).to.equal(recorded.mined_hash);
    } finally {
      await deep.close();
    }
  });

  it("a claim found minted on chain already is settled, with its cert.issued, only once that mint is at the depth", async () => {
    const deep = replica({ CONFIRMATIONS: "3" });
    try {
      const { db } = deep.deps;
      const brand = await getBrand(db, "ledger-brand");
      const { uid } = await registerProduct(db, brand, { sku: "L-adopt", name: "Adopted item", category: "t-shirt", price: 100 });
      const product = (await findProductByUid(db, uid))!;
      const { deployment } = deep.deps.chain.contracts();
      // Minted outside the ledger (an old signer, a process that died after sending), one block deep.
      const outside = ProductPassport__factory.connect(deployment.contracts.ProductPassport.address, new Wallet(HARDHAT_TEST_KEY, admin));
      await (await outside.mint(deep.deps.chain.ledger.address, tokenIdOf(uid), 0, dataHashOf(passportContentFor(product)))).wait();
      // A retaken claim: it may be on chain already, so the pump looks before it mints.
      await db("app.passports").insert({
        product_id: product.id,
        brand_id: product.brand_id,
        token_id: tokenIdOf(uid),
        data_hash: dataHashOf(passportContentFor(product)),
        status: "pending",
        chain_id: deployment.chainId,
        contract_address: deployment.contracts.ProductPassport.address,
        recheck_chain: true,
      });
      const pump = mintPumpOf(deep.deps);
      const run = async () => {
        pump.wake();
        await pump.stop();
      };
      const events = () => db("app.webhook_events").where({ dedupe_key: `cert.issued:${uid}` }).select("id");
      await run();
      expect((await db("app.passports").where({ product_id: product.id }).first()).status, "one block deep").to.equal("pending");
      expect(await events()).to.have.length(0);
      await mineOne();
      await mineOne();
      await run();
      const settled = await db("app.passports").where({ product_id: product.id }).first();
      expect(settled.status, "three blocks deep").to.equal("minted");
      expect(await events()).to.have.length(1);
      await run();
      expect(await events()).to.have.length(1);
    } finally {
      await deep.close();
    }
  });

  it("a reorganisation deeper than the confirmation depth is recorded as deep, healed, and sends no event twice", async () => {
    const { db } = a.deps;
    const brand = await getBrand(db, "ledger-brand");
    const { uid } = await registerProduct(db, brand, { sku: "L-deep", name: "Deep reorg item", category: "t-shirt", price: 100 });
    const product = (await findProductByUid(db, uid))!;
    const snapshot = await admin.send("evm_snapshot", []);
    // Confirmations 1: final (and cert.issued) at once.
    expect((await issuePassport(a.deps, product)).status).to.equal("minted");
    const events = () => db("app.webhook_events").where({ dedupe_key: `cert.issued:${uid}` }).select("id");
    expect(await events()).to.have.length(1);
    expect(await admin.send("evm_revert", [snapshot])).to.equal(true);
    await mineOne();
    const tick = await b.monitor.tick();
    expect(tick.reorgs.map((r) => r.deep)).to.deep.equal([true]);
    await b.monitor.tick();
    expect((await db("app.passports").where({ product_id: product.id }).first()).status).to.equal("minted");
    expect(await a.deps.chain.contracts().passport.exists(BigInt((await db("app.passports").where({ product_id: product.id }).first()).token_id))).to.equal(true);
    expect(await events()).to.have.length(1);
    expect((await db("app.chain_reorgs").where({ deep: true })).length).to.be.at.least(1);
  });
});
