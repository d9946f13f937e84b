// Starts the API process: configuration, migrations, HTTP listener on the configured host, graceful shutdown.
import type { Server } from "node:http";
import pino from "pino";
import { buildApp } from "./app";
import type { AppDeps } from "./deps";
import type { Config } from "./config";
import { runProcess } from "./process-main";
import { createDb } from "./db/knex";
import { migrateLatest } from "./db/migrate";
import { KeyCache } from "./brands/key-cache";
import { CallMeter } from "./metering/call-meter";
import { ScanRecorder } from "./scans/scan-recorder";
import { createLogger } from "./logger";
import { startLedgerWork } from "./passports/mint-pump";
import { startOrderReconciliation } from "./orders/reconciliation";
import { createChainAccess } from "./chain/access";
import { DomainChecker } from "./domains/checker";
import { createProvider } from "./chain/provider";
import { credentialSigningKey } from "./interop/signing-key";

export type RunningApi = { server: Server; url: string; stop: () => Promise<void> };

/** Starts the API with `config`; resolves once it listens. Logs go to stdout unless `logFile` is given. */
export async function startApi(config: Config, options: { logFile?: string } = {}): Promise<RunningApi> {
  const logger = createLogger(
    config.logLevel,
    options.logFile ? pino.destination({ dest: options.logFile, mkdir: true, sync: false }) : undefined,
  );
  const db = createDb(config.database);
  const provider = createProvider(config.rpcUrl, config.chainId);
  // The credential signing key is read (in local mode made) before anything listens: a missing or malformed key
  // stops the start with its reason instead of failing every credential request later.
  await credentialSigningKey(config);
  const applied = await migrateLatest(db);
  if (applied.length > 0) logger.info({ applied }, "migrations applied");

  const keyCache = new KeyCache(config.databaseUrl, logger);
  // Without its LISTEN connection the cache stays off (and retries): requests then look keys up in the database.
  await keyCache.start().catch((error: unknown) => logger.warn({ err: error }, "key cache off"));
  const callMeter = new CallMeter(db, logger);
  const deps: AppDeps = { config, db, provider, chain: createChainAccess(config, provider, db, logger), logger, keyCache, callMeter };
  // Owned here, not by the router, so shutdown counts the views still queued before the pool closes.
  const scanRecorder = new ScanRecorder(deps);
  deps.scanRecorder = scanRecorder;
  const app = buildApp(deps);
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  logger.info({ url }, "api listening");

  // The shared wallet's work resumes from the ledger: this process's mint pump (claims of any process, a crashed
  // one's included) and a candidate monitor that follows every open transaction (chain/ledger-monitor.ts).
  const ledgerWork = startLedgerWork(deps);
  // Orders no callback settled are asked about at their gateway (orders/reconciliation.ts).
  const orderReconciliation = startOrderReconciliation(deps);
  // Pending custom domains are checked in DNS, due ones claimed so replicas share the work (domains/checker.ts).
  const domainChecker = new DomainChecker(deps);
  domainChecker.start();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await orderReconciliation.stop();
      await domainChecker.stop();
      // Stop taking connections, let in-flight requests finish (bounded), then release the pool.
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, 5000);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      // After the requests: one waiting for its issuance is served by this process's pump until then.
      await ledgerWork.stop();
      provider.destroy();
      await keyCache.close();
      // Unused leased calls are given back and endpoint counts written before the pool closes.
      await callMeter.close();
      await scanRecorder.close();
      await db.destroy();
      logger.info("api stopped");
    })();
    return stopping;
  };
  return { server, url, stop };
}

if (require.main === module) runProcess("api", (config) => startApi(config));
