// Reads process.env once, validates it, and freezes the result; nothing else in the service reads the environment.
// Each variable is declared once in VARIABLES (type, defaults, production rule, documentation); docs/configuration.md
// lists them from there (`npm run docs:config`).
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
  /** Products a bulk issuance claims per database transaction. */
  bulkClaimChunk: number;
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
  /** The EU DPP registry passports are registered at (docs/registry.md); no URL: nothing is sent. */
  registry: Readonly<{
    url: string | undefined;
    /** Bearer token sent to the registry (the CIRPASS-2 mock takes an OIDC access token). */
    token: string | undefined;
    /** Whether the registry takes up to 100 registrations in one request (the local registry does; the mock does not). */
    batchUploads: boolean;
    timeoutMs: number;
  }>;
  /** The base URL of the deployment that is this one's back-up operator (ESPR Art. 10(4)); passports name it. */
  backupOperatorUrl: string | undefined;
  /** Back-up operation (docs/backup.md): the feed this deployment offers its back-up, and the primaries it backs up. */
  backup: Readonly<{
    /** The key this deployment's back-up operator presents to read its changes feed; unset: no feed. */
    feedKey: string | undefined;
    /** The deployments this one keeps a verified copy of, each with the feed key it was issued. */
    primaries: ReadonlyArray<Readonly<{ baseUrl: string; feedKey: string }>>;
    pollIntervalMs: number;
  }>;
  /** Deliveries in flight per dispatcher, idle poll, per-attempt time-out, and days of delivery history kept. */
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
/** The local mode's tag master key: public, like the local secrets key, so demo taps can be emulated by anyone. */
export const LOCAL_TAG_MASTER_KEY = "cGFzc3BvcnQtcmVnaXN0cnktbG9jYWwtdGFnLWtleSE=";
/** Local mode's documented default SECRETS_KEY (32 bytes, base64); production must set its own. */
export const LOCAL_SECRETS_KEY = "cGFzc3BvcnQtcmVnaXN0cnktbG9jYWwtc2VjcmV0c0s=";

/** The payment gateways' live and sandbox API bases (their integration guides); the clients append the paths. */
const BKASH_LIVE_URL = "https://tokenized.pay.bka.sh/v1.2.0-beta/tokenized/checkout";
const BKASH_SANDBOX_URL = "https://tokenized.sandbox.bka.sh/v1.2.0-beta/tokenized/checkout";
const NAGAD_LIVE_URL = "https://api.mynagad.com";
const NAGAD_SANDBOX_URL = "http://sandbox.mynagad.com:10080/remote-payment-gateway-1.0";
const SSLCOMMERZ_LIVE_URL = "https://securepay.sslcommerz.com";
const SSLCOMMERZ_SANDBOX_URL = "https://sandbox.sslcommerz.com";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const REPO_ROOT = path.join(__dirname, "..", "..");

type Env = Record<string, string | undefined>;

/** How a variable's text becomes its value: a problem (with the variable's name to put in front) or a value. */
type Kind<T> = {
  /** The type and its bounds, as the configuration page shows them. */
  type: string;
  /** The value, or the problems with `raw` (which then gives way to the default). */
  parse(raw: string, name: string): { value: T } | { problem: string | string[] };
  /** Whether the variable may stay unset (its value is then undefined). */
  optional: boolean;
  /** Stands in for a required value that is missing: loadConfig throws before anyone sees it. */
  missing: T;
};

/** Values other defaults are derived from; each is declared before the variables whose default uses it. */
type Basis = { PORT: number; CHAIN_ID: number; PUBLIC_BASE_URL: string; WEBHOOK_CONCURRENCY: number };
type Default<T> = T | undefined | ((basis: Basis) => T | undefined);
/** Production must set the variable: the local default is only good on one machine. */
export const REQUIRED = Symbol("required in production");
/** Production refuses the variable (a test hook). */
export const REFUSED = Symbol("refused in production");

/** One environment variable, declared once: its type and validation, defaults, production rule and documentation. */
export type Variable<T> = {
  kind: Kind<T>;
  /** The default in local mode (undefined: unset). */
  local?: Default<T>;
  /** The default in production when it differs from local (present but undefined: unset), or REQUIRED or REFUSED. */
  production?: Default<T> | typeof REQUIRED | typeof REFUSED;
  /** Further checks of a set or defaulted value; returns the problems. */
  check?: (value: T, production: boolean) => string | ReadonlyArray<string | undefined> | undefined;
  /** How the page shows a default that is derived or not worth printing, per mode. */
  shown?: { local?: string; production?: string };
  /** One line of documentation (markdown). */
  doc: string;
  /** Read by another program, not by loadConfig (listed here so the page documents it). */
  readBy?: string;
};

function variable<T>(kind: Kind<T>, spec: Omit<Variable<T>, "kind">): Variable<T> {
  return { kind, ...spec };
}

