// `npm run bench:run`: a production run at once. 10,000 products uploaded as one CSV through the dashboard's import,
// then "issue all" (a bulk issuance), on a stack of its own (embedded Postgres, a Hardhat chain with a 30M-gas block
// every 2 s and no mining on demand, the Ponder indexer, the API as its own process), until every passport is
// verified: indexed by Ponder at the confirmation depth. Prints the wall time, passports per second, gas per passport
// against OpenZeppelin's `_safeMint`, the CPU milliseconds per passport of each process, and the index lag p95.
// Everything binds 127.0.0.1; everything started here is stopped by PID at the end (or on Ctrl-C).
//
// BENCH_PASSPORTS (default 10,000) and BENCH_BLOCK_MS (default 2,000) change the run.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { JsonRpcProvider, Network, Wallet } from "ethers";
import { PlainERC721__factory } from "../../typechain-types";
import { createBrand } from "../../api/src/brands/service";
import { HARDHAT_TEST_KEY } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import { finalBlockUpTo } from "../../api/src/chain/finality";
import { indexerState } from "../../api/src/onchain/indexer-state.repo";
import { createMemberWithPassword } from "../../api/src/team/service";
import { positiveInteger } from "../lib/bench-load";
import { inBenchWorkspace, runBenchmark } from "../lib/bench-workspace";
import { indexerSchemaName, startIndexer } from "../lib/indexer";
import { startEmbeddedPostgres } from "../lib/postgres";
import { freePort, spawnLogged, waitFor } from "../lib/processes";
import { productCsv } from "../lib/product-csv";
import { startDeployedChain } from "../lib/stack";
import { cpuSeconds, postgresCpuSeconds } from "../lib/proc-cpu";

const ROOT = path.resolve(__dirname, "..", "..");
const PASSPORTS = positiveInteger("BENCH_PASSPORTS", 10_000);
const BLOCK_MS = positiveInteger("BENCH_BLOCK_MS", 2000);
const BLOCK_GAS_LIMIT = 30_000_000;
const CONFIRMATIONS = 2;
const TARGETS = { seconds: 60, gasRatio: 0.5 };
const SAMPLE_MS = 250;
const RUN_CAP_MS = 600_000;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Passports indexed by Ponder in a block at the confirmation depth. */
async function verifiedCount(db: Knex): Promise<{ verified: number; indexedBlock: number; indexedAt: number } | undefined> {
  const state = await indexerState(db, "onchain").catch(() => undefined);
  if (!state) return undefined;
  const upTo = finalBlockUpTo(state.indexedBlock, CONFIRMATIONS);
  // The chain is the benchmark's own: every passport on it is one of the brand's (the count stays cheap, so the
  // polling does not weigh on Postgres' figure).
  const { rows } = await db.raw<{ rows: Array<{ n: string }> }>("SELECT count(*) AS n FROM onchain.passport WHERE minted_block <= ?", [upTo]);
  return { verified: Number(rows[0]!.n), indexedBlock: state.indexedBlock, indexedAt: state.indexedBlockTimestamp };
}

