// Starts the real API in this process on a free 127.0.0.1 port, for integration tests and benchmarks: assembled by
// the same composition root as the API process (api/src/assemble.ts), with the ledger's jobs.
import { assembleService } from "../../api/src/assemble";
import type { KeyCache } from "../../api/src/brands/key-cache";
import type { ChainAccess } from "../../api/src/chain/access";
import { loadConfig, type Config } from "../../api/src/config";
import type { Knex } from "../../api/src/db/knex";
import type { AppDeps } from "../../api/src/deps";
import type { CallMeter } from "../../api/src/metering/call-meter";
import type { ScanRecorder } from "../../api/src/scans/scan-recorder";
import { freePort } from "./processes";

export type InProcessApi = {
  url: string;
  db: Knex;
  config: Config;
  chain: ChainAccess;
  callMeter: CallMeter;
  keyCache: KeyCache;
  scanRecorder: ScanRecorder;
  /** Everything the app was built from, for tests that mount routers or call services over the same parts. */
  deps: AppDeps;
  close: () => Promise<void>;
};

export async function startInProcessApi(env: Record<string, string>): Promise<InProcessApi> {
  // The port is chosen first so PUBLIC_BASE_URL, and every absolute URL the API returns, is right.
  const port = await freePort();
  const config = loadConfig({ SERVICE_MODE: "local", LOG_LEVEL: "silent", PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...env });
  // As in the API process, less the jobs a test starts itself when it wants them (order reconciliation, the domain
  // checker): the ledger's (the pump and a candidate monitor) and the request path's own upkeep (endpoint counts
  // written every second, the scan-admission window pruned), which the old CallMeter and ScanRecorder ran themselves.
  const service = await assembleService(config, {
    http: { host: "127.0.0.1", port },
    jobs: ["mint-pump", "ledger-monitor", "bulk-issuance", "call-meter-flush", "scan-admissions-prune"],
    poolSize: 10,
  });
  const { deps } = service;
  return {
    url: service.url!,
    db: deps.db,
    config,
    chain: deps.chain,
    callMeter: deps.callMeter,
    keyCache: deps.keyCache,
    scanRecorder: deps.scanRecorder,
    deps,
    close: async () => {
      service.server?.closeAllConnections();
      await service.stop();
    },
  };
}