const integer = (min: number, max: number): Kind<number> => ({
  type: max === Number.MAX_SAFE_INTEGER ? `integer, ${min} or more` : `integer, ${min} to ${max}`,
  optional: false,
  missing: 0,
  parse(raw, name) {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) return { problem: `${name} must be an integer from ${min} to ${max} (got "${raw}")` };
    return { value };
  },
});
const text = (type = "text"): Kind<string> => ({ type, optional: false, missing: "", parse: (raw) => ({ value: raw }) });
const matching = (type: string, pattern: RegExp, problem: string): Kind<string> => ({
  ...text(type),
  parse: (raw, name) => (pattern.test(raw) ? { value: raw } : { problem: `${name} ${problem}` }),
});
const httpUrl = (): Kind<string> => ({
  type: "http(s) URL",
  optional: false,
  missing: "",
  parse: (raw, name) => (/^https?:\/\/\S+$/i.test(raw) ? { value: withoutTrailingSlashes(raw) } : { problem: `${name} must be an http(s) URL` }),
});
const directory = (): Kind<string> => ({ type: "path", optional: false, missing: "", parse: (raw) => ({ value: path.resolve(raw) }) });
/** `true` turns it on; anything else is off. */
const flag = (): Kind<boolean> => ({ type: "`true` or `false`", optional: false, missing: false, parse: (raw) => ({ value: raw === "true" }) });
/** A 32-byte key given as 64 hex digits or as base64. */
const key32 = (): Kind<Buffer> => ({
  type: "32 bytes, hex or base64",
  optional: false,
  missing: Buffer.alloc(0),
  parse(raw, name) {
    const hex = /^[0-9a-fA-F]{64}$/.test(raw);
    const key = hex ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
    if (key.length !== 32 || (!hex && key.toString("base64") !== raw)) return { problem: `${name} must be 32 bytes, as 64 hex digits or base64` };
    return { value: key };
  },
});
/** A hostname in its normal form: lower case, no trailing dot. */
const hostname = (): Kind<string> => ({
  type: "DNS name",
  optional: false,
  missing: "",
  parse(raw, name) {
    const host = normalizeHostname(raw);
    return isDnsName(host) ? { value: host } : { problem: `${name} must be a DNS name such as passports.example.com (got "${raw}")` };
  },
});
/** A comma list of addresses, each optionally with a port (`1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`). */
const dnsServers = (): Kind<readonly string[]> => ({
  type: "IP[:port], comma-separated",
  optional: false,
  missing: [],
  parse(raw, name) {
    const servers = raw.split(",").map((entry) => entry.trim());
    const problems = servers.filter((server) => {
      const [, address, port] = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(server) ?? [server, server];
      return !address || !ipaddr.isValid(address) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535));
    });
    if (problems.length > 0) return { problem: problems.map((server) => `${name} must list IP addresses, each with an optional :port (got "${server}")`) };
    return { value: Object.freeze(servers) };
  },
});
/** A private JWK of a key type credentials are signed with (interop/signing-key.ts). */
const privateJwk = (): Kind<Readonly<Record<string, unknown>>> => ({
  type: "private JWK (JSON)",
  optional: false,
  missing: {},
  parse(raw, name) {
    let key: Record<string, unknown> | undefined;
    try {
      key = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      key = undefined;
    }
    const supported = (key?.kty === "OKP" && key.crv === "Ed25519") || (key?.kty === "EC" && key.crv === "P-256");
    if (!key || typeof key !== "object" || !supported || typeof key.d !== "string") {
      // Never the value itself in the message: it is a private key.
      return { problem: `${name} must be a private JWK (JSON) of an Ed25519 (OKP) or P-256 (EC) key` };
    }
    return { value: Object.freeze({ ...key }) };
  },
});
/** The kind, with the variable allowed to stay unset. */
const optional = <T>(kind: Kind<T>): Kind<T | undefined> => ({ ...kind, optional: true, missing: undefined });

/**
 * Every environment variable the service reads, in the order the configuration page lists them. Each is declared
 * here once; loadConfig reads them and `npm run docs:config` writes the table of docs/configuration.md from them.
 */
/** A payment gateway's base URL: its sandbox locally, its live API in production, https wherever it is live. */
function gatewayUrl(name: string, sandbox: string, live: string, doc: string) {
  return variable(httpUrl(), {
    local: sandbox,
    production: live,
    check: httpsInProduction(name),
    shown: { local: "the sandbox (`npm start`: its local gateway)", production: "the live API" },
    doc,
  });
}

