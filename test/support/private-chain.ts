// A private Hardhat node with the contracts deployed and a migrated database of its own, for tests that change how
// the chain mines (automine off, reverts) or run several replicas against one wallet, away from the shared stack.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import type { ChainNode } from "../../scripts/lib/hardhat-node";
import { removeWorkDir } from "../../scripts/lib/processes";
import { startDeployedChain } from "../../scripts/lib/stack";
import { createTestDatabase } from "./hooks";

export type PrivateChain = {
  chain: ChainNode;
  databaseUrl: string;
  /** What loadConfig needs to build a configuration on this chain and database. */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

/** Starts the node (its log in a temporary folder), deploys, makes and migrates database `name`. */
export async function startPrivateChain(name: string): Promise<PrivateChain> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const { chain, deploymentsDir } = await startDeployedChain(workDir);
  const databaseUrl = await createTestDatabase(name.replace(/-/g, "_"));
  const db = createDb(databaseUrl, 2);
  await migrateLatest(db);
  await db.destroy();
  return {
    chain,
    databaseUrl,
    env: {
      SERVICE_MODE: "local",
      LOG_LEVEL: "silent",
      DATABASE_URL: databaseUrl,
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      DEPLOYMENTS_DIR: deploymentsDir,
    },
    stop: async () => {
      await chain.stop();
      removeWorkDir(workDir);
    },
  };
}
