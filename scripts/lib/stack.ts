// A local stack for end-to-end tests and benchmarks: Hardhat node, contracts, indexer and API on free ports.
import { chmodSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Contracts } from "../../api/src/chain/contracts";
import type { SharedWallet } from "../../api/src/chain/signer";
import { HARDHAT_TEST_KEY } from "../../api/src/config";
import { deployContracts, type Deployment } from "./deploy";
import { startHardhatNode, type ChainNode } from "./hardhat-node";
import { indexerSchemaName, startIndexer } from "./indexer";
import { freePort, removeWorkDir, removeWorkDirAtExit, type Child } from "./processes";
import { startInProcessApi, type InProcessApi } from "./api-process";

export const HARDHAT_ADMIN = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

export type Stack = {
  chain: ChainNode;
  deployment: Deployment;
  indexer: Child;
  api: InProcessApi;
  wallet: SharedWallet;
  contracts: Contracts;
  workDir: string;
  stop: () => Promise<void>;
};

/**
 * A Hardhat node on a free port (its log in `workDir`) with the contracts deployed by the test key, the deployment
 * file in `workDir/deployments`; the node is stopped again if the deployment fails.
 */
export async function startDeployedChain(
  workDir: string,
  options: { blockIntervalMs?: number } = {},
): Promise<{ chain: ChainNode; deployment: Deployment; deploymentsDir: string }> {
  const chain = await startHardhatNode({ port: await freePort(), logFile: path.join(workDir, "hardhat-node.log"), intervalMs: options.blockIntervalMs });
  const deploymentsDir = path.join(workDir, "deployments");
  try {
    const deployment = await deployContracts({
      rpcUrl: chain.rpcUrl,
      signerKey: HARDHAT_TEST_KEY,
      adminAddress: HARDHAT_ADMIN,
      adminDelaySeconds: 0,
      baseURI: "http://127.0.0.1/api/nft/",
      deploymentsDir,
      log: () => undefined,
    });
    return { chain, deployment, deploymentsDir };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

/** Starts chain, contracts, indexer and API against `databaseUrl`; every process is stopped by `stop`. */
export async function startStack(
  databaseUrl: string,
  options: { blockIntervalMs?: number; pollingIntervalMs?: number; /** More API settings (CONFIRMATIONS, ...). */ apiEnv?: Record<string, string> } = {},
): Promise<Stack> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "passport-registry-stack-"));
  chmodSync(workDir, 0o755);
  removeWorkDirAtExit(workDir);
  const stoppers: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const fn of stoppers.reverse()) await fn().catch(() => undefined);
    removeWorkDir(workDir);
  };
  try {
    const { chain, deployment, deploymentsDir } = await startDeployedChain(workDir, { blockIntervalMs: options.blockIntervalMs });
    stoppers.push(chain.stop);
    const viewsSchema = "onchain";
    const api = await startInProcessApi({
      DATABASE_URL: databaseUrl,
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      DEPLOYMENTS_DIR: deploymentsDir,
      ONCHAIN_SCHEMA: viewsSchema,
      ...options.apiEnv,
    });
    stoppers.push(api.close);
    const indexer = startIndexer({
      databaseUrl,
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      deploymentsDir,
      schema: indexerSchemaName(chain.chainId, deployment.contracts.ProductPassport.blockHash),
      viewsSchema,
      port: await freePort(),
      pollingIntervalMs: options.pollingIntervalMs ?? 100,
      logFile: path.join(workDir, "indexer.log"),
    });
    stoppers.push(indexer.stop);
    // The API's own wallet: one nonce counter per key and process.
    const wallet = api.chain.wallet;
    const contracts = api.chain.contracts();
    return { chain, deployment, indexer, api, wallet, contracts, workDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
