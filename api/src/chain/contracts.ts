// The deployed contracts of the configured chain, read from deployments/<chainId>.json and bound to the shared wallet.
import { readFileSync } from "node:fs";
import path from "node:path";
import { FactoryRegistry__factory, ProductPassport__factory } from "../../../typechain-types";
import type { FactoryRegistry, ProductPassport } from "../../../typechain-types";
import type { SharedWallet } from "./signer";

export type DeploymentFile = {
  chainId: number;
  startBlock: number;
  contracts: Record<"ProductPassport" | "FactoryRegistry", { address: string; blockNumber: number; blockHash: string }>;
};

export type Contracts = { deployment: DeploymentFile; passport: ProductPassport; registry: FactoryRegistry };

export function readDeploymentFile(deploymentsDir: string, chainId: number): DeploymentFile {
  const file = path.join(deploymentsDir, `${chainId}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as DeploymentFile;
  } catch (error) {
    throw new Error(`no deployment for chain ${chainId} at ${file}; run the deploy script first (${String(error)})`);
  }
}

export function connectContracts(deployment: DeploymentFile, wallet: SharedWallet): Contracts {
  return {
    deployment,
    passport: ProductPassport__factory.connect(deployment.contracts.ProductPassport.address, wallet.runner),
    registry: FactoryRegistry__factory.connect(deployment.contracts.FactoryRegistry.address, wallet.runner),
  };
}
