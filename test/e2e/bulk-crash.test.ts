// Bulk issuance under SIGKILL (issue 28): for each step a bulk job goes through (a chunk of claims committed; a mint
// transaction signed, sent, mined), a replica running the job kills itself there; a fresh replica takes over with
// nobody retrying anything. Afterwards every product of the job is minted exactly once (on chain, in app.passports,
// no mint transaction reverted as a duplicate), the certificate counter equals the passports minted, every passport
// has one cert.issued, and the job has completed with one issuance.completed.
import { chmodSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { JsonRpcProvider, Network } from "ethers";
import { ProductPassport__factory, type ProductPassport } from "../../typechain-types";
import { createBrand } from "../../api/src/brands/service";
import type { BulkCrashPoint, CrashPoint } from "../../api/src/chain/crash-points";
import { loadConfig } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { monthlyUsage } from "../../api/src/metering/service";
import { insertIssuanceJob } from "../../api/src/passports/bulk-issuance.repo";
import { tokenIdOf } from "../../api/src/passports/content";
import { batchSizeFor } from "../../api/src/passports/mint-pump";
import { registerProduct, type Brand } from "../../api/src/products/service";
import type { ChainNode } from "../../scripts/lib/hardhat-node";
import { removeWorkDir, spawnLogged, waitFor, type Child } from "../../scripts/lib/processes";
import { startDeployedChain } from "../../scripts/lib/stack";
import { createTestDatabase } from "../support/hooks";
import { bundleTestEntry } from "../support/replicas";

const ROOT = path.resolve(__dirname, "..", "..");
/**
 * A job of several claim chunks and several mintBatch transactions, at a smaller scale than production's (1,000 claims
 * a chunk, 200 passports a batch on a 30M-gas block): BULK_CLAIM_CHUNK, and a block gas limit that makes the mint pump
 * size its batches at 40 (mint-pump.ts batchSizeFor). What is tested is the crash at each step, not the volume.
 */
const PRODUCTS_PER_JOB = 250;
const CLAIM_CHUNK = 100;
const BLOCK_GAS_LIMIT = 2_640_000;
const BATCH = 40;
const STEPS: Array<{ step: CrashPoint | BulkCrashPoint; after: number }> = [
  { step: "bulk-claimed", after: 1 },
  { step: "signed", after: 2 },
  { step: "sent", after: 3 },
  { step: "mined", after: 2 },
];

describe("bulk issuance: SIGKILL at each step of a job, then a fresh replica", function () {
  this.timeout(900_000);
  let chain: ChainNode;
  let provider: JsonRpcProvider;
  let passport: ProductPassport;
  let db: Knex;
  let env: Record<string, string>;
  let brand: Brand;
  let workDir: string;
  /** bulk-replica.ts bundled into JavaScript: each replica starts without loading TypeScript. */
  let bundle: string;
  const children: Child[] = [];

  before(async function () {
    this.timeout(240_000);
    workDir = mkdtempSync(path.join(os.tmpdir(), "bulk-crash-"));
    chmodSync(workDir, 0o755);
    const databaseUrl = await createTestDatabase("bulk_crash");
    const bundling = bundleTestEntry("bulk-replica");
    const started = await startDeployedChain(workDir);
    chain = started.chain;
    env = {
      SERVICE_MODE: "local",
      LOG_LEVEL: "warn",
      DATABASE_URL: databaseUrl,
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      DEPLOYMENTS_DIR: started.deploymentsDir,
      CONFIRMATIONS: "1",
      CHAIN_MONITOR_INTERVAL_MS: "200",
      BULK_CLAIM_CHUNK: String(CLAIM_CHUNK),
    };
    db = createDb(loadConfig(env).databaseUrl, 5);
    await migrateLatest(db);
    provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true, cacheTimeout: -1 });
    passport = ProductPassport__factory.connect(started.deployment.contracts.ProductPassport.address, provider);
    await provider.send("evm_setBlockGasLimit", [`0x${BLOCK_GAS_LIMIT.toString(16)}`]);
    await provider.send("evm_mine", []);
    expect(batchSizeFor((await provider.getBlock("latest"))!.gasLimit, await passport.MAX_BATCH())).to.equal(BATCH);
    const created = await createBrand(db, {
      slug: "bulk-crash",
      name: "Bulk Crash",
      uidPrefix: "BCR",
      limitOverrides: { api_calls_per_month: 1_000_000, requests_per_hour: 1_000_000, certs_per_month: 1_000_000 },
    });
    brand = { id: created.brand.id, slug: created.brand.slug, uidPrefix: created.brand.uidPrefix };
    bundle = await bundling;
  });

  after(async () => {
    for (const child of children) await child.stop();
    provider?.destroy();
    await db?.destroy();
    await chain?.stop();
    if (workDir) removeWorkDir(workDir);
  });

  function replica(name: string, extra: Record<string, string>): Child {
    const child = spawnLogged(name, process.execPath, [bundle], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env, ...extra },
      logFile: path.join(workDir, `${name}.log`),
    });
    children.push(child);
    return child;
  }

  let minted = 0;
  for (const { step, after } of STEPS) {
    const nth = ["first", "second", "third"][after - 1];
    it(`a replica killed the ${nth} time it reaches "${step}" leaves a job the next one finishes: each passport minted once`, async function () {
      const uids: number[] = [];
      const uidOf = new Map<number, string>();
      // Registered 25 at a time: the products are the setting, not what is tested, and one by one they took a third of the file.
      for (let start = 0; start < PRODUCTS_PER_JOB; start += 25) {
        const batch = Array.from({ length: Math.min(25, PRODUCTS_PER_JOB - start) }, (_, k) => start + k);
        const products = await Promise.all(batch.map((i) => registerProduct(db, brand, { sku: `${step}-${i}`, name: `Crash tee ${i}`, category: "t-shirt", price: 100 })));
        for (const product of products) {
          uids.push(product.productId);
          uidOf.set(product.productId, product.uid);
        }
      }
      const job = await db.transaction((trx) => insertIssuanceJob(trx, { brandId: brand.id, importId: null, productIds: uids }));

      const victim = replica(`victim-${step}`, { CRASH_AT: step, CRASH_AFTER: String(after) });
      const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => victim.process.once("exit", (code, signal) => resolve({ code, signal })));
      expect(exit.signal, `the victim should die at ${step}; see ${victim.logFile}`).to.equal("SIGKILL");
      const left = await db("app.issuance_jobs").where({ id: job.id }).first<{ state: string }>("state");
      expect(left!.state).to.not.equal("completed");

      const healer = replica(`healer-${step}`, {});
      await waitFor(
        "the job to complete",
        async () => {
          if (healer.process.exitCode !== null) throw new Error(`the healer exited; see ${healer.logFile}`);
          const row = await db("app.issuance_jobs").where({ id: job.id }).first<{ state: string }>("state");
          return row!.state === "completed" ? true : undefined;
        },
        300_000,
        250,
      );
      await healer.stop();
      minted += PRODUCTS_PER_JOB;

      const rows = await db("app.passports").whereIn("product_id", uids).select<Array<{ product_id: number; status: string }>>("product_id", "status");
      expect(rows.filter((r) => r.status === "minted")).to.have.length(PRODUCTS_PER_JOB);
      // On chain: each token exists, and the wallet holds exactly the passports minted so far (nothing twice).
      for (const id of uids.filter((_, i) => i % 50 === 0)) expect(await passport.exists(tokenIdOf(uidOf.get(id)!))).to.equal(true);
      expect(Number(await passport.balanceOf(await passport.custodian()))).to.equal(minted);
      const reverted = await db("app.chain_transactions").where({ status: "failed" }).count<{ count: string }[]>("* as count");
      expect(Number(reverted[0]!.count)).to.equal(0);
      expect((await monthlyUsage(db, brand.id)).certsIssued).to.equal(minted);
      const issued = await db("app.webhook_events").where({ type: "cert.issued" }).whereIn("dedupe_key", [...uidOf.values()].map((uid) => `cert.issued:${uid}`));
      expect(issued).to.have.length(PRODUCTS_PER_JOB);
      expect(await db("app.webhook_events").where({ dedupe_key: `issuance.completed:${job.id}` })).to.have.length(1);
      const progress = await db("app.issuance_job_items").where({ job_id: job.id, claimed: true }).whereNull("refused").count<{ count: string }[]>("* as count");
      expect(Number(progress[0]!.count)).to.equal(PRODUCTS_PER_JOB);
    });
  }
});
