// Reads process.env once, validates it, and freezes the result; nothing else in the service reads the environment.
import path from "node:path";

export type Mode = "local" | "production";

export type Config = Readonly<{
  mode: Mode;
  host: string;
  port: number;
  publicBaseUrl: string;
  databaseUrl: string;
  rpcUrl: string;
  chainId: number;
  networkName: string;
  /** `{txHash}` is replaced; on the local chain the service serves its own transaction page. */
  explorerTxUrlTemplate: string;
  signerPrivateKey: string;
  deploymentsDir: string;
  confirmations: number;
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
  webhooks: Readonly<{ concurrency: number; pollIntervalMs: number; timeoutMs: number; retentionDays: number }>;
}>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** Hardhat's first public test account: only ever used against the local chain (chain id 31337). */
export const HARDHAT_TEST_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const LOCAL_CHAIN_ID = 31337;
/** Local mode's documented default SECRETS_KEY (32 bytes, base64); production must set its own. */
export const LOCAL_SECRETS_KEY = "cGFzc3BvcnQtcmVnaXN0cnktbG9jYWwtc2VjcmV0c0s=";

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
    if (value && !/^https?:\/\/[^\s]+$/i.test(value)) problems.push(`${key} must be an http(s) URL`);
    return value.replace(/\/+$/, "");
  };

  const postgresUrl = (value: string): string => {
    if (value && !/^postgres(ql)?:\/\//.test(value)) problems.push("DATABASE_URL must be a postgres:// URL");
    return value;
  };

  const port = int("PORT", 3000, 0, 65535);
  const chainId = int("CHAIN_ID", LOCAL_CHAIN_ID, 1, Number.MAX_SAFE_INTEGER);
  const publicBaseUrl = url("PUBLIC_BASE_URL", `http://127.0.0.1:${port}`);
  const signerPrivateKey = str("SIGNER_PRIVATE_KEY", chainId === LOCAL_CHAIN_ID ? HARDHAT_TEST_KEY : undefined);
  if (signerPrivateKey && !/^0x[0-9a-fA-F]{64}$/.test(signerPrivateKey)) {
    problems.push("SIGNER_PRIVATE_KEY must be a 0x-prefixed 32-byte hex key");
  }
  if (production && chainId !== LOCAL_CHAIN_ID && signerPrivateKey === HARDHAT_TEST_KEY) {
    problems.push("SIGNER_PRIVATE_KEY must not be Hardhat's public test key outside the local chain");
  }
  const explorerTxUrlTemplate = str("EXPLORER_TX_URL_TEMPLATE", `${publicBaseUrl}/explorer/tx/{txHash}`);
  if (explorerTxUrlTemplate && !explorerTxUrlTemplate.includes("{txHash}")) {
    problems.push("EXPLORER_TX_URL_TEMPLATE must contain {txHash}");
  }
  const onchainSchema = str("ONCHAIN_SCHEMA", "onchain");
  if (onchainSchema && !/^[a-z_][a-z0-9_]{0,44}$/.test(onchainSchema)) {
    problems.push("ONCHAIN_SCHEMA must be a lower-case SQL identifier of at most 45 characters");
  }

  const config: Config = {
    mode,
    host: str("HOST", "127.0.0.1"),
    port,
    publicBaseUrl,
    databaseUrl: postgresUrl(str("DATABASE_URL", "postgres://postgres:postgres@127.0.0.1:54329/passport_registry")),
    rpcUrl: url("RPC_URL", "http://127.0.0.1:8545"),
    chainId,
    networkName: str("NETWORK_NAME", chainId === LOCAL_CHAIN_ID ? "hardhat-local" : `chain-${chainId}`),
    explorerTxUrlTemplate,
    signerPrivateKey,
    deploymentsDir: path.resolve(str("DEPLOYMENTS_DIR", path.join(__dirname, "..", "..", "deployments"))),
    confirmations: int("CONFIRMATIONS", production ? 3 : 1, 0, 1000),
    onchainSchema,
    indexerMaxLagBlocks: int("INDEXER_MAX_LAG_BLOCKS", 2, 0, 10_000),
    trustedProxyHops: int("TRUSTED_PROXY_HOPS", production ? 1 : 0, 0, 10),
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
    webhooks: Object.freeze({
      concurrency: int("WEBHOOK_CONCURRENCY", 16, 1, 256),
      pollIntervalMs: int("WEBHOOK_POLL_INTERVAL_MS", 1000, 50, 60_000),
      timeoutMs: int("WEBHOOK_TIMEOUT_MS", 10_000, 1000, 10_000),
      retentionDays: int("WEBHOOK_RETENTION_DAYS", 30, 1, 3650),
    }),
  };
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(config.logLevel)) {
    problems.push("LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent");
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** Keys whose defaults only make sense on one machine: production must set them. */
const LOCAL_ONLY_DEFAULTS = new Set(["DATABASE_URL", "RPC_URL", "PUBLIC_BASE_URL", "SIGNER_PRIVATE_KEY", "SECRETS_KEY"]);

/** SECRETS_KEY as 64 hex digits or base64 of exactly 32 bytes. */
function secretsKey(value: string, problems: string[]): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (value && (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(value) && key.toString("base64") !== value))) {
    problems.push("SECRETS_KEY must be 32 bytes, as 64 hex digits or base64");
  }
  return key;
}

