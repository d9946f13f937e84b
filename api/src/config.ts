// Reads process.env once, validates it, and freezes the result; nothing else in the service reads the environment.
import path from "node:path";
import ipaddr from "ipaddr.js";
import { databaseSettings, type DatabaseSettings } from "./db/settings";
import { isDnsName, normalizeHostname } from "./domains/hostnames";

export type Mode = "local" | "production";

export type Config = Readonly<{
  mode: Mode;
  host: string;
  port: number;
  publicBaseUrl: string;
  /** DATABASE_URL with its TLS parameters as node-postgres must read them (see `database`); every pool and client uses it. */
  databaseUrl: string;
  /** Postgres connections (docs/deployment.md): TLS from the URL's libpq parameters, pool size and server-side time-outs. */
  database: DatabaseSettings;
  rpcUrl: string;
  chainId: number;
  networkName: string;
  /** `{txHash}` is replaced; on the local chain the service serves its own transaction page. */
  explorerTxUrlTemplate: string;
  signerPrivateKey: string;
  deploymentsDir: string;
  confirmations: number;
  /** The shared wallet's transaction ledger and its monitor (chain/ledger.ts, chain/ledger-monitor.ts). */
  chainLedger: Readonly<{
    /** A sent transaction with no receipt after this many seconds is re-signed with higher fees. */
    replaceAfterSeconds: number;
    /** How long a request waits for its transaction's receipt before it answers 503 (the transaction goes on). */
    receiptWaitMs: number;
    /** How much a replacement raises both fee fields, in percent (nodes want at least 10). */
    feeBumpPercent: number;
    /** How often the elected monitor looks at open transactions, in milliseconds. */
    monitorIntervalMs: number;
    /** How many blocks a final transaction stays watched for a reorganisation deeper than `confirmations`. */
    reorgWatchBlocks: number;
  }>;
  /** Views schema where the indexer publishes its tables. */
  onchainSchema: string;
  /** The indexer counts as caught up when it is at most this many blocks behind the chain head. */
  indexerMaxLagBlocks: number;
  /**
   * Reverse proxies in front of the API that append to X-Forwarded-For: the client address is the entry that many
   * places from the right. 0 ignores the header (a client could write anything in it).
   */
  trustedProxyHops: number;
  logLevel: string;
  openai: Readonly<{
    apiKey: string | undefined;
    baseUrl: string | undefined;
    model: string;
    timeoutMs: number;
    /** RFQ matches that may use the model, per client address and clock hour, and service-wide per UTC day. */
    matchesPerClientHour: number;
    matchesPerDay: number;
  }>;
  allowLoopbackWebhooks: boolean;
  /** AES-256-GCM key (32 bytes) that encrypts webhook signing secrets at rest. */
  secretsKey: Buffer;
  /** Dispatcher: attempts in flight per process, fallback poll, per-attempt time limit (10 s; lower only for tests). */
  /** Deliveries in flight per dispatcher, idle poll, per-attempt time-out, and days of delivery history kept. */
  /** Outgoing mail (dashboard invitations, password resets). */
  mail: Readonly<{
    /** smtp:// or smtps:// URL of the relay; without it mail is only written to `dir` (local mode). */
    smtpUrl: string | undefined;
    from: string;
    /** Each message is also written here as an .eml file (local mode: .data/mail); undefined writes none. */
    dir: string | undefined;
  }>;
  /** NTAG 424 DNA tags: the master key per-tag SUN keys are derived from, and the version new tags get. */
  tags: Readonly<{ masterKey: Buffer; keyVersion: number }>;
  /** The brand dashboard: where its built files are and how long its sessions live. */
  dashboard: Readonly<{
    distDir: string;
    /** Session cookies get `Secure` (and the __Host- prefix) when the public URL is https. */
    secureCookies: boolean;
    sessionHours: number;
    idleMinutes: number;
  }>;
  /** Orders and payment gateways (docs/payments.md). */
  payments: Readonly<{
    /** Minutes an unpaid order stays payable before it expires. */
    orderTtlMinutes: number;
    /** How often the reconciliation job asks gateways about unsettled orders (and the base of its back-off). */
    reconcileIntervalSeconds: number;
    /** Public order API budgets per client address (IPv6 /64) and clock hour: orders placed, and status reads. */
    ordersPerClientHour: number;
    orderReadsPerClientHour: number;
    /** Where each gateway's API lives: the live URLs in production, the local protocol servers under `npm start`. */
    gateways: Readonly<{
      bkash: Readonly<{ baseUrl: string }>;
      nagad: Readonly<{ baseUrl: string }>;
      sslcommerz: Readonly<{ baseUrl: string }>;
    }>;
    /** Time limit of one call to a gateway; past it the call fails as retryable. */
    gatewayTimeoutMs: number;
  }>;
  /** Brand subdomains and custom domains (docs/custom-domains.md). */
  domains: Readonly<{
    /** Every brand is served at <slug>.<baseDomain>. */
    baseDomain: string;
    /** What a brand's custom domain must be a CNAME of (default: the public base URL's host). */
    cnameTarget: string;
    /** DNS servers the checker asks (`host` or `host:port`); empty: the system's. */
    dnsResolvers: readonly string[];
    /** Time limit of one DNS query. */
    dnsTimeoutMs: number;
    /** How long a new domain is checked (with back-off) before it is marked failed. */
    verifyWindowHours: number;
    /** How often the checker looks for due domains. */
    checkIntervalMs: number;
    /** When set, the TLS ask endpoint answers only requests that give it (and then from anywhere). */
    tlsAskSecret: string | undefined;
  }>;
  /** The key the service signs UNTP credentials with (docs/interop.md); its public half is the did:web document. */
  credentials: Readonly<{
    /** A private JWK (Ed25519 or P-256) from CREDENTIAL_SIGNING_KEY; when unset the key is read from `signingKeyFile`. */
    signingJwk: Readonly<Record<string, unknown>> | undefined;
    /** CREDENTIAL_SIGNING_KEY_FILE: a file holding the private JWK. Local mode defaults to .data and makes the key there once. */
    signingKeyFile: string | undefined;
    /** Whether a missing key file is generated (local mode only: production must be given its key). */
    generateKeyFile: boolean;
  }>;
  webhooks: Readonly<{
    concurrency: number;
    /** Attempts one endpoint, and one brand's endpoints together, may have in flight per dispatcher (fairness). */
    endpointConcurrency: number;
    brandConcurrency: number;
    pollIntervalMs: number;
    timeoutMs: number;
    retentionDays: number;
  }>;
}>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** Hardhat's first public test account: only ever used against the local chain (chain id 31337). */
export const HARDHAT_TEST_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/**
 * The private keys of Hardhat's 20 default accounts (the public "test test … junk" mnemonic): anyone can sign with
 * them, so production refuses every one. Lower-case hex without 0x, as isHardhatKey compares them.
 */
