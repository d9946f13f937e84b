// The composition root: every process that runs the service (the API, the dispatcher, `npm start`, the benchmarks,
// the test replicas) is assembled here, each part built once (pool, provider, chain access, key cache, call meter,
// scan recorder, mailer, jobs) and handed down; nothing below creates its own copy. Options say which parts run.
import type { Server } from "node:http";
import pino from "pino";
import { KeyCache } from "./brands/key-cache";
import { createChainAccess } from "./chain/access";
import { createProvider } from "./chain/provider";
import type { Config } from "./config";
import { createDb } from "./db/knex";
import { migrateLatest } from "./db/migrate";
import type { AppDeps, CoreDeps } from "./deps";
import type { Job } from "./jobs/job";
import { JobRunner } from "./jobs/runner";
import { createLogger, type Logger } from "./logger";
import type { Mailer } from "./mail/mailer";
import { CallMeter } from "./metering/call-meter";
import { ScanRecorder } from "./scans/scan-recorder";
import type { Dispatcher, DispatcherOptions } from "./webhooks/dispatcher";

/** Every background job, by the name /readyz reports. A new kind is one name here and one line in `jobsOf`. */
export const JOB_NAMES = [
  "mint-pump",
  "ledger-monitor",
  "bulk-issuance",
  "order-reconciliation",
  "domain-checker",
  "call-meter-flush",
  "scan-admissions-prune",
  "webhook-dispatch",
  "confirmation-watcher",
  "webhook-retention",
  "backup-replication",
  "registry-registration",
] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** What an API process runs (`npm run start:api`). */
export const API_JOBS: readonly JobName[] = ["mint-pump", "ledger-monitor", "bulk-issuance", "order-reconciliation", "domain-checker", "call-meter-flush", "scan-admissions-prune", "backup-replication", "registry-registration"];
/** What a dispatcher process runs (`npm run start:dispatcher`). */
export const DISPATCHER_JOBS: readonly JobName[] = ["webhook-dispatch", "confirmation-watcher", "webhook-retention"];
/** Jobs that serve requests in flight (an issuance waits for its mint): stopped only after the listener closes. */
const SERVING_JOBS: readonly JobName[] = ["mint-pump", "ledger-monitor"];

export type AssembleOptions = {
  /** Listen for HTTP: on config.host and config.port (true), or on the given ones; false (default): no listener. */
  http?: boolean | { host?: string; port?: number };
  /** The background jobs this process runs; none by default. */
  jobs?: readonly JobName[];
  /** Logs to this file (created); else to stdout. Ignored when `logger` is given. */
  logFile?: string;
  logger?: Logger;
  /** Pool size; knex's default otherwise. */
  poolSize?: number;
  /** Apply pending migrations first (default true). */
  migrate?: boolean;
  /** Settings of the dispatch job (and of the watcher's interval), for benchmarks and tests. */
  dispatcher?: Omit<DispatcherOptions, "config" | "db" | "logger" | "watch" | "prune">;
};

export type Service = {
  config: Config;
  deps: AppDeps;
  jobs: JobRunner;
  /** Set when the webhook-dispatch job runs here. */
  dispatcher?: Dispatcher;
  /** Set when `http` was asked for. */
  server?: Server;
  url?: string;
  /** Stops the jobs that serve no request, the listener (in-flight requests finish, bounded), the rest, then the pool. */
  stop: () => Promise<void>;
};

/**
 * The process-wide parts over a pool, provider, chain access and logger, each made once; nothing started (the key
 * cache listens and jobs run only through assembleService). Tests that mount the app over parts of their own (a
 * counting RPC proxy, a trusted proxy hop) build it with this too.
 */
export function buildAppDeps(core: CoreDeps, keyCache = new KeyCache(core.config.databaseUrl, core.logger)): AppDeps {
  return {
    ...core,
    keyCache,
    callMeter: new CallMeter(core.db, core.logger),
    scanRecorder: new ScanRecorder(core),
    mailer: lazyMailer(core.config),
    jobs: new JobRunner(),
  };
}