export const VARIABLES = {
  SERVICE_MODE: variable(matching("`local` or `production`", /^(?:local|production)$/, 'must be "local" or "production"'), {
    local: "local",
    production: "production",
    shown: { local: "`local` (`production` when `NODE_ENV=production`)" },
    doc: "Production reads everything from the environment and refuses the local keys and defaults marked required.",
  }),
  HOST: variable(text("address"), { local: "127.0.0.1", doc: "Address the API listens on." }),
  PORT: variable(integer(0, 65535), { local: 3000, doc: "Port the API listens on." }),
  PUBLIC_BASE_URL: variable(httpUrl(), {
    local: (b) => `http://127.0.0.1:${b.PORT}`,
    production: REQUIRED,
    shown: { local: "`http://127.0.0.1:$PORT`" },
    doc: "Absolute URLs in responses, pages and emails use it; `https` makes dashboard cookies `Secure`.",
  }),
  DATABASE_URL: variable(matching("postgres:// URL", /^postgres(?:ql)?:\/\//, "must be a postgres:// URL"), {
    local: "postgres://postgres:postgres@127.0.0.1:54329/passport_registry",
    production: REQUIRED,
    shown: { local: "the embedded server" },
    doc: "TLS with libpq's `sslmode` (disable, require, verify-ca, verify-full) and `sslrootcert=<CA file>` in the URL, checked at start ([deployment.md](deployment.md#postgres-over-tls)).",
  }),
  // One Node process per core: ten connections keep a process busy while some wait on the chain or a lock.
  DATABASE_POOL_MAX: variable(integer(1, 1000), { local: 10, doc: "One API process's pool size ([deployment.md](deployment.md#pool-size-and-time-outs))." }),
  DATABASE_POOL_MIN: variable(integer(0, 1000), { local: 0, doc: "Connections the pool keeps open when idle; at most `DATABASE_POOL_MAX`." }),
  DATABASE_STATEMENT_TIMEOUT_MS: variable(integer(0, 3_600_000), {
    local: 30_000,
    doc: "Postgres cancels a statement running longer (0: no limit); the request answers `503`.",
  }),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: variable(integer(0, 3_600_000), {
    local: 60_000,
    doc: "Postgres ends a session idle inside a transaction this long, releasing its locks (0: no limit).",
  }),
  RPC_URL: variable(httpUrl(), {
    local: "http://127.0.0.1:8545",
    production: REQUIRED,
    doc: "Any EVM JSON-RPC; local mode accepts only this machine (`localhost`, 127.0.0.0/8, `::1`).",
  }),
  CHAIN_ID: variable(integer(1, Number.MAX_SAFE_INTEGER), { local: LOCAL_CHAIN_ID, shown: { production: "`31337`: set the chain's id" }, doc: "Local mode runs only on Hardhat's chain (31337)." }),
  NETWORK_NAME: variable(text(), {
    local: (b) => (b.CHAIN_ID === LOCAL_CHAIN_ID ? "hardhat-local" : `chain-${b.CHAIN_ID}`),
    shown: { local: "`hardhat-local`", production: "`chain-$CHAIN_ID`, e.g. set `polygon-amoy`" },
    doc: "The network's name in public records.",
  }),
  SIGNER_PRIVATE_KEY: variable(text("0x + 64 hex digits"), {
    local: (b) => (b.CHAIN_ID === LOCAL_CHAIN_ID ? HARDHAT_TEST_KEY : undefined),
    production: REQUIRED,
    // Both checks on the text as given: a Hardhat key written without 0x is reported as such too.
    check: (value, production) => [
      /^0x[0-9a-fA-F]{64}$/.test(value) ? undefined : "SIGNER_PRIVATE_KEY must be a 0x-prefixed 32-byte hex key",
      production && isHardhatKey(value) ? "SIGNER_PRIVATE_KEY must not be one of Hardhat's public test keys in production" : undefined,
    ],
    shown: { local: "Hardhat's public test key #0 (chain 31337 only)" },
    doc: "The shared wallet's key; production refuses Hardhat's 20 default keys (any case, with or without `0x`).",
  }),
  EXPLORER_TX_URL_TEMPLATE: variable(matching("text with `{txHash}`", /\{txHash\}/, "must contain {txHash}"), {
    local: (b) => `${b.PUBLIC_BASE_URL}/explorer/tx/{txHash}`,
    shown: { local: "`$PUBLIC_BASE_URL/explorer/tx/{txHash}`", production: "e.g. `https://amoy.polygonscan.com/tx/{txHash}`" },
    doc: "A transaction's explorer link; on the local chain the service serves its own transaction page.",
  }),
  CONFIRMATIONS: variable(integer(0, 1000), {
    local: 1,
    production: 3,
    doc: "Depth at which a block is final (its own block is the first; 0 and 1 both mean its own block).",
  }),
  CHAIN_RECEIPT_WAIT_MS: variable(integer(1000, 600_000), {
    local: 60_000,
    doc: "How long a request that sends a transaction waits for its receipt before it answers `503` naming it (the transaction goes on).",
  }),
  CHAIN_REPLACE_AFTER_S: variable(integer(1, 86_400), {
    local: 60,
    production: 180,
    doc: "A shared-wallet transaction with no receipt after this many seconds is re-signed (same nonce) with higher fees ([chain.md](chain.md)).",
  }),
  CHAIN_FEE_BUMP_PERCENT: variable(integer(11, 1000), { local: 13, doc: "How much a replacement raises both fee fields (nodes want at least 10)." }),
  CHAIN_MONITOR_INTERVAL_MS: variable(integer(10, 600_000), { local: 1000, doc: "How often the elected ledger monitor looks at open transactions." }),
  BULK_CLAIM_CHUNK: variable(integer(1, 10_000), {
    local: 1000,
    doc: "Bulk issuance: products claimed per database transaction (each one's content hashed and its certificate counted in it).",
  }),
  CHAIN_REORG_WATCH_BLOCKS: variable(integer(1, 100_000), {
    local: 128,
    doc: "How many blocks a final transaction stays watched for a reorganisation deeper than `CONFIRMATIONS`.",
  }),
  // The crash points (chain/crash-points.ts) kill the process on purpose: a test hook, never for a live service.
  CRASH_AT: variable(optional(text("issuance step")), {
    production: REFUSED,
    doc: "Test hook: the process kills itself at that issuance step (`quota-taken`, `signed`, `sent`, `mined`, `recorded`; `bulk-claimed` in a bulk issuance).",
  }),
  CRASH_AFTER: variable(integer(1, Number.MAX_SAFE_INTEGER), {
    local: 1,
    readBy: "api/src/chain/crash-points.ts",
    doc: "Test hook: the how-many-th time `CRASH_AT`'s step is reached.",
  }),
  DEPLOYMENTS_DIR: variable(directory(), {
    local: path.join(REPO_ROOT, "deployments"),
    shown: { local: "`./deployments`" },
    doc: "Where the contracts' `<chainId>.json` deployment files live.",
  }),
  ONCHAIN_SCHEMA: variable(matching("SQL identifier", /^[a-z_][a-z0-9_]{0,44}$/, "must be a lower-case SQL identifier of at most 45 characters"), {
    local: "onchain",
    doc: "The views schema the indexer publishes its tables in.",
  }),
  INDEXER_MAX_LAG_BLOCKS: variable(integer(0, 10_000), { local: 2, doc: "`/readyz` fails when the indexer is further behind the chain head." }),
  INDEXER_POLLING_INTERVAL_MS: variable(integer(100, Number.MAX_SAFE_INTEGER), {
    local: 100,
    production: 1000,
    readBy: "the indexer (indexer/ponder.config.ts) and `npm start`",
    doc: "Ponder's polling interval; bounds how soon a mint is visible.",
  }),
  OPENAI_API_KEY: variable(optional(text("secret")), { shown: { local: "unset (the local matcher)" }, doc: "Key of any OpenAI-compatible server, for RFQ matching." }),
  OPENAI_BASE_URL: variable(optional(text("URL")), { doc: "Base URL of that server (unset: OpenAI's)." }),
  OPENAI_MODEL: variable(text(), { local: "gpt-4o-mini", doc: "The model RFQ matching asks." }),
  OPENAI_TIMEOUT_MS: variable(integer(100, 120_000), { local: 8000, doc: "Time limit of one model call; past it the local matcher answers." }),
  RFQ_AI_MATCHES_PER_CLIENT_HOUR: variable(integer(0, 1_000_000), { local: 30, doc: "AI-assisted RFQ matches per client address and clock hour." }),
  RFQ_AI_MATCHES_PER_DAY: variable(integer(0, 100_000_000), { local: 5000, doc: "AI-assisted RFQ matches service-wide per UTC day; past them the local matcher answers." }),
  // Never trusted by default, in either mode: without a proxy that overwrites it, X-Forwarded-For is whatever the
  // client wrote, and the login and key throttles would count under an address of the attacker's choosing.
  TRUSTED_PROXY_HOPS: variable(integer(0, 10), {
    local: 0,
    doc: "Proxies that append to X-Forwarded-For (one balancer: `1`); the client address is the entry that many places from the right, 0 ignores the header.",
  }),
  LOG_LEVEL: variable(matching(LOG_LEVELS.join(", "), new RegExp(`^(?:${LOG_LEVELS.join("|")})$`), `must be one of ${LOG_LEVELS.join(", ")}`), {
    local: "info",
    doc: "pino's log level.",
  }),
  ALLOW_LOOPBACK_WEBHOOKS: variable(flag(), { local: true, production: false, doc: "Whether webhook endpoints may be on this machine." }),
  SECRETS_KEY: variable(key32(), {
    local: Buffer.from(LOCAL_SECRETS_KEY, "base64"),
    production: REQUIRED,
    check: (value, production) => (production && value.equals(Buffer.from(LOCAL_SECRETS_KEY, "base64")) ? "SECRETS_KEY must not be the public local key in production" : undefined),
    shown: { local: "a fixed, public local key" },
    doc: "Encrypts webhook signing secrets at rest (AES-256-GCM).",
  }),
  WEBHOOK_CONCURRENCY: variable(integer(1, 256), { local: 16, doc: "Deliveries in flight per dispatcher." }),
  // Defaults: a quarter and a half of the slots, so one endpoint's or one brand's slow receivers never hold them all.
  WEBHOOK_ENDPOINT_CONCURRENCY: variable(integer(1, 256), {
    local: (b) => Math.max(1, Math.floor(b.WEBHOOK_CONCURRENCY / 4)),
    shown: { local: "a quarter of `WEBHOOK_CONCURRENCY`" },
    doc: "Deliveries in flight per endpoint in one dispatcher ([fairness](webhooks.md#dispatcher-operation)).",
  }),
  WEBHOOK_BRAND_CONCURRENCY: variable(integer(1, 256), {
    local: (b) => Math.max(1, Math.floor(b.WEBHOOK_CONCURRENCY / 2)),
    shown: { local: "half of `WEBHOOK_CONCURRENCY`" },
    doc: "Deliveries in flight per brand in one dispatcher.",
  }),
  WEBHOOK_POLL_INTERVAL_MS: variable(integer(50, 60_000), { local: 1000, doc: "The dispatcher's idle poll." }),
  WEBHOOK_TIMEOUT_MS: variable(integer(1000, 10_000), { local: 10_000, doc: "Time limit of one delivery attempt." }),
  WEBHOOK_RETENTION_DAYS: variable(integer(1, 3650), { local: 30, doc: "Days of delivery history kept." }),
  TAG_MASTER_KEY: variable(key32(), {
    local: Buffer.from(LOCAL_TAG_MASTER_KEY, "base64"),
    production: REQUIRED,
    check: (value, production) => (production && value.equals(Buffer.from(LOCAL_TAG_MASTER_KEY, "base64")) ? "TAG_MASTER_KEY must not be the public local key in production" : undefined),
    shown: { local: "a fixed, public local key" },
    doc: "Every NTAG 424 tag's keys are derived from it ([nfc-tags.md](nfc-tags.md)): keep it secret (in a KMS where you can); production refuses one equal to `SECRETS_KEY`.",
  }),
  TAG_KEY_VERSION: variable(integer(1, 255), { local: 1, doc: "The key version new tags get." }),
  CREDENTIAL_SIGNING_KEY: variable(optional(privateJwk()), {
    shown: { production: "this or the file **required**" },
    doc: "The private JWK (Ed25519 or P-256) that signs UNTP credentials; its public half is `/.well-known/did.json` ([interop.md](interop.md#signing-key-and-didweb)).",
  }),
  CREDENTIAL_SIGNING_KEY_FILE: variable(optional(directory()), {
    local: path.join(REPO_ROOT, ".data", "credential-signing-key.json"),
    production: undefined,
    shown: { local: "`.data/credential-signing-key.json`, made once (Ed25519)", production: "this or the key **required**" },
    doc: "A file holding that private JWK, read when `CREDENTIAL_SIGNING_KEY` is unset.",
  }),
  SMTP_URL: variable(optional(matching("smtp(s):// URL", /^smtps?:\/\/[^\s/]+/i, "must be an smtp:// or smtps:// URL")), {
    shown: { local: "unset: mail is only written to `MAIL_DIR`", production: "e.g. `smtps://user:password@smtp.example.com:465`" },
    doc: "The relay dashboard invitations and password resets are sent through (nodemailer).",
  }),
  MAIL_FROM: variable(text(), { local: "Passport Registry <no-reply@passport-registry.local>", doc: "The sender of those emails." }),
  MAIL_DIR: variable(optional(directory()), {
    local: path.join(REPO_ROOT, ".data", "mail"),
    production: undefined,
    shown: { local: "`.data/mail`" },
    doc: "Every email is also written there as an `.eml` file.",
  }),
  DASHBOARD_DIST_DIR: variable(directory(), {
    local: path.join(REPO_ROOT, "dashboard", "dist"),
    shown: { local: "`./dashboard/dist`" },
    doc: "Where the built dashboard is (`npm install` builds it).",
  }),
  DASHBOARD_SESSION_HOURS: variable(integer(1, 24 * 30), { local: 12, doc: "How long a dashboard session lives." }),
  DASHBOARD_IDLE_MINUTES: variable(integer(5, 24 * 60), { local: 120, doc: "How long a dashboard session may sit unused." }),
  BASE_DOMAIN: variable(hostname(), { local: "localhost", doc: "Every brand is served at `<slug>.<BASE_DOMAIN>` ([custom-domains.md](custom-domains.md#configuration))." }),
  DOMAIN_CNAME_TARGET: variable(optional(hostname()), {
    shown: { local: "the public host", production: "the public host; set it when that is an address" },
    doc: "What a brand's custom domain must be a CNAME of.",
  }),
  DNS_RESOLVERS: variable(optional(dnsServers()), { shown: { local: "the system's" }, doc: "DNS servers the domain checker asks." }),
  DNS_TIMEOUT_MS: variable(integer(100, 60_000), { local: 5000, doc: "Time limit of one DNS query." }),
  DOMAIN_VERIFY_WINDOW_HOURS: variable(integer(1, 24 * 7), { local: 24, doc: "How long a new domain is checked (with back-off) before it is marked failed." }),
  DOMAIN_CHECK_INTERVAL_MS: variable(integer(100, 3_600_000), { local: 30_000, doc: "How often the checker looks for due domains." }),
  TLS_ASK_SECRET: variable(optional(matching("text, 16 characters or more", /^.{16,}$/s, "must be at least 16 characters")), {
    doc: "When set, Caddy's TLS ask endpoint answers only requests that give it (and then from anywhere).",
  }),
  // Local mode defaults to the gateways' sandboxes; scripts/start.ts points these at its local protocol servers.
  // Gateway calls carry merchant credentials (SSLCommerz's store password is in the query): never in clear text.
  BKASH_BASE_URL: gatewayUrl("BKASH_BASE_URL", BKASH_SANDBOX_URL, BKASH_LIVE_URL, "bKash's API ([payments.md](payments.md#production-settings))."),
  NAGAD_BASE_URL: gatewayUrl("NAGAD_BASE_URL", NAGAD_SANDBOX_URL, NAGAD_LIVE_URL, "Nagad's API."),
  SSLCOMMERZ_BASE_URL: gatewayUrl("SSLCOMMERZ_BASE_URL", SSLCOMMERZ_SANDBOX_URL, SSLCOMMERZ_LIVE_URL, "SSLCommerz's API."),
  PAYMENT_GATEWAY_TIMEOUT_MS: variable(integer(100, 60_000), { local: 10_000, doc: "Time limit of one call to a gateway; past it the call fails as retryable." }),
  ORDER_TTL_MINUTES: variable(integer(5, 24 * 60), { local: 30, doc: "Minutes an unpaid order stays payable before it expires." }),
  ORDER_RECONCILE_INTERVAL_SECONDS: variable(integer(1, 3600), { local: 60, doc: "How often reconciliation asks gateways about unsettled orders (and the base of its back-off)." }),
  // A shopper places an order or two; a status page polls every few seconds while it is open.
  ORDERS_PER_CLIENT_HOUR: variable(integer(1, 10_000_000), { local: 30, doc: "Orders one client address (IPv6 /64) may place per clock hour." }),
  ORDER_READS_PER_CLIENT_HOUR: variable(integer(1, 10_000_000), { local: 2000, doc: "Order status reads per client address and clock hour." }),
  REGISTRY_URL: variable(optional(httpUrl()), {
    check: (value, production) => (value === undefined ? undefined : httpsInProduction("REGISTRY_URL")(value, production)),
    shown: { local: "unset (`npm start`: its local registry)", production: "unset: nothing is registered" },
    doc: "Base URL of the EU DPP registry, spoken to over the CIRPASS-2 mock registry's interface; unset: passports are not registered.",
  }),
  REGISTRY_TOKEN: variable(optional(text("secret")), { doc: "Bearer token the registry is called with (an OIDC access token for the CIRPASS-2 mock)." }),
  REGISTRY_BATCH_UPLOADS: variable(flag(), {
    local: false,
    doc: "Whether the registry takes up to 100 registrations per request (the local registry does; the CIRPASS-2 mock takes one).",
  }),
  REGISTRY_TIMEOUT_MS: variable(integer(100, 120_000), { local: 30_000, doc: "Time limit of one call to the registry (it reads each passport before it answers)." }),
  BACKUP_OPERATOR_URL: variable(optional(httpUrl()), {
    local: (b) => b.PUBLIC_BASE_URL,
    production: undefined,
    shown: { local: "`$PUBLIC_BASE_URL` (no second instance)", production: "unset: passports cannot be registered" },
    doc: "Base URL of the deployment that is this one's back-up operator; a passport's back-up URL is `<it>/api/dpp-lifecycle/v1/dpps/<dppId>`.",
  }),
  BACKUP_FEED_KEY: variable(optional(matching("an authority key (pr_authority_…)", /^pr_authority_\S{20,}$/, "must be an authority key issued with `npm run admin -- issue-authority-key` (pr_authority_…)")), {
    doc: "The authority key (`npm run admin -- issue-authority-key`) this deployment's back-up operator sends to read its changes feed (`/api/backup/v1/changes`) and its passports whole, so each version's bytes hash to the chain; unset: no feed ([backup.md](backup.md)).",
  }),
  BACKUP_OF: variable(optional(matching("http(s) URLs, comma-separated", /^https?:\/\/[^\s,]+(?:,https?:\/\/[^\s,]+)*$/i, "must be http(s) URLs separated by commas")), {
    check: (value, production) => (production && value?.split(",").some((url) => !url.startsWith("https://")) ? "BACKUP_OF must list https URLs in production" : undefined),
    doc: "Base URLs of the deployments this one is the back-up operator of: it copies and serves their passports ([backup.md](backup.md)).",
  }),
  BACKUP_OF_KEYS: variable(optional(matching("authority keys, comma-separated", /^pr_authority_[^\s,]{20,}(?:,pr_authority_[^\s,]{20,})*$/, "must be the primaries' authority keys (pr_authority_…), separated by commas")), {
    doc: "The feed key each primary of `BACKUP_OF` issued to this deployment (its `BACKUP_FEED_KEY`), in the same order.",
  }),
  BACKUP_POLL_INTERVAL_MS: variable(integer(100, 86_400_000), { local: 30_000, doc: "How often a back-up asks its primaries what changed." }),
};