const HARDHAT_KEYS = new Set([
  "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  "92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  "4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  "dbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
  "2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
  "f214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897",
  "701b615bbdfb9de65240bc28bd21bbc0d996645a3dd57e7b12bc2bdf6f192c82",
  "a267530f49f8280200edf313ee7af6b827f2a8bce2897751d06a843f644967b1",
  "47c99abed3324a2707c28affff1267e45918ec8c3f20b8aa892e8b065d2942dd",
  "c526ee95bf44d8fc405a158bb884d9d1238d99f0612e9f33d006bb0789009aaa",
  "8166f546bab6da521a8369cab06c5d2b9e46670292d85c875ee9ec20e84ffb61",
  "ea6c44ac03bff858b476bba40716402b03e41b8e97e276d1baec7c37d42484a0",
  "689af8efa8c651a91ad287602527f3af2fe9f6501a7ac4b061667b5a93e037fd",
  "de9be858da4a475276426320d5e9262ecfc3ba460bfac56360bfa6c4c28b4ee0",
  "df57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e",
]);
/** Hardhat's chain id: the only chain local mode runs on. */
export const LOCAL_CHAIN_ID = 31337;
/** Local mode's documented default SECRETS_KEY (32 bytes, base64); production must set its own. */
/** The local mode's tag master key: public, like the local secrets key, so demo taps can be emulated by anyone. */
export const LOCAL_TAG_MASTER_KEY = "cGFzc3BvcnQtcmVnaXN0cnktbG9jYWwtdGFnLWtleSE=";

