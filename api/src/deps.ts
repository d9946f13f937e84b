// What the service's modules are built from: AppDeps, the process-wide dependencies every service and router takes
// (assemble.ts builds them once per process), and AppState, what a request carries from one middleware to the next (Koa's ctx.state). Types only, so importing
// them costs nothing and ties nobody to the app's construction (app.ts).
import type { JsonRpcProvider } from "ethers";
import type { Operator } from "./auth/sessions";
import type { KeyCache } from "./brands/key-cache";
import type { BrandContext } from "./brands/service";
import type { ChainAccess } from "./chain/access";
import type { Config } from "./config";
import type { SiteBrand } from "./domains/site-hosts";
import type { Knex } from "./db/knex";
import type { JobRunner } from "./jobs/runner";
import type { Logger } from "./logger";
import type { CallMeter } from "./metering/call-meter";
import type { ScanRecorder } from "./scans/scan-recorder";
import type { Mailer } from "./mail/mailer";
import type { SessionUser } from "./team/service";

export type AppState = {
  requestId: string;
  body?: unknown;
  rawBody?: string;
  input?: unknown;
  operator?: Operator;
  brand?: BrandContext;
  /** The dashboard user of a session-authenticated request (middleware/brand-session.ts). */
  user?: SessionUser;
  /** The transaction this request's writes join, when a middleware opened one (middleware/idempotency.ts). */
  transaction?: Knex;
  /** The brand whose subdomain or custom domain the request came to (middleware/host-routing.ts); unset on the main site. */
  siteBrand?: SiteBrand;
};

/** What a process is built from before its parts: the configuration, the pool, the chain and the logger. */
export type CoreDeps = {
  config: Config;
  db: Knex;
  provider: JsonRpcProvider;
  chain: ChainAccess;
  logger: Logger;
};

/**
 * What every service and router takes: the core and the process-wide parts, each built once by the composition root
 * (assemble.ts) and never again below it.
 */
export type AppDeps = CoreDeps & {
  /** Valid API keys cached in this process (listening only in a process that serves HTTP). */
  keyCache: KeyCache;
  /** Leases API calls per brand (metering/call-meter.ts). */
  callMeter: CallMeter;
  /** Counts scan-page views off the response path: one dedupe window per process. */
  scanRecorder: ScanRecorder;
  /** Sends invitations and password resets (mail/mailer.ts). */
  mailer: Mailer;
  /** The background jobs of this process, for their health on /readyz. */
  jobs: JobRunner;
};
