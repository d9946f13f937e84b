// The crash matrix (issue 15): two issuer replicas on one Postgres and one chain, a dispatcher delivering to a real
// receiver. For each step of issuance, a replica started with CRASH_AT=<step> kills itself (SIGKILL) mid-issuance
// CRASH_KILLS_PER_STEP times (4 in `npm test`, enough for each of a victim's three UIDs to be the one it dies on; 20
// in `npm run test:soak`) while the other keeps issuing; a fresh one takes its place. Afterwards, without any client
// retrying: every requested UID is minted once (on chain and in app.passports), the brand's certificate counter
// equals the passports minted, and every cert.issued is delivered exactly once.
import { mkdtempSync, chmodSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import { JsonRpcProvider, Network, ZeroAddress } from "ethers";
import { ProductPassport__factory, type ProductPassport } from "../../typechain-types";
import { createBrand } from "../../api/src/brands/service";
import { CRASH_POINTS, type CrashPoint } from "../../api/src/chain/crash-points";
import { loadConfig, type Config } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { createLogger } from "../../api/src/logger";
import { monthlyUsage } from "../../api/src/metering/service";
import { tokenIdOf } from "../../api/src/passports/content";
import { registerProduct, type Brand } from "../../api/src/products/service";
import { Dispatcher } from "../../api/src/webhooks/dispatcher";
import { setDashboardWebhook } from "../../api/src/webhooks/endpoints";
import type { ChainNode } from "../../scripts/lib/hardhat-node";
import { removeWorkDir } from "../../scripts/lib/processes";
import { startDeployedChain } from "../../scripts/lib/stack";
import { createTestDatabase } from "../support/hooks";
import { bundleTestEntry, spawnReplica, type Replica } from "../support/replicas";
import type { IssueAnswer } from "../support/issuer-replica";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

const KILLS_PER_STEP = killsPerStep(process.env.CRASH_KILLS_PER_STEP ?? "4");
/** UIDs sent to the replica that is to die, per attempt (its CRASH_AFTER picks which of them it dies on). */
const PER_VICTIM = 3;
/** UIDs sent to the surviving replica meanwhile. */
const PER_SURVIVOR = 2;
/** Attempts at one victim before its step counts as not reached. */
const ATTEMPTS = 8;
const HEAL_MS = 60_000;
/** Victims booting at once (the one about to work included). */
const PREBOOT = 2;

function killsPerStep(value: string): number {
  const kills = Number(value);
  if (!Number.isInteger(kills) || kills < 1 || kills > 1000) throw new Error(`CRASH_KILLS_PER_STEP must be an integer from 1 to 1000, not ${JSON.stringify(value)}`);
  return kills;
}

type Row = {
  step: CrashPoint;
  kills: number;
  notReached: number;
  issuances: number;
  /** Requests cut by a kill, retried by the client afterwards. */
  retries: number;
  /** Claims the service had committed that no replica minted before any client retried. */
  unhealed: number;
  /** Requested UIDs not minted in the end. */
  lost: number;
  lostOnChain: number;
  duplicates: number;
  revertedMints: number;
  quotaDelta: number;
  undelivered: number;
  doubleDeliveries: number;
  seconds: number;
};

describe("crash matrix: SIGKILL at each step of issuance with two replicas", function () {
  this.timeout(600_000);
  let chain: ChainNode;
  let provider: JsonRpcProvider;
  let passport: ProductPassport;
  let db: Knex;
  let config: Config;
  let env: Record<string, string>;
  let receiver: WebhookReceiver;
  let dispatcher: Dispatcher;
  let bundle: string;
  let workDir: string;
  let brand: Brand;
  let survivor: Replica;
  const replicas: Replica[] = [];
  const startTimes: number[] = [];
  const rows: Row[] = [];
  let serial = 0;

  before(async function () {
    this.timeout(240_000);
    workDir = mkdtempSync(path.join(os.tmpdir(), "chain-crash-"));
    chmodSync(workDir, 0o755);
    const databaseUrl = await createTestDatabase("chain_crash");
    const bundling = bundleTestEntry("issuer-replica");
    const started = await startDeployedChain(workDir);
    chain = started.chain;
    const { deployment, deploymentsDir } = started;
    env = {
      SERVICE_MODE: "local",
      LOG_LEVEL: "warn",
      DATABASE_URL: databaseUrl,
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      DEPLOYMENTS_DIR: deploymentsDir,
      CONFIRMATIONS: "1",
      // The ledger monitor at test speed.
      CHAIN_MONITOR_INTERVAL_MS: "200",
    };
    config = loadConfig(env);
    db = createDb(config.databaseUrl, 5);
    await migrateLatest(db);
    provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true, cacheTimeout: -1 });
    passport = ProductPassport__factory.connect(deployment.contracts.ProductPassport.address, provider);

    const created = await createBrand(db, {
      slug: "crash-brand",
      name: "Crash Brand",
      uidPrefix: "CRASH",
      limitOverrides: { api_calls_per_month: 1_000_000, requests_per_hour: 1_000_000, certs_per_month: 1_000_000 },
    });
    brand = { id: created.brand.id, slug: created.brand.slug, uidPrefix: created.brand.uidPrefix };
    receiver = await startWebhookReceiver();
    await setDashboardWebhook({ db, config }, brand.id, `${receiver.url}/dashboard`);
    dispatcher = new Dispatcher({ config, db, logger: createLogger("silent"), pollIntervalMs: 100, watchIntervalMs: 1000 });
    dispatcher.start();

    bundle = await bundling;
    survivor = start("survivor", {});
    await survivor.ready;
  });

  after(async function () {
    this.timeout(60_000);
    printMatrix();
    for (const replica of replicas) await replica.stop().catch(() => undefined);
    await dispatcher?.stop(2000);
    await receiver?.close();
    provider?.destroy();
    await db?.destroy();
    await chain?.stop();
    if (workDir) removeWorkDir(workDir);
  });

  function start(name: string, extra: Record<string, string>): Replica {
    const began = performance.now();
    const replica = spawnReplica(bundle, name, { ...env, ...extra }, path.join(workDir, "replicas", `${name}.log`));
    void replica.ready.then(() => startTimes.push(performance.now() - began)).catch(() => undefined);
    replicas.push(replica);
    return replica;
  }

  async function freshUids(count: number): Promise<string[]> {
    const uids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      serial += 1;
      uids.push((await registerProduct(db, brand, { sku: `CR-${serial}`, name: `Crash item ${serial}`, category: "t-shirt", price: 100 })).uid);
    }
    return uids;
  }

  const certsCounted = async () => (await monthlyUsage(db, brand.id)).certsIssued;

  async function runStep(step: CrashPoint): Promise<Row> {
    const began = performance.now();
    const fromBlock = (await provider.getBlockNumber()) + 1;
    const countedBefore = await certsCounted();
    const uids: string[] = [];
    const answers: Array<Promise<IssueAnswer[]>> = [];
    let kills = 0;
    let notReached = 0;
    const victimEnv = (round: number) => ({ CRASH_AT: step, CRASH_AFTER: String((round % PER_VICTIM) + 1) });
    // The next victims boot while this one works, so a kill costs (nearly) no start-up time.
    const booting: Replica[] = [];
    const spawnUpTo = (round: number) => {
      for (let r = round + booting.length; r <= Math.min(round + PREBOOT - 1, KILLS_PER_STEP); r += 1) booting.push(start(`${step}-${r}`, victimEnv(r)));
    };
    for (let round = 1; round <= KILLS_PER_STEP; round += 1) {
      spawnUpTo(round);
      const victim = booting.shift()!;
      spawnUpTo(round + 1);
      await victim.ready;
      for (let attempt = 0; attempt < ATTEMPTS && victim.alive(); attempt += 1) {
        const forVictim = await freshUids(PER_VICTIM);
        const forSurvivor = await freshUids(PER_SURVIVOR);
        uids.push(...forVictim, ...forSurvivor);
        answers.push(survivor.issue(brand.slug, forSurvivor));
        const victimAnswers = victim.issue(brand.slug, forVictim);
        answers.push(victimAnswers);
        await victimAnswers;
      }
      const exit = await Promise.race([victim.exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000))]);
      if (exit?.signal === "SIGKILL") kills += 1;
      else {
        notReached += 1;
        await victim.stop();
      }
    }
    expect(survivor.alive(), "the surviving replica is still running").to.equal(true);
    const answered = (await Promise.all(answers)).flat();

    // Healing: nobody retries yet; every claim the service committed (the dead replica's included) must be minted
    // by the other replica or the next one to start.
    const claimCounts = async () =>
      (await db("app.passports as p")
        .join("app.products as pr", "pr.id", "p.product_id")
        .whereIn("pr.uid", uids)
        .select(db.raw("count(*) as claimed"), db.raw("count(*) filter (where p.status = 'minted') as minted"))) as Array<{ claimed: string; minted: string }>;
    const healDeadline = Date.now() + HEAL_MS;
    let counts = (await claimCounts())[0]!;
    while (Number(counts.minted) < Number(counts.claimed) && Date.now() < healDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      counts = (await claimCounts())[0]!;
    }
    const lostClaims = Number(counts.claimed) - Number(counts.minted);
    // Then the clients whose request was cut retry, as any client does after a connection reset: a claim the dead
    // replica never committed is made now; one it committed answers the same issuance at no cost.
    const cut = answered.filter((answer) => !answer.ok).map((answer) => answer.uid);
    const retried = await survivor.issue(brand.slug, cut);
    const retryFailures = retried.filter((answer) => !answer.ok);
    if (retryFailures.length > 0) console.log(`      ${step}: retries failed: ${JSON.stringify(retryFailures)}`);
    const mintedRows = Number((await claimCounts())[0]!.minted);

    const logs = await passport.queryFilter(passport.filters.Transfer(ZeroAddress), fromBlock);
    const perToken = new Map<string, number>();
    for (const log of logs) perToken.set(log.args.tokenId.toString(), (perToken.get(log.args.tokenId.toString()) ?? 0) + 1);
    const tokens = uids.map((uid) => tokenIdOf(uid));
    const lostOnChain = tokens.filter((token) => !perToken.has(token)).length;
    const duplicates = tokens.reduce((sum, token) => sum + Math.max(0, (perToken.get(token) ?? 0) - 1), 0);
    // Reverted on chain, or recorded as failed by the ledger.
    const failedInLedger = await db("app.chain_transactions").whereIn("purpose", ["mint", "mint_batch"]).where({ status: "failed" }).count<[{ count: string }]>("* as count");
    const revertedMints = (await revertedMintsSince(fromBlock)) + Number(failedInLedger[0]!.count);
    const quotaDelta = (await certsCounted()) - countedBefore - mintedRows;

    const deliveries = () => {
      const byUid = new Map<string, number>();
      for (const delivery of receiver.received) {
        if (delivery.payload.event !== "cert.issued") continue;
        const uid = String(delivery.payload.uid);
        byUid.set(uid, (byUid.get(uid) ?? 0) + 1);
      }
      return byUid;
    };
    const deliveryDeadline = Date.now() + 30_000;
    while (!uids.every((uid) => deliveries().has(uid)) && Date.now() < deliveryDeadline) await new Promise((resolve) => setTimeout(resolve, 200));
    // A moment more, so a second delivery of the last events would be seen.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const byUid = deliveries();
    const lostUids = uids.filter((uid) => !byUid.has(uid));
    if (lostUids.length > 0) console.log(`      ${step}: not delivered:\n${await describeIssuances(lostUids)}`);
    return {
      step,
      kills,
      notReached,
      issuances: uids.length,
      unhealed: lostClaims,
      lost: uids.length - mintedRows,
      retries: cut.length,
      lostOnChain,
      duplicates,
      revertedMints,
      quotaDelta,
      undelivered: uids.filter((uid) => !byUid.has(uid)).length,
      doubleDeliveries: uids.filter((uid) => (byUid.get(uid) ?? 0) > 1).length,
      seconds: Math.round((performance.now() - began) / 100) / 10,
    };
  }

  /** Where the issuances of `uids` stand (issuance row and its ledger row), for the output when one is missing. */
  async function describeIssuances(uids: string[]): Promise<string> {
    const rows = await db("app.products as pr")
      .leftJoin("app.passports as p", "p.product_id", "pr.id")
      .leftJoin("app.chain_transactions as t", "t.id", "p.chain_tx_id")
      .whereIn("pr.uid", uids)
      .select("pr.uid", "p.status", "p.tx_hash", "p.error", "t.nonce", "t.status as tx_status", "t.purpose");
    return rows.map((row) => `        ${JSON.stringify(row)}`).join("\n");
  }

  /** Mint transactions of the shared wallet that reverted on chain (a duplicate mint sinks its whole batch). */
  async function revertedMintsSince(fromBlock: number): Promise<number> {
    const head = await provider.getBlockNumber();
    const selectors = [passport.interface.getFunction("mint").selector, passport.interface.getFunction("mintBatch").selector];
    const numbers = Array.from({ length: Math.max(0, head - fromBlock + 1) }, (_, i) => fromBlock + i);
    let reverted = 0;
    for (let i = 0; i < numbers.length; i += 25) {
      const blocks = await Promise.all(numbers.slice(i, i + 25).map((n) => provider.getBlock(n, true)));
      const mints = blocks.flatMap((block) => block?.prefetchedTransactions ?? []).filter((tx) => selectors.includes(tx.data.slice(0, 10)));
      const receipts = await Promise.all(mints.map((tx) => provider.getTransactionReceipt(tx.hash)));
      reverted += receipts.filter((receipt) => receipt?.status === 0).length;
    }
    return reverted;
  }

  function printMatrix() {
    if (rows.length === 0) return;
    const mean = startTimes.length ? startTimes.reduce((a, b) => a + b, 0) / startTimes.length : 0;
    const lines = [
      `crash matrix (${KILLS_PER_STEP} kills per step; replica start ${Math.round(mean)} ms on average over ${startTimes.length} starts)`,
      "| step | kills | not reached | issuances | cut and retried | unhealed claims | lost | lost on chain | duplicate mints | reverted mints | quota delta | undelivered | double deliveries | s |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
      ...rows.map(
        (r) =>
          `| ${r.step} | ${r.kills} | ${r.notReached} | ${r.issuances} | ${r.retries} | ${r.unhealed} | ${r.lost} | ${r.lostOnChain} | ${r.duplicates} | ${r.revertedMints} | ${r.quotaDelta} | ${r.undelivered} | ${r.doubleDeliveries} | ${r.seconds} |`,
      ),
    ];
    console.log(lines.map((line) => `      ${line}`).join("\n"));
  }

  for (const step of CRASH_POINTS) {
    it(`${step}: ${KILLS_PER_STEP} kills lose nothing, mint nothing twice, count the quota exactly and deliver once`, async () => {
      const row = await runStep(step);
      rows.push(row);
      expect(row, JSON.stringify(row)).to.deep.include({
        kills: KILLS_PER_STEP,
        unhealed: 0,
        lost: 0,
        lostOnChain: 0,
        duplicates: 0,
        revertedMints: 0,
        quotaDelta: 0,
        undelivered: 0,
        doubleDeliveries: 0,
      });
    });
  }
});