export const LOCAL_SECRETS_KEY = "cGFzc3BvcnQtcmVnaXN0cnktbG9jYWwtc2VjcmV0c0s=";

/** The payment gateways' live and sandbox API bases (their integration guides); the clients append the paths. */
const BKASH_LIVE_URL = "https://tokenized.pay.bka.sh/v1.2.0-beta/tokenized/checkout";
const BKASH_SANDBOX_URL = "https://tokenized.sandbox.bka.sh/v1.2.0-beta/tokenized/checkout";
const NAGAD_LIVE_URL = "https://api.mynagad.com";
const NAGAD_SANDBOX_URL = "http://sandbox.mynagad.com:10080/remote-payment-gateway-1.0";
const SSLCOMMERZ_LIVE_URL = "https://securepay.sslcommerz.com";
const SSLCOMMERZ_SANDBOX_URL = "https://sandbox.sslcommerz.com";

type Env = Record<string, string | undefined>;

/** Builds the configuration from `env` (defaults to `process.env`); throws ConfigError listing every bad key. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const mode = (env.SERVICE_MODE ?? (env.NODE_ENV === "production" ? "production" : "local")) as Mode;
  if (mode !== "local" && mode !== "production") problems.push(`SERVICE_MODE must be "local" or "production"`);
  const production = mode === "production";

  const str = (key: string, fallback?: string): string => {
    const value = env[key]?.trim();
    if (value) return value;
    if (fallback !== undefined && !(production && LOCAL_ONLY_DEFAULTS.has(key))) return fallback;
    problems.push(`${key} is required${production ? " in production" : ""}`);
    return "";
  };
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const raw = env[key]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${key} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const url = (key: string, fallback?: string): string => {
    const value = str(key, fallback);
    if (value && !/^https?:\/\/\S+$/i.test(value)) problems.push(`${key} must be an http(s) URL`);
    return withoutTrailingSlashes(value);
  };

  const postgresUrl = (value: string): string => {
    if (value && !/^postgres(?:ql)?:\/\//.test(value)) problems.push("DATABASE_URL must be a postgres:// URL");
    return value;
  };

  const port = int("PORT", 3000, 0, 65535);
  const chainId = int("CHAIN_ID", LOCAL_CHAIN_ID, 1, Number.MAX_SAFE_INTEGER);
  const publicBaseUrl = url("PUBLIC_BASE_URL", `http://127.0.0.1:${port}`);
  const signerPrivateKey = str("SIGNER_PRIVATE_KEY", chainId === LOCAL_CHAIN_ID ? HARDHAT_TEST_KEY : undefined);
  if (signerPrivateKey && !/^0x[0-9a-fA-F]{64}$/.test(signerPrivateKey)) {
    problems.push("SIGNER_PRIVATE_KEY must be a 0x-prefixed 32-byte hex key");
  }
  // The crash points (chain/crash-points.ts) kill the process on purpose: a test hook, never for a live service.
  if (production && env.CRASH_AT) problems.push("CRASH_AT is a test hook and must not be set in production");
  if (production && isHardhatKey(signerPrivateKey)) {
    problems.push("SIGNER_PRIVATE_KEY must not be one of Hardhat's public test keys in production");
  }
  const explorerTxUrlTemplate = str("EXPLORER_TX_URL_TEMPLATE", `${publicBaseUrl}/explorer/tx/{txHash}`);
  if (explorerTxUrlTemplate && !explorerTxUrlTemplate.includes("{txHash}")) {
    problems.push("EXPLORER_TX_URL_TEMPLATE must contain {txHash}");
  }
  const onchainSchema = str("ONCHAIN_SCHEMA", "onchain");
  if (onchainSchema && !/^[a-z_][a-z0-9_]{0,44}$/.test(onchainSchema)) {
    problems.push("ONCHAIN_SCHEMA must be a lower-case SQL identifier of at most 45 characters");
  }
  const webhookConcurrency = int("WEBHOOK_CONCURRENCY", 16, 1, 256);
  const database = databaseSettings(
    postgresUrl(str("DATABASE_URL", "postgres://postgres:postgres@127.0.0.1:54329/passport_registry")),
    {
      // One Node process per core: ten connections keep a process busy while some wait on the chain or a lock.
      poolMin: int("DATABASE_POOL_MIN", 0, 0, 1000),
      poolMax: int("DATABASE_POOL_MAX", 10, 1, 1000),
      statementTimeoutMs: int("DATABASE_STATEMENT_TIMEOUT_MS", 30_000, 0, 3_600_000),
      idleInTransactionTimeoutMs: int("DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS", 60_000, 0, 3_600_000),
    },
    problems,
  );

  const config: Config = {
    mode,
    host: str("HOST", "127.0.0.1"),
    port,
    publicBaseUrl,
    databaseUrl: database.url,
    database,
    rpcUrl: url("RPC_URL", "http://127.0.0.1:8545"),
    chainId,
    networkName: str("NETWORK_NAME", chainId === LOCAL_CHAIN_ID ? "hardhat-local" : `chain-${chainId}`),
    explorerTxUrlTemplate,
    signerPrivateKey,
    deploymentsDir: path.resolve(str("DEPLOYMENTS_DIR", path.join(__dirname, "..", "..", "deployments"))),
    confirmations: int("CONFIRMATIONS", production ? 3 : 1, 0, 1000),
    chainLedger: Object.freeze({
      replaceAfterSeconds: int("CHAIN_REPLACE_AFTER_S", production ? 180 : 60, 1, 86_400),
      receiptWaitMs: int("CHAIN_RECEIPT_WAIT_MS", 60_000, 1000, 600_000),
      feeBumpPercent: int("CHAIN_FEE_BUMP_PERCENT", 13, 11, 1000),
      monitorIntervalMs: int("CHAIN_MONITOR_INTERVAL_MS", 1000, 10, 600_000),
      reorgWatchBlocks: int("CHAIN_REORG_WATCH_BLOCKS", 128, 1, 100_000),
    }),
    onchainSchema,
    indexerMaxLagBlocks: int("INDEXER_MAX_LAG_BLOCKS", 2, 0, 10_000),
    // Never trusted by default, in either mode: without a proxy that overwrites it, X-Forwarded-For is whatever the
    // client wrote, and the login and key throttles would count under an address of the attacker's choosing.
    trustedProxyHops: int("TRUSTED_PROXY_HOPS", 0, 0, 10),
    logLevel: str("LOG_LEVEL", "info"),
    openai: Object.freeze({
      apiKey: env.OPENAI_API_KEY?.trim() || undefined,
      baseUrl: env.OPENAI_BASE_URL?.trim() || undefined,
      model: env.OPENAI_MODEL?.trim() || "gpt-4o-mini",
      timeoutMs: int("OPENAI_TIMEOUT_MS", 8000, 100, 120_000),
      matchesPerClientHour: int("RFQ_AI_MATCHES_PER_CLIENT_HOUR", 30, 0, 1_000_000),
      matchesPerDay: int("RFQ_AI_MATCHES_PER_DAY", 5000, 0, 100_000_000),
    }),
    allowLoopbackWebhooks: (env.ALLOW_LOOPBACK_WEBHOOKS ?? (production ? "false" : "true")) === "true",
    secretsKey: secretsKey(str("SECRETS_KEY", LOCAL_SECRETS_KEY), problems),
    mail: Object.freeze({
      smtpUrl: smtpUrl(env.SMTP_URL?.trim() || undefined, problems),
      from: str("MAIL_FROM", "Passport Registry <no-reply@passport-registry.local>"),
      dir: env.MAIL_DIR?.trim()
        ? path.resolve(env.MAIL_DIR.trim())
        : production
          ? undefined
          : path.join(__dirname, "..", "..", ".data", "mail"),
    }),
    tags: Object.freeze({
      masterKey: thirtyTwoBytes("TAG_MASTER_KEY", str("TAG_MASTER_KEY", LOCAL_TAG_MASTER_KEY), problems),
      keyVersion: int("TAG_KEY_VERSION", 1, 1, 255),
    }),
    dashboard: Object.freeze({
      distDir: path.resolve(str("DASHBOARD_DIST_DIR", path.join(__dirname, "..", "..", "dashboard", "dist"))),
      secureCookies: publicBaseUrl.startsWith("https://"),
      sessionHours: int("DASHBOARD_SESSION_HOURS", 12, 1, 24 * 30),
      idleMinutes: int("DASHBOARD_IDLE_MINUTES", 120, 5, 24 * 60),
    }),
    payments: Object.freeze({
      orderTtlMinutes: int("ORDER_TTL_MINUTES", 30, 5, 24 * 60),
      reconcileIntervalSeconds: int("ORDER_RECONCILE_INTERVAL_SECONDS", 60, 1, 3600),
      // A shopper places an order or two; a status page polls every few seconds while it is open.
      ordersPerClientHour: int("ORDERS_PER_CLIENT_HOUR", 30, 1, 10_000_000),
      orderReadsPerClientHour: int("ORDER_READS_PER_CLIENT_HOUR", 2000, 1, 10_000_000),
      // Local mode defaults to the gateways' sandboxes; scripts/start.ts points these at its local protocol servers.
      gateways: Object.freeze({
        bkash: Object.freeze({ baseUrl: url("BKASH_BASE_URL", production ? BKASH_LIVE_URL : BKASH_SANDBOX_URL) }),
        nagad: Object.freeze({ baseUrl: url("NAGAD_BASE_URL", production ? NAGAD_LIVE_URL : NAGAD_SANDBOX_URL) }),
        sslcommerz: Object.freeze({ baseUrl: url("SSLCOMMERZ_BASE_URL", production ? SSLCOMMERZ_LIVE_URL : SSLCOMMERZ_SANDBOX_URL) }),
      }),
      gatewayTimeoutMs: int("PAYMENT_GATEWAY_TIMEOUT_MS", 10_000, 100, 60_000),
    }),
    domains: Object.freeze({
      baseDomain: hostnameSetting("BASE_DOMAIN", str("BASE_DOMAIN", "localhost"), problems),
      // Defaults to the public host as it is (on one machine an address, which no CNAME can name: set it in production).
      cnameTarget: env.DOMAIN_CNAME_TARGET?.trim() ? hostnameSetting("DOMAIN_CNAME_TARGET", env.DOMAIN_CNAME_TARGET, problems) : hostOf(publicBaseUrl),
      dnsResolvers: dnsServers(env.DNS_RESOLVERS?.trim() ?? "", problems),
      dnsTimeoutMs: int("DNS_TIMEOUT_MS", 5000, 100, 60_000),
      verifyWindowHours: int("DOMAIN_VERIFY_WINDOW_HOURS", 24, 1, 24 * 7),
      checkIntervalMs: int("DOMAIN_CHECK_INTERVAL_MS", 30_000, 100, 3_600_000),
      tlsAskSecret: tlsAskSecret(env.TLS_ASK_SECRET?.trim() || undefined, problems),
    }),
    credentials: Object.freeze({
      signingJwk: signingJwk(env.CREDENTIAL_SIGNING_KEY?.trim() || undefined, problems),
      signingKeyFile: env.CREDENTIAL_SIGNING_KEY_FILE?.trim()
        ? path.resolve(env.CREDENTIAL_SIGNING_KEY_FILE.trim())
        : production
          ? undefined
          : path.join(__dirname, "..", "..", ".data", "credential-signing-key.json"),
      generateKeyFile: !production,
    }),
    webhooks: Object.freeze({
      concurrency: webhookConcurrency,
      // Defaults: a quarter and a half of the slots, so one endpoint's or one brand's slow receivers never hold them all.
      endpointConcurrency: int("WEBHOOK_ENDPOINT_CONCURRENCY", Math.max(1, Math.floor(webhookConcurrency / 4)), 1, 256),
      brandConcurrency: int("WEBHOOK_BRAND_CONCURRENCY", Math.max(1, Math.floor(webhookConcurrency / 2)), 1, 256),
      pollIntervalMs: int("WEBHOOK_POLL_INTERVAL_MS", 1000, 50, 60_000),
      timeoutMs: int("WEBHOOK_TIMEOUT_MS", 10_000, 1000, 10_000),
      retentionDays: int("WEBHOOK_RETENTION_DAYS", 30, 1, 3650),
    }),
  };
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(config.logLevel)) {
    problems.push("LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent");
  }
  // Local mode is for one machine and Hardhat's chain, where its public keys are harmless: anywhere else they are
  // keys anyone holds, so a missing SERVICE_MODE must not quietly run against a real network.
  if (!production && chainId !== LOCAL_CHAIN_ID) {
    problems.push(`CHAIN_ID must be ${LOCAL_CHAIN_ID} in local mode (got ${chainId}); set SERVICE_MODE=production for another chain`);
  }
  if (!production && config.rpcUrl && !isLoopbackUrl(config.rpcUrl)) {
    problems.push("RPC_URL must be on this machine (127.0.0.1, ::1 or localhost) in local mode; set SERVICE_MODE=production for a remote node");
  }
  // Gateway calls carry merchant credentials (SSLCommerz's store password is in the query): never in clear text.
  for (const [name, gateway] of Object.entries(config.payments.gateways)) {
    if (production && !gateway.baseUrl.startsWith("https://")) problems.push(`${name.toUpperCase()}_BASE_URL must be an https URL in production`);
  }
  if (production && config.tags.masterKey.equals(Buffer.from(LOCAL_TAG_MASTER_KEY, "base64"))) {
    problems.push("TAG_MASTER_KEY must not be the public local key in production");
  }
  if (production && config.secretsKey.equals(Buffer.from(LOCAL_SECRETS_KEY, "base64"))) {
    problems.push("SECRETS_KEY must not be the public local key in production");
  }
  // One key for two jobs: whoever reads the webhook secrets' key could then make tags that pass as any brand's.
  if (production && config.tags.masterKey.length === 32 && config.tags.masterKey.equals(config.secretsKey)) {
    problems.push("TAG_MASTER_KEY must not be the same key as SECRETS_KEY in production");
  }
  if (production && !config.credentials.signingJwk && !config.credentials.signingKeyFile) {
    problems.push("CREDENTIAL_SIGNING_KEY or CREDENTIAL_SIGNING_KEY_FILE is required in production");
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** Keys whose defaults only make sense on one machine: production must set them. */
const LOCAL_ONLY_DEFAULTS = new Set(["DATABASE_URL", "RPC_URL", "PUBLIC_BASE_URL", "SIGNER_PRIVATE_KEY", "SECRETS_KEY", "TAG_MASTER_KEY"]);

