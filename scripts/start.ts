// `npm start`: the whole service locally on embedded defaults. Embedded Postgres, a Hardhat node, the contracts,
// the Ponder indexer and the API, each on 127.0.0.1, with demo data; Ctrl-C stops every child.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig, ConfigError } from "../api/src/config";
import { connectContracts } from "../api/src/chain/contracts";
import { createProvider } from "../api/src/chain/provider";
import { ChainLedger } from "../api/src/chain/ledger";
import { SharedWallet } from "../api/src/chain/signer";
import { createLogger } from "../api/src/logger";
import { createDb } from "../api/src/db/knex";
import { migrateLatest } from "../api/src/db/migrate";
import { brandHostUrl } from "../api/src/links";
import { startApi, type RunningApi } from "../api/src/server";
import { startDispatcher } from "../api/src/webhooks/dispatcher-main";
import { deployContracts } from "./lib/deploy";
import { startHardhatNode } from "./lib/hardhat-node";
import { indexerSchemaName, startIndexer } from "./lib/indexer";
import { startEmbeddedPostgres, type EmbeddedDb } from "./lib/postgres";
import { portInUse, waitFor, type Child } from "./lib/processes";
import { resetForNewLocalChain } from "./lib/local-chain";
import { seedDemo, type DemoState } from "./lib/seed";
import { issueAuthorityKey } from "../api/src/access/readers";
import { getBrand } from "../api/src/brands/service";
import { setAutomaticRegistration } from "../api/src/registry/registration";
import { startLocalRegistry } from "./lib/local-registry";
import { startPaymentSims } from "./lib/payment-sims";

const ROOT = path.resolve(__dirname, "..");
const DATA = path.join(ROOT, ".data");
const LOGS = path.join(DATA, "logs");
const HARDHAT_ADMIN = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"; // Hardhat public test account #1
const DATABASE = "passport_registry";
/** The demo brand's custom domain, seeded as verified: `curl -H 'Host: shop.demo-apparel.test'` reaches its site. */
const DEMO_CUSTOM_DOMAIN = "shop.demo-apparel.test";

type Step = { started: number; label: string };
const stopFns: Array<{ name: string; stop: () => Promise<void> }> = [];
let shuttingDown = false;

function begin(label: string): Step {
  process.stdout.write(`• ${label} … `);
  return { started: Date.now(), label };
}
function done(step: Step, detail = "") {
  process.stdout.write(`done in ${((Date.now() - step.started) / 1000).toFixed(1)} s${detail ? ` (${detail})` : ""}\n`);
}

async function shutdown(code: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log("\nstopping …");
  // Reverse start order: API first, Postgres last.
  for (const { name, stop } of stopFns.reverse()) {
    try {
      await stop();
    } catch (error) {
      console.error(`  ${name} did not stop cleanly: ${String(error)}`);
    }
  }
  console.log("stopped.");
  process.exit(code);
}

