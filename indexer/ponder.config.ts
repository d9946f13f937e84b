// Ponder configuration: one chain, both contracts, addresses and start block read from the deployment artifact.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createConfig } from "ponder";
import { FactoryRegistryAbi } from "./abis/FactoryRegistry";
import { ProductPassportAbi } from "./abis/ProductPassport";

type Deployment = {
  chainId: number;
  startBlock: number;
  contracts: Record<"ProductPassport" | "FactoryRegistry", { address: `0x${string}`; blockNumber: number }>;
};

const chainId = Number(process.env.CHAIN_ID ?? 31337);
const rpcUrl = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const deploymentsDir = path.resolve(process.env.DEPLOYMENTS_DIR ?? path.join(import.meta.dirname, "..", "deployments"));
const deploymentFile = path.join(deploymentsDir, `${chainId}.json`);

function loadDeployment(): Deployment {
  try {
    return JSON.parse(readFileSync(deploymentFile, "utf8")) as Deployment;
  } catch (error) {
    throw new Error(`indexer: cannot read deployment ${deploymentFile} (run the deploy script first): ${String(error)}`);
  }
}

const deployment = loadDeployment();
// Ponder polls the chain head; this bounds how soon a mint becomes readable (ARCHITECTURE, pitfalls).
const pollingInterval = Math.max(100, Number(process.env.INDEXER_POLLING_INTERVAL_MS ?? 1000));

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL },
  chains: {
    chain: {
      id: chainId,
      rpc: rpcUrl,
      pollingInterval,
      // A local Hardhat chain is new on every start: a cache would replay events of a chain that is gone.
      disableCache: chainId === 31337,
    },
  },
  contracts: {
    ProductPassport: {
      chain: "chain",
      abi: ProductPassportAbi,
      address: deployment.contracts.ProductPassport.address,
      startBlock: deployment.contracts.ProductPassport.blockNumber,
    },
    FactoryRegistry: {
      chain: "chain",
      abi: FactoryRegistryAbi,
      address: deployment.contracts.FactoryRegistry.address,
      startBlock: deployment.contracts.FactoryRegistry.blockNumber,
    },
  },
});
