// Starts the real API in this process on a free 127.0.0.1 port, for integration tests and benchmarks.
import { buildApp } from "../../api/src/app";
import type { AppDeps } from "../../api/src/deps";
import { createChainAccess, type ChainAccess } from "../../api/src/chain/access";
import { createProvider } from "../../api/src/chain/provider";
import { loadConfig, type Config } from "../../api/src/config";
import { createDb, type Knex } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { KeyCache } from "../../api/src/brands/key-cache";
import { CallMeter } from "../../api/src/metering/call-meter";
import { ScanRecorder } from "../../api/src/scans/scan-recorder";
import { createLogger } from "../../api/src/logger";
import { startLedgerWork } from "../../api/src/passports/mint-pump";
import { freePort } from "./processes";

export type InProcessApi = {
  url: string;
  db: Knex;
  config: Config;
  chain: ChainAccess;
  callMeter: CallMeter;
  keyCache: KeyCache;
  scanRecorder: ScanRecorder;
  close: () => Promise<void>;
};

export async function startInProcessApi(env: Record<string, string>): Promise<InProcessApi> {
  // The port is chosen first so PUBLIC_BASE_URL, and every absolute URL the API returns, is right.
  const port = await freePort();
  const config = loadConfig({ SERVICE_MODE: "local", LOG_LEVEL: "silent", PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...env });
  const db = createDb(config.databaseUrl, 10);
  await migrateLatest(db);
  const provider = createProvider(config.rpcUrl, config.chainId);
  const logger = createLogger(config.logLevel);
  const chain = createChainAccess(config, provider, db, logger);
  // As in the API process: keys cached, with invalidation by NOTIFY (tests exercise the same path).
  const keyCache = new KeyCache(config.databaseUrl, logger);
  await keyCache.start();
  const callMeter = new CallMeter(db, logger);
  const deps: AppDeps = { config, db, provider, chain, logger, keyCache, callMeter };
  const scanRecorder = new ScanRecorder(deps);
  const app = buildApp({ ...deps, scanRecorder });
  // As in the API process: the mint pump and a candidate ledger monitor (passports/mint-pump.ts).
  const ledgerWork = startLedgerWork(deps);
  const server = app.listen(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    config,
    chain,
    callMeter,
    keyCache,
    scanRecorder,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ledgerWork.stop();
      provider.destroy();
      await keyCache.close();
      await callMeter.close();
      await scanRecorder.close();
      await db.destroy();
    },
  };
}