/** The authority key the local registry reads passports with: issued on the first start, then read from .data. */
async function localRegistryReaderKey(db: ReturnType<typeof createDb>): Promise<string> {
  const file = path.join(DATA, "local-registry-reader-key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const { key } = await issueAuthorityKey(db, "local EU registry (npm start)");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

function env(name: string, fallback: string): string {
  return process.env[name]?.trim() || fallback;
}

async function ensurePortFree(port: number, what: string, variable: string) {
  if (await portInUse(port)) {
    throw new Error(`port ${port} on 127.0.0.1 (${what}) is in use: is another 'npm start' running? Set ${variable} to use another port.`);
  }
}

function watch(child: Child) {
  child.process.once("exit", (code, signal) => {
    if (shuttingDown) return;
    console.error(`\n${child.name} exited (${signal ?? `code ${code}`}); see ${path.relative(ROOT, child.logFile)}`);
    void shutdown(1);
  });
}

async function main() {
  const started = Date.now();
  const apiPort = Number(env("PORT", "3000"));
  const pgPort = Number(env("PG_PORT", "54329"));
  const chainPort = Number(env("HARDHAT_PORT", "8545"));
  const indexerPort = Number(env("INDEXER_PORT", "42069"));
  mkdirSync(LOGS, { recursive: true });

  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(0));
  // If whatever started us dies without passing a signal on, stop too rather than leave the stack orphaned.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown(0);
  }, 1000).unref();

  await ensurePortFree(apiPort, "API", "PORT");
  await ensurePortFree(pgPort, "Postgres", "PG_PORT");
  await ensurePortFree(chainPort, "Hardhat node", "HARDHAT_PORT");
  await ensurePortFree(indexerPort, "indexer", "INDEXER_PORT");

  let step = begin("Postgres (embedded, data in .data/postgres)");
  const pg: EmbeddedDb = await startEmbeddedPostgres({ dataDir: path.join(DATA, "postgres"), port: pgPort, databases: [DATABASE], persistent: true });
  stopFns.push({ name: "postgres", stop: pg.stop });
  // As root in a project the postgres user cannot enter, the cluster lives in a cache that .data/postgres links to.
  const relocated = pg.dataDir === path.join(DATA, "postgres") ? "" : `; data in ${pg.dataDir}, linked from .data/postgres`;
  done(step, `127.0.0.1:${pgPort}${relocated}`);

  step = begin("Hardhat node");
  const chain = await startHardhatNode({ port: chainPort, logFile: path.join(LOGS, "hardhat-node.log"), intervalMs: Number(env("BLOCK_INTERVAL_MS", "1000")) });
  stopFns.push({ name: "hardhat node", stop: chain.stop });
  watch(chain.child);
  done(step, chain.rpcUrl);

  // bKash, Nagad and SSLCommerz as local protocol servers; their keys are kept in .data, so the demo brand's stay valid.
  step = begin("payment gateways (local bKash, Nagad, SSLCommerz)");
  const sims = await startPaymentSims({ stateDir: DATA });
  stopFns.push({ name: "payment gateways", stop: sims.stop });
  done(step, [sims.bkash, sims.nagad, sims.sslcommerz].map((sim) => new URL(sim.baseUrl).host).join(", "));

  // The EU registry as a local server on the CIRPASS-2 mock's interface; it reads each passport it is told about.
  step = begin("EU registry (local)");
  const registryPort = Number(env("REGISTRY_PORT", "8089"));
  await ensurePortFree(registryPort, "local EU registry", "REGISTRY_PORT");
  const registry = await startLocalRegistry({ port: registryPort, keyFile: path.join(DATA, "local-registry-key.json") });
  stopFns.push({ name: "local EU registry", stop: () => registry.stop() });
  done(step, registry.url);

  const publicBaseUrl = env("PUBLIC_BASE_URL", `http://127.0.0.1:${apiPort}`);
  const deploymentsDir = path.join(ROOT, "deployments");
  Object.assign(process.env, {
    SERVICE_MODE: "local",
    PORT: String(apiPort),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: publicBaseUrl,
    DATABASE_URL: pg.url(DATABASE),
    RPC_URL: chain.rpcUrl,
    CHAIN_ID: String(chain.chainId),
    DEPLOYMENTS_DIR: deploymentsDir,
    BKASH_BASE_URL: sims.bkash.baseUrl,
    NAGAD_BASE_URL: sims.nagad.baseUrl,
    SSLCOMMERZ_BASE_URL: sims.sslcommerz.baseUrl,
    REGISTRY_URL: registry.url,
    REGISTRY_BATCH_UPLOADS: "true",
  });
  const config = loadConfig();

  step = begin("contracts");
  const deployment = await deployContracts({
    rpcUrl: chain.rpcUrl,
    signerKey: config.signerPrivateKey,
    adminAddress: HARDHAT_ADMIN,
    adminDelaySeconds: 0,
    baseURI: `${publicBaseUrl}/api/nft/`,
    deploymentsDir,
    log: () => undefined,
  });
  done(step, `ProductPassport ${deployment.contracts.ProductPassport.address}`);

  step = begin("database schema and demo data");
  const db = createDb(config.databaseUrl, 4);
  const provider = createProvider(config.rpcUrl, config.chainId);
  // The demo seed sends through the ledger too (the API's monitor follows its transactions once it runs).
  const ledger = new ChainLedger({ db, provider, privateKey: config.signerPrivateKey, chainId: config.chainId, logger: createLogger("silent"), confirmations: config.confirmations });
  const wallet = new SharedWallet(provider, config.signerPrivateKey, ledger);
  const contracts = connectContracts(deployment, wallet);
  const demoFile = path.join(DATA, "demo.json");
  const previous = existsSync(demoFile) ? (JSON.parse(readFileSync(demoFile, "utf8")) as Partial<DemoState>) : undefined;
  let demo: DemoState;
  try {
    await migrateLatest(db);
    // The registry reads passports as an authority (it hashes the whole version): its key is issued once, kept in .data.
    registry.setReaderKey(await localRegistryReaderKey(db));
    await resetForNewLocalChain(db, deployment, config.onchainSchema);
    demo = await seedDemo({
      db,
      wallet,
      contracts,
      previous,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      demoApiKey: process.env.DEMO_API_KEY?.trim() || undefined,
      tagKeys: config.tags,
      domains: { baseDomain: config.domains.baseDomain, customDomain: DEMO_CUSTOM_DOMAIN },
      payments: { config, credentials: { bkash: sims.bkash.credentials, nagad: sims.nagad.credentials, sslcommerz: sims.sslcommerz.credentials } },
      log: () => undefined,
    });
    // The demo brand registers its passports at the local registry as it issues them (docs/registry.md).
    await setAutomaticRegistration(db, await getBrand(db, demo.brand_slug), { system: "npm start" }, true);
  } finally {
    await db.destroy();
    provider.destroy();
  }
  done(step);

  step = begin("indexer (Ponder)");
  const indexer = startIndexer({
    databaseUrl: config.databaseUrl,
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    deploymentsDir,
    schema: indexerSchemaName(chain.chainId, deployment.contracts.ProductPassport.blockHash),
    viewsSchema: config.onchainSchema,
    port: indexerPort,
    pollingIntervalMs: Number(env("INDEXER_POLLING_INTERVAL_MS", "100")),
    logFile: path.join(LOGS, "indexer.log"),
  });
  stopFns.push({ name: "indexer", stop: indexer.stop });
  watch(indexer);
  done(step, `log in .data/logs/indexer.log`);

  step = begin("API");
  const api: RunningApi = await startApi(config, { logFile: path.join(LOGS, "api.log") });
  stopFns.push({ name: "api", stop: api.stop });
  done(step, api.url);

  step = begin("webhook dispatcher");
  const dispatcher = await startDispatcher(config, { logFile: path.join(LOGS, "dispatcher.log") });
  stopFns.push({ name: "webhook dispatcher", stop: dispatcher.stop });
  done(step, "log in .data/logs/dispatcher.log");

  step = begin("waiting until ready (indexer caught up)");
  await waitFor(
    "GET /readyz to answer 200",
    async () => ((await fetch(`${api.url}/readyz`)).status === 200 ? true : undefined),
    Number(env("READY_TIMEOUT_MS", "180000")),
    250,
  );
  done(step);

  const state = {
    ...demo,
    api_url: api.url,
    dashboard_url: `${api.url}/dashboard`,
    rpc_url: chain.rpcUrl,
    chain_id: chain.chainId,
    contracts: {
      ProductPassport: deployment.contracts.ProductPassport.address,
      FactoryRegistry: deployment.contracts.FactoryRegistry.address,
    },
  };
  writeFileSync(demoFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });

  const minted = demo.products.find((p) => p.minted)?.uid;
  console.log(`
Passport Registry is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s).

  API              ${api.url}
  OpenAPI          ${api.url}/api/openapi.json
  Readiness        ${api.url}/readyz
  Chain (Hardhat)  ${chain.rpcUrl}  chain id ${chain.chainId}
  Postgres         ${pg.url(DATABASE).replace(/:[^:@/]+@/, ":***@")}
  Demo brand       ${demo.brand_slug}
  Demo API key     ${demo.api_key}
  Dashboard        ${api.url}/dashboard
  Dashboard login  ${demo.brand_users.owner.email} (owner), ${demo.brand_users.cashier.email} (cashier); passwords in .data/demo.json
  Operator login   ${demo.operator.email} (password in .data/demo.json)
  Demo passport    ${minted ?? "-"}
  EN 18222         ${demo.en18222.read_url}  (model, batch and item; replay in docs/dpp-api.md)
  EU registry      ${registry.url}  (local; the demo brand's passports are registered there as they are issued: docs/registry.md)
  Payments         its scan page sells by bKash, Nagad, card and Cash QR; the gateways are local servers (docs/payments.md)
  Brand site       ${brandHostUrl(config, demo.subdomain_host)}${demo.custom_domain ? `, and curl -H 'Host: ${demo.custom_domain}' ${api.url}/` : ""}

Everything above is also in .data/demo.json; logs (api, dispatcher, indexer, hardhat-node) are in .data/logs/.
Press Ctrl-C to stop.
`);
}

main().catch(async (error: unknown) => {
  process.stdout.write("\n");
  console.error(error instanceof ConfigError ? error.message : `npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
});
