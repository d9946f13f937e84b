// What the service's modules are built from: AppDeps, the process-wide dependencies every service and router takes,
// and AppState, what a request carries from one middleware to the next (Koa's ctx.state). Types only, so importing
// them costs nothing and ties nobody to the app's construction (app.ts).
import type { JsonRpcProvider } from "ethers";
import type { Operator } from "./auth/sessions";
import type { KeyCache } from "./brands/key-cache";
import type { BrandContext } from "./brands/service";
import type { ChainAccess } from "./chain/access";
import type { Config } from "./config";
import type { SiteBrand } from "./domains/site-hosts";
import type { Knex } from "./db/knex";
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

export type AppDeps = {
  config: Config;
  db: Knex;
  provider: JsonRpcProvider;
  chain: ChainAccess;
  logger: Logger;
  /** Valid API keys cached in this process; without it every request looks its key up. */
  keyCache?: KeyCache;
  /** Leases API calls per brand (metering/call-meter.ts); without it every call is one statement. */
  callMeter?: CallMeter;
  /** Counts scan-page views off the response path; without it the pages router makes its own. */
  scanRecorder?: ScanRecorder;
  /** Sends invitations and password resets; without it, the one configuration describes (mail/mailer.ts). */
  mailer?: Mailer;
};