/** A hostname setting (BASE_DOMAIN, DOMAIN_CNAME_TARGET) in its normal form: lower case, no trailing dot. */
function hostnameSetting(name: string, value: string, problems: string[]): string {
  const host = normalizeHostname(value);
  if (!isDnsName(host)) problems.push(`${name} must be a DNS name such as passports.example.com (got "${value}")`);
  return host;
}

/** The host of a URL, lower case ("" when it is not one; the URL's own check reports that). */
function hostOf(value: string): string {
  try {
    return new URL(value).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/** DNS_RESOLVERS: a comma list of addresses, each optionally with a port (`1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`). */
function dnsServers(value: string, problems: string[]): readonly string[] {
  const servers = value === "" ? [] : value.split(",").map((entry) => entry.trim());
  for (const server of servers) {
    const [, address, port] = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(server) ?? [server, server];
    if (!address || !ipaddr.isValid(address) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      problems.push(`DNS_RESOLVERS must list IP addresses, each with an optional :port (got "${server}")`);
    }
  }
  return Object.freeze(servers);
}

/** CREDENTIAL_SIGNING_KEY, when set: a private JWK of a key type credentials are signed with (interop/signing-key.ts). */
function signingJwk(value: string | undefined, problems: string[]): Readonly<Record<string, unknown>> | undefined {
  if (value === undefined) return undefined;
  let jwk: unknown;
  try {
    jwk = JSON.parse(value);
  } catch {
    jwk = undefined;
  }
  const key = jwk as Record<string, unknown> | undefined;
  const supported = (key?.kty === "OKP" && key.crv === "Ed25519") || (key?.kty === "EC" && key.crv === "P-256");
  if (!key || typeof key !== "object" || !supported || typeof key.d !== "string") {
    // Never the value itself in the message: it is a private key.
    problems.push("CREDENTIAL_SIGNING_KEY must be a private JWK (JSON) of an Ed25519 (OKP) or P-256 (EC) key");
    return undefined;
  }
  return Object.freeze({ ...key });
}

/** TLS_ASK_SECRET, when set: long enough not to be guessed. */
function tlsAskSecret(value: string | undefined, problems: string[]): string | undefined {
  if (value !== undefined && value.length < 16) problems.push("TLS_ASK_SECRET must be at least 16 characters");
  return value;
}

/** SMTP_URL as smtp:// or smtps:// (credentials in the URL, as nodemailer takes them). */
function smtpUrl(value: string | undefined, problems: string[]): string | undefined {
  if (value !== undefined && !/^smtps?:\/\/[^\s/]+/i.test(value)) problems.push("SMTP_URL must be an smtp:// or smtps:// URL");
  return value;
}

/** SECRETS_KEY as 64 hex digits or base64 of exactly 32 bytes. */
function secretsKey(value: string, problems: string[]): Buffer {
  return thirtyTwoBytes("SECRETS_KEY", value, problems);
}

/** A 32-byte key given as 64 hex digits or as base64. */
function thirtyTwoBytes(name: string, value: string, problems: string[]): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (value && (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(value) && key.toString("base64") !== value))) {
    problems.push(`${name} must be 32 bytes, as 64 hex digits or base64`);
  }
  return key;
}

/** Whether `value` is one of Hardhat's default keys, in any letter case, with or without 0x. */
function isHardhatKey(value: string): boolean {
  const hex = value.trim().toLowerCase();
  return HARDHAT_KEYS.has(hex.startsWith("0x") ? hex.slice(2) : hex);
}

/** Whether the URL's host is this machine: localhost or a loopback address (127.0.0.0/8, ::1). */
function isLoopbackUrl(value: string): boolean {
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost") return true;
  const address = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return ipaddr.isValid(address) && ipaddr.process(address).range() === "loopback";
}

/** The URL without trailing slashes; a loop, not /\/+$/, whose search from every slash of a long run is quadratic. */
function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === "/") end -= 1;
  return value.slice(0, end);
}