async function main() {
  await inBenchWorkspace("bench-run-", async ({ dir, stopLater }) => {
    // BENCH_LOGS=<dir>: the API's, indexer's and chain's logs are copied there at the end (the workspace is removed).
    const keepLogs = process.env.BENCH_LOGS;
    if (keepLogs) {
      stopLater(async () => {
        mkdirSync(keepLogs, { recursive: true });
        for (const name of ["api.log", "indexer.log", "hardhat-node.log"]) if (existsSync(path.join(dir, name))) copyFileSync(path.join(dir, name), path.join(keepLogs, name));
      });
    }
    process.stdout.write("starting Postgres, a chain, the contracts, the API and the indexer…\n");
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort(), databases: ["bench"], persistent: false });
    stopLater(pg.stop);
    const databaseUrl = pg.url("bench");
    const { chain, deployment, deploymentsDir } = await startDeployedChain(dir);
    stopLater(chain.stop);
    const provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), { staticNetwork: true, cacheTimeout: -1 });
    stopLater(async () => provider.destroy());

    // The baseline, while the node still mines each transaction at once: a stock OpenZeppelin ERC-721's `_safeMint`
    // to a holder that has a token already (as every passport after the first goes to the custodian).
    const wallet = new Wallet(HARDHAT_TEST_KEY, provider);
    const plain = await new PlainERC721__factory(wallet).deploy();
    await plain.waitForDeployment();
    await (await plain.mint(wallet.address, 1n)).wait();
    const safeMintGas = Number((await (await plain.mint(wallet.address, 2n)).wait())!.gasUsed);

    // A realistic chain from here on: no block per transaction, a block every BLOCK_MS, 30M gas each.
    // (Hardhat's own default is 60M gas.)
    await provider.send("evm_setBlockGasLimit", [`0x${BLOCK_GAS_LIMIT.toString(16)}`]);
    await provider.send("evm_mine", []);
    const latest = await provider.getBlock("latest");
    if (Number(latest!.gasLimit) !== BLOCK_GAS_LIMIT) throw new Error(`the node's block gas limit is ${latest!.gasLimit}, not ${BLOCK_GAS_LIMIT}`);
    await provider.send("evm_setAutomine", [false]);
    await provider.send("evm_setIntervalMining", [BLOCK_MS]);

    const apiPort = await freePort();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const api = spawnLogged("api", process.execPath, ["--import", "tsx", path.join(ROOT, "api", "src", "server.ts")], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        SERVICE_MODE: "local",
        LOG_LEVEL: "warn",
        HOST: "127.0.0.1",
        PORT: String(apiPort),
        PUBLIC_BASE_URL: apiUrl,
        DATABASE_URL: databaseUrl,
        RPC_URL: chain.rpcUrl,
        CHAIN_ID: String(chain.chainId),
        DEPLOYMENTS_DIR: deploymentsDir,
        ONCHAIN_SCHEMA: "onchain",
        CONFIRMATIONS: String(CONFIRMATIONS),
        MAIL_DIR: path.join(dir, "mail"),
      },
      logFile: path.join(dir, "api.log"),
    });
    stopLater(api.stop);
    await waitFor(
      "the API to answer /healthz",
      async () => {
        if (api.process.exitCode !== null) throw new Error(`the API exited; see ${api.logFile}`);
        return (await fetch(`${apiUrl}/healthz`).catch(() => undefined))?.status === 200 ? true : undefined;
      },
      90_000,
      200,
    );
    const indexer = startIndexer({
      databaseUrl,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      deploymentsDir,
      schema: indexerSchemaName(chain.chainId, deployment.contracts.ProductPassport.blockHash),
      viewsSchema: "onchain",
      port: await freePort(),
      pollingIntervalMs: 100,
      logFile: path.join(dir, "indexer.log"),
    });
    stopLater(indexer.stop);
    const db = createDb(databaseUrl, 4);
    stopLater(() => db.destroy());
    await waitFor("the indexer's views", async () => ((await indexerState(db, "onchain").catch(() => undefined)) ? true : undefined), 120_000, 200);

    const unlimited = { api_calls_per_month: 1_000_000_000, requests_per_hour: 1_000_000_000, certs_per_month: 1_000_000 };
    const { brand } = await createBrand(db, { slug: "run", name: "Production Run", uidPrefix: "RUN", limitOverrides: unlimited });
    const email = "runner@bench.local";
    const password = "bench-run-password-1";
    await createMemberWithPassword(db, brand.id, { email, role: "editor", password });
    const session = await fetch(`${apiUrl}/api/dashboard/session`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) });
    if (session.status !== 200) throw new Error(`sign-in answered ${session.status}`);
    const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0]!;
    const csrf = ((await session.json()) as { data: { csrf_token: string } }).data.csrf_token;
    const dashboard = (route: string, init: RequestInit = {}) =>
      fetch(`${apiUrl}${route}`, { ...init, headers: { Cookie: cookie, "X-CSRF-Token": csrf, ...(init.headers as Record<string, string>) } });
    const csv = productCsv(PASSPORTS, "RUN");

    const pids = { api: api.process.pid!, indexer: indexer.process.pid!, chain: chain.child.process.pid! };
    const sample = () => ({
      api: cpuSeconds(pids.api),
      indexer: cpuSeconds(pids.indexer),
      chain: cpuSeconds(pids.chain),
      postgres: postgresCpuSeconds(pg.pid!),
    });
    // Index lag, sampled: how long the oldest block the indexer does not have yet has been on the chain (0 when it
    // has the head). Wall-clock time, not block timestamps (a local node's clock runs apart from the wall's).
    const lags: number[] = [];
    const firstSeen = new Map<number, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [head, state] = await Promise.all([provider.getBlockNumber(), indexerState(db, "onchain").catch(() => undefined)]);
        const now = performance.now();
        for (let block = head; block >= 0 && !firstSeen.has(block); block -= 1) firstSeen.set(block, now);
        if (state) lags.push(state.indexedBlock >= head ? 0 : (now - (firstSeen.get(state.indexedBlock + 1) ?? now)) / 1000);
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      }
    })();

    process.stdout.write(`uploading ${PASSPORTS.toLocaleString("en")} products (${(csv.length / 1024 / 1024).toFixed(1)} MB of CSV) and issuing them all…\n`);
    const cpuBefore = sample();
    const startedAt = performance.now();
    const upload = await dashboard("/api/dashboard/imports", { method: "POST", headers: { "Content-Type": "text/csv" }, body: csv });
    if (upload.status !== 202) throw new Error(`the upload answered ${upload.status}: ${await upload.text()}`);
    const importId = ((await upload.json()) as { data: { id: string } }).data.id;
    await waitFor(
      "the import",
      async () => {
        const job = ((await (await dashboard(`/api/dashboard/imports/${importId}`)).json()) as { data: { status: string; imported: number; failed: number } }).data;
        if (job.status === "failed" || job.failed > 0) throw new Error(`the import failed: ${JSON.stringify(job)}`);
        return job.status === "done" ? job : undefined;
      },
      RUN_CAP_MS,
      100,
    );
    const importedAt = performance.now();
    const issue = await dashboard(`/api/dashboard/imports/${importId}/issue`, { method: "POST" });
    if (issue.status !== 202) throw new Error(`issue all answered ${issue.status}: ${await issue.text()}`);
    const issuanceId = ((await issue.json()) as { data: { id: string } }).data.id;
    let mintedAt = 0;
    let shownAt = 0;
    await waitFor(
      "every passport verified",
      async () => {
        const state = await verifiedCount(db);
        // The job's progress (what the dashboard's bar shows) every 2 s: it counts over all its items.
        if (performance.now() - shownAt >= 2000) {
          const job = ((await (await dashboard(`/api/dashboard/issuances/${issuanceId}`)).json()) as { data: { claimed: number; minted: number; confirmed: number; failed: number } }).data;
          if (job.failed > 0) throw new Error(`${job.failed} passports failed`);
          if (!mintedAt && job.minted >= PASSPORTS) mintedAt = performance.now();
          shownAt = performance.now();
          const head = await provider.getBlockNumber();
          process.stdout.write(
            `  ${((shownAt - startedAt) / 1000).toFixed(1).padStart(5)} s: claimed ${job.claimed}, minted ${job.minted}, final ${job.confirmed}, ` +
              `verified ${state?.verified ?? 0}; head ${head}, indexed ${state?.indexedBlock ?? "-"}\n`,
          );
        }
        return state && state.verified >= PASSPORTS ? state : undefined;
      },
      RUN_CAP_MS,
      500,
    );
    const seconds = (performance.now() - startedAt) / 1000;
    const cpuAfter = sample();
    sampling = false;
    await sampler;
    // The job itself ends once the API has every mint final at the depth too (its issuance.completed goes out then).
    await waitFor(
      "the bulk issuance to complete",
      async () => ((await (await dashboard(`/api/dashboard/issuances/${issuanceId}`)).json()) as { data: { state: string } }).data.state === "completed" || undefined,
      RUN_CAP_MS,
      250,
    );
    const completedSeconds = (performance.now() - startedAt) / 1000;

    // Gas of the mints actually sent, from their receipts.
    const sent = await db("app.chain_transactions").whereIn("purpose", ["mint", "mint_batch"]).whereNot({ status: "superseded" }).select<Array<{ hashes: string[] }>>("hashes");
    let gas = 0;
    for (const row of sent) {
      for (const hash of row.hashes) {
        const receipt = await provider.getTransactionReceipt(hash);
        if (receipt) gas += Number(receipt.gasUsed);
      }
    }
    const batches = await db("app.chain_transactions").where({ purpose: "mint_batch" }).count<{ count: string }[]>("* as count");
    const gasPerPassport = gas / PASSPORTS;
    const ratio = gasPerPassport / safeMintGas;
    const lagP95 = percentile(lags, 95);

    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    console.log("");
    console.log(`machine: ${(await import("node:os")).cpus().length} cores, load average ${load}`);
    console.log(`chain: a block every ${BLOCK_MS} ms, ${BLOCK_GAS_LIMIT.toLocaleString("en")} gas a block, confirmation depth ${CONFIRMATIONS}`);
    console.log(`passports: ${PASSPORTS.toLocaleString("en")} in ${sent.length} transactions (${batches[0]!.count} mintBatch)`);
    console.log(`import (upload to every row registered): ${((importedAt - startedAt) / 1000).toFixed(1)} s`);
    console.log(`issue all to every passport's receipt recorded by the API: ${mintedAt ? `${((mintedAt - importedAt) / 1000).toFixed(1)} s` : "after the indexer had them all"}`);
    console.log(`wall time, upload to every passport verified: ${seconds.toFixed(1)} s (target at most ${TARGETS.seconds} s) ${seconds <= TARGETS.seconds ? "met" : "TARGET MISSED"}`);
    console.log(`upload to the job completed (issuance.completed enqueued): ${completedSeconds.toFixed(1)} s`);
    console.log(`passports per second: ${(PASSPORTS / seconds).toFixed(1)}`);
    console.log(
      `gas per passport: ${Math.round(gasPerPassport).toLocaleString("en")} against ${safeMintGas.toLocaleString("en")} for OpenZeppelin _safeMint = ` +
        `${ratio.toFixed(3)} (target at most ${TARGETS.gasRatio}) ${ratio <= TARGETS.gasRatio ? "met" : "TARGET MISSED"}`,
    );
    console.log("CPU ms per passport:");
    let total = 0;
    for (const part of ["api", "indexer", "chain", "postgres"] as const) {
      const ms = ((cpuAfter[part] - cpuBefore[part]) * 1000) / PASSPORTS;
      total += ms;
      console.log(`  ${part.padEnd(9)} ${ms.toFixed(2)}`);
    }
    console.log(`  ${"all".padEnd(9)} ${total.toFixed(2)}`);
    console.log(`index lag p95 during the run: ${lagP95.toFixed(1)} s (${lags.length} samples every ${SAMPLE_MS} ms, max ${Math.max(0, ...lags).toFixed(1)} s)`);
  });
}

runBenchmark(main);
