// Starts the Ponder indexer (indexer/ workspace) as a child process against a given database and chain.
import path from "node:path";
import { spawnLogged, type Child } from "./processes";

const ROOT = path.resolve(__dirname, "..", "..");

export type IndexerOptions = {
  databaseUrl: string;
  rpcUrl: string;
  chainId: number;
  deploymentsDir: string;
  /** Ponder's own schema; one per deployment so a new chain starts clean. */
  schema: string;
  viewsSchema: string;
  port: number;
  pollingIntervalMs: number;
  logFile: string;
};

export function startIndexer(options: IndexerOptions): Child {
  return spawnLogged(
    "indexer",
    process.execPath,
    [
      path.join(ROOT, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js"),
      "start",
      "--schema",
      options.schema,
      "--views-schema",
      options.viewsSchema,
      "-H",
      "127.0.0.1",
      "-p",
      String(options.port),
      "--log-format",
      "json",
    ],
    {
      cwd: path.join(ROOT, "indexer"),
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl,
        RPC_URL: options.rpcUrl,
        CHAIN_ID: String(options.chainId),
        DEPLOYMENTS_DIR: options.deploymentsDir,
        INDEXER_POLLING_INTERVAL_MS: String(options.pollingIntervalMs),
        PONDER_TELEMETRY_DISABLED: "true",
        NODE_ENV: "production",
      },
      logFile: options.logFile,
    },
  );
}

/** Ponder schema name for a deployment: stable for one chain, new for a new chain. */
export function indexerSchemaName(chainId: number, deploymentBlockHash: string): string {
  return `ponder_${chainId}_${deploymentBlockHash.slice(2, 12).toLowerCase()}`;
}