export async function assembleService(config: Config, options: AssembleOptions = {}): Promise<Service> {
  const logger =
    options.logger ?? createLogger(config.logLevel, options.logFile ? pino.destination({ dest: options.logFile, mkdir: true, sync: false }) : undefined);
  const http = options.http === true ? {} : options.http || undefined;
  const db = createDb(config.database, options.poolSize);
  const provider = createProvider(config.rpcUrl, config.chainId);
  const keyCache = new KeyCache(config.databaseUrl, logger);
  try {
    // The credential signing key is read (in local mode made) before anything listens: a missing or malformed key
    // stops the start with its reason instead of failing every credential request later.
    if (http) await (await import("./interop/signing-key")).credentialSigningKey(config);
    if (options.migrate ?? true) {
      const applied = await migrateLatest(db);
      if (applied.length > 0) logger.info({ applied }, "migrations applied");
    }
    // Without its LISTEN connection the cache stays off (and retries): requests then look keys up in the database.
    if (http) await keyCache.start().catch((error: unknown) => logger.warn({ err: error }, "key cache off"));
  } catch (error) {
    provider.destroy();
    await keyCache.close();
    await db.destroy();
    throw error;
  }

  const deps = buildAppDeps({ config, db, provider, chain: createChainAccess(config, provider, db, logger), logger }, keyCache);
  const { jobs } = deps;
  let dispatcher: Dispatcher | undefined;
  const wanted = new Set(options.jobs ?? []);
  const watchIntervalMs = options.dispatcher?.watchIntervalMs ?? Math.max(1000, options.dispatcher?.pollIntervalMs ?? config.webhooks.pollIntervalMs);
  // Each job's module is loaded only when the process runs it: a test replica started a hundred times loads no
  // gateway clients, DNS resolver or webhook sender it does not use.
  const jobsOf: Record<JobName, () => Promise<Job>> = {
    "mint-pump": async () => (await import("./passports/mint-pump")).mintPumpOf(deps),
    "ledger-monitor": async () => new (await import("./chain/ledger-monitor")).LedgerMonitor({ ledger: deps.chain.ledger, settings: config.chainLedger, logger }),
    "bulk-issuance": async () => (await import("./passports/bulk-issuance")).bulkIssuanceOf(deps),
    "order-reconciliation": async () => (await import("./orders/reconciliation")).orderReconciliationJob(deps),
    "domain-checker": async () => new (await import("./domains/checker")).DomainChecker(deps),
    "call-meter-flush": async () => deps.callMeter.flushJob,
    "scan-admissions-prune": async () => deps.scanRecorder.pruneJob,
    "webhook-dispatch": async () =>
      (dispatcher = new (await import("./webhooks/dispatcher")).Dispatcher({ ...options.dispatcher, config, db, logger, watch: false, prune: false })),
    "confirmation-watcher": async () => new (await import("./webhooks/watcher")).ConfirmationWatcher({ db, config, logger, intervalMs: watchIntervalMs }),
    "webhook-retention": async () => new (await import("./webhooks/retention")).WebhookRetention(db, config.webhooks.retentionDays, logger),
    "registry-registration": async () => (await import("./registry/registration")).registrationJobOf(deps),
    "backup-replication": async () => (await import("./backup/replication")).backupReplicationJob(deps),
  };
  // Replication runs only on a deployment that backs another up (BACKUP_OF).
  if (config.backup.primaries.length === 0) wanted.delete("backup-replication");
  for (const name of JOB_NAMES) if (wanted.has(name)) jobs.add(await jobsOf[name]());

  let server: Server | undefined;
  let url: string | undefined;
  if (http) {
    // Loaded only here: a process without HTTP (a test replica started a hundred times) skips the routes' modules.
    const { buildApp } = await import("./app");
    server = buildApp(deps).listen(http.port ?? config.port, http.host ?? config.host);
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once("listening", resolve);
      listening.once("error", reject);
    });
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    url = `http://${http.host ?? config.host}:${port}`;
    logger.info({ url }, "api listening");
  }
  jobs.start();
  if (jobs.names.length > 0) logger.info({ jobs: jobs.names }, "jobs started");

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await jobs.stop(jobs.names.filter((name) => !SERVING_JOBS.includes(name as JobName)));
      if (server) await closeServer(server);
      // After the requests: one waiting for its issuance is served by this process's pump until then.
      await jobs.stop();
      provider.destroy();
      await keyCache.close();
      // Unused leased calls are given back and endpoint counts written before the pool closes.
      await deps.callMeter.close();
      await deps.scanRecorder.close();
      await db.destroy();
      logger.info("stopped");
    })();
    return stopping;
  };
  return { config, deps, jobs, dispatcher, server, url, stop };
}

/** The configured mailer, its transport (nodemailer) loaded at the first message rather than at start. */
function lazyMailer(config: Config): Mailer {
  return { send: async (message) => (await import("./mail/mailer")).mailerFor(config).send(message) };
}

/** Stops taking connections and lets in-flight requests finish, for at most 5 s. */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
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
}
