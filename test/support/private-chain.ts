// A private Hardhat node with the contracts deployed and a migrated database of its own, for tests that change how
// the chain mines (automine off, reverts) or run several replicas against one wallet, away from the shared stack.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../api/src/db/knex";
import { migrateLatest } from "../../api/src/db/migrate";
import { deployContracts } from "../../scripts/lib/deploy";
import { startHardhatNode, type ChainNode } from "../../scripts/lib/hardhat-node";
import { freePort } from "../../scripts/lib/processes";
import { HARDHAT_ADMIN } from "../../scripts/lib/stack";
import { createTestDatabase } from "./hooks";
import { HARDHAT_TEST_KEY } from "../../api/src/config";

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
  const chain = await startHardhatNode({ port: await freePort(), logFile: path.join(workDir, "hardhat-node.log") });
  const deploymentsDir = path.join(workDir, "deployments");
  await deployContracts({
    rpcUrl: chain.rpcUrl,
    signerKey: HARDHAT_TEST_KEY,
    adminAddress: HARDHAT_ADMIN,
    adminDelaySeconds: 0,
    baseURI: "http://127.0.0.1/api/nft/",
    deploymentsDir,
    log: () => undefined,
  });
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
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