type Variables = typeof VARIABLES;
type Values = { [K in keyof Variables]: Variables[K] extends Variable<infer T> ? T : never };

function httpsInProduction(name: string) {
  return (value: string, production: boolean) => (production && !value.startsWith("https://") ? `${name} must be an https URL in production` : undefined);
}

/** Builds the configuration from `env` (defaults to `process.env`); throws ConfigError listing every bad key. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const mode = (env.SERVICE_MODE ?? (env.NODE_ENV === "production" ? "production" : "local")) as Mode;
  if (mode !== "local" && mode !== "production") problems.push(`SERVICE_MODE must be "local" or "production"`);
  const production = mode === "production";

  const values = {} as Record<string, unknown>;
  for (const [name, declared] of Object.entries(VARIABLES) as Array<[string, Variable<unknown>]>) {
    if (declared.readBy || name === "SERVICE_MODE") continue;
    values[name] = readVariable(name, declared, env[name]?.trim() || undefined, production, values as Basis, problems);
  }
  const v = values as Values;
  const database = databaseSettings(
    v.DATABASE_URL,
    { poolMin: v.DATABASE_POOL_MIN, poolMax: v.DATABASE_POOL_MAX, statementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT_MS, idleInTransactionTimeoutMs: v.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS },
    problems,
  );

  const config: Config = {
    mode,
    host: v.HOST,
    port: v.PORT,
    publicBaseUrl: v.PUBLIC_BASE_URL,
    databaseUrl: database.url,
    database,
    rpcUrl: v.RPC_URL,
    chainId: v.CHAIN_ID,
    networkName: v.NETWORK_NAME,
    explorerTxUrlTemplate: v.EXPLORER_TX_URL_TEMPLATE,
    signerPrivateKey: v.SIGNER_PRIVATE_KEY,
    deploymentsDir: v.DEPLOYMENTS_DIR,
    confirmations: v.CONFIRMATIONS,
    bulkClaimChunk: v.BULK_CLAIM_CHUNK,
    chainLedger: Object.freeze({
      replaceAfterSeconds: v.CHAIN_REPLACE_AFTER_S,
      receiptWaitMs: v.CHAIN_RECEIPT_WAIT_MS,
      feeBumpPercent: v.CHAIN_FEE_BUMP_PERCENT,
      monitorIntervalMs: v.CHAIN_MONITOR_INTERVAL_MS,
      reorgWatchBlocks: v.CHAIN_REORG_WATCH_BLOCKS,
    }),
    onchainSchema: v.ONCHAIN_SCHEMA,
    indexerMaxLagBlocks: v.INDEXER_MAX_LAG_BLOCKS,
    trustedProxyHops: v.TRUSTED_PROXY_HOPS,
    logLevel: v.LOG_LEVEL,
    openai: Object.freeze({
      apiKey: v.OPENAI_API_KEY,
      baseUrl: v.OPENAI_BASE_URL,
      model: v.OPENAI_MODEL,
      timeoutMs: v.OPENAI_TIMEOUT_MS,
      matchesPerClientHour: v.RFQ_AI_MATCHES_PER_CLIENT_HOUR,
      matchesPerDay: v.RFQ_AI_MATCHES_PER_DAY,
    }),
    allowLoopbackWebhooks: v.ALLOW_LOOPBACK_WEBHOOKS,
    secretsKey: v.SECRETS_KEY,
    mail: Object.freeze({ smtpUrl: v.SMTP_URL, from: v.MAIL_FROM, dir: v.MAIL_DIR }),
    tags: Object.freeze({ masterKey: v.TAG_MASTER_KEY, keyVersion: v.TAG_KEY_VERSION }),
    dashboard: Object.freeze({
      distDir: v.DASHBOARD_DIST_DIR,
      secureCookies: v.PUBLIC_BASE_URL.startsWith("https://"),
      sessionHours: v.DASHBOARD_SESSION_HOURS,
      idleMinutes: v.DASHBOARD_IDLE_MINUTES,
    }),
    payments: Object.freeze({
      orderTtlMinutes: v.ORDER_TTL_MINUTES,
      reconcileIntervalSeconds: v.ORDER_RECONCILE_INTERVAL_SECONDS,
      ordersPerClientHour: v.ORDERS_PER_CLIENT_HOUR,
      orderReadsPerClientHour: v.ORDER_READS_PER_CLIENT_HOUR,
      gateways: Object.freeze({
        bkash: Object.freeze({ baseUrl: v.BKASH_BASE_URL }),
        nagad: Object.freeze({ baseUrl: v.NAGAD_BASE_URL }),
        sslcommerz: Object.freeze({ baseUrl: v.SSLCOMMERZ_BASE_URL }),
      }),
      gatewayTimeoutMs: v.PAYMENT_GATEWAY_TIMEOUT_MS,
    }),
    domains: Object.freeze({
      baseDomain: v.BASE_DOMAIN,
      // Defaults to the public host as it is (on one machine an address, which no CNAME can name: set it in production).
      cnameTarget: v.DOMAIN_CNAME_TARGET ?? hostOf(v.PUBLIC_BASE_URL),
      dnsResolvers: v.DNS_RESOLVERS ?? Object.freeze([]),
      dnsTimeoutMs: v.DNS_TIMEOUT_MS,
      verifyWindowHours: v.DOMAIN_VERIFY_WINDOW_HOURS,
      checkIntervalMs: v.DOMAIN_CHECK_INTERVAL_MS,
      tlsAskSecret: v.TLS_ASK_SECRET,
    }),
    credentials: Object.freeze({
      signingJwk: v.CREDENTIAL_SIGNING_KEY,
      signingKeyFile: v.CREDENTIAL_SIGNING_KEY_FILE,
      generateKeyFile: !production,
    }),
    registry: Object.freeze({ url: v.REGISTRY_URL, token: v.REGISTRY_TOKEN, batchUploads: v.REGISTRY_BATCH_UPLOADS, timeoutMs: v.REGISTRY_TIMEOUT_MS }),
    backupOperatorUrl: v.BACKUP_OPERATOR_URL,
    backup: Object.freeze({
      feedKey: v.BACKUP_FEED_KEY,
      primaries: Object.freeze(
        (v.BACKUP_OF?.split(",") ?? []).map((url, i) => Object.freeze({ baseUrl: withoutTrailingSlashes(url), feedKey: v.BACKUP_OF_KEYS?.split(",")[i] ?? "" })),
      ),
      pollIntervalMs: v.BACKUP_POLL_INTERVAL_MS,
    }),
    webhooks: Object.freeze({
      concurrency: v.WEBHOOK_CONCURRENCY,
      endpointConcurrency: v.WEBHOOK_ENDPOINT_CONCURRENCY,
      brandConcurrency: v.WEBHOOK_BRAND_CONCURRENCY,
      pollIntervalMs: v.WEBHOOK_POLL_INTERVAL_MS,
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      retentionDays: v.WEBHOOK_RETENTION_DAYS,
    }),
  };
  // Rules across variables. Local mode is for one machine and Hardhat's chain, where its public keys are harmless:
  // anywhere else they are keys anyone holds, so a missing SERVICE_MODE must not quietly run against a real network.
  if (!production && v.CHAIN_ID !== LOCAL_CHAIN_ID) {
    problems.push(`CHAIN_ID must be ${LOCAL_CHAIN_ID} in local mode (got ${v.CHAIN_ID}); set SERVICE_MODE=production for another chain`);
  }
  if (!production && config.rpcUrl && !isLoopbackUrl(config.rpcUrl)) {
    problems.push("RPC_URL must be on this machine (127.0.0.1, ::1 or localhost) in local mode; set SERVICE_MODE=production for a remote node");
  }
  // One key for two jobs: whoever reads the webhook secrets' key could then make tags that pass as any brand's.
  if (production && config.tags.masterKey.length === 32 && config.tags.masterKey.equals(config.secretsKey)) {
    problems.push("TAG_MASTER_KEY must not be the same key as SECRETS_KEY in production");
  }
  if (production && !config.credentials.signingJwk && !config.credentials.signingKeyFile) {
    problems.push("CREDENTIAL_SIGNING_KEY or CREDENTIAL_SIGNING_KEY_FILE is required in production");
  }
  if ((v.BACKUP_OF?.split(",").length ?? 0) !== (v.BACKUP_OF_KEYS?.split(",").length ?? 0)) {
    problems.push("BACKUP_OF_KEYS must give one feed key for each URL of BACKUP_OF, in the same order");
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** One variable's value: from the environment when set, else its default in this mode; each problem goes on `problems`. */
function readVariable<T>(name: string, declared: Variable<T>, raw: string | undefined, production: boolean, basis: Basis, problems: string[]): T {
  const { kind } = declared;
  const rule = production && "production" in declared ? declared.production : declared.local;
  if (rule === REFUSED) {
    if (raw !== undefined) problems.push(`${name} is a test hook and must not be set in production`);
    return kind.missing;
  }
  const fallback = rule === REQUIRED ? undefined : typeof rule === "function" ? (rule as (basis: Basis) => T | undefined)(basis) : rule;
  let value = fallback;
  if (raw !== undefined) {
    const parsed = kind.parse(raw, name);
    if ("problem" in parsed) {
      // Reported once: the default stands in, so nothing derived from the value reports it again.
      problems.push(...[parsed.problem].flat());
      return fallback ?? kind.missing;
    }
    value = parsed.value;
  }
  if (value === undefined) {
    if (!kind.optional) problems.push(`${name} is required${production ? " in production" : ""}`);
    return kind.missing;
  }
  for (const problem of [declared.check?.(value, production)].flat()) if (problem) problems.push(problem);
  return value;
}
/** The host of a URL, lower case ("" when it is not one; the URL's own check reports that). */
function hostOf(value: string): string {
  try {
    return new URL(value).hostname.toLowerCase();
  } catch {
    return "";
  }
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
