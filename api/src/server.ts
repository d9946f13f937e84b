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
import { reconcilePendingIssuances } from "./passports/issuance";
import { startOrderReconciliation } from "./orders/reconciliation";
import { createChainAccess } from "./chain/access";
import { DomainChecker } from "./domains/checker";
import { createProvider } from "./chain/provider";

export type RunningApi = { server: Server; url: string; stop: () => Promise<void> };

/** Starts the API with `config`; resolves once it listens. Logs go to stdout unless `logFile` is given. */
export async function startApi(config: Config, options: { logFile?: string } = {}): Promise<RunningApi> {
  const logger = createLogger(
    config.logLevel,
    options.logFile ? pino.destination({ dest: options.logFile, mkdir: true, sync: false }) : undefined,
  );
  const db = createDb(config.databaseUrl);
  const provider = createProvider(config.rpcUrl, config.chainId);
  const applied = await migrateLatest(db);
  if (applied.length > 0) logger.info({ applied }, "migrations applied");

  const keyCache = new KeyCache(config.databaseUrl, logger);
  // Without its LISTEN connection the cache stays off (and retries): requests then look keys up in the database.
  await keyCache.start().catch((error: unknown) => logger.warn({ err: error }, "key cache off"));
  const callMeter = new CallMeter(db, logger);
  const deps: AppDeps = { config, db, provider, chain: createChainAccess(config, provider), logger, keyCache, callMeter };
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

  // Issuances left pending by a crash are settled from the chain: at start, then every few minutes. Only rows older
  // than a minute, so another replica's issuance in flight is left alone.
  const reconcile = () =>
    reconcilePendingIssuances(deps, logger, 60).catch((error: unknown) => logger.warn({ err: error }, "reconciliation skipped"));
  void reconcile();
  const reconcileTimer = setInterval(reconcile, 5 * 60_000);
  reconcileTimer.unref();
  // Orders no callback settled are asked about at their gateway (orders/reconciliation.ts).
  const orderReconciliation = startOrderReconciliation(deps);
  // Pending custom domains are checked in DNS, due ones claimed so replicas share the work (domains/checker.ts).
  const domainChecker = new DomainChecker(deps);
  domainChecker.start();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(reconcileTimer);
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
