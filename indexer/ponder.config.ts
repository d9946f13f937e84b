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
const LOCAL_CHAIN_ID = 31337;
/**
 * Ponder limits each RPC endpoint it is given to 20 requests a second at first, raising the limit slowly while the
 * endpoint keeps up: right for a paid provider, but on a local Hardhat node the head poll alone (every 100 ms in
 * tests) takes half of it, and catching up on a burst of blocks ran at about four blocks a second. Listed several
 * times, the one local node gets that many budgets; Ponder spreads requests over them.
 */
const LOCAL_RPC_SLOTS = 5;

export default createConfig({
  database: { kind: "postgres", connectionString: process.env.DATABASE_URL },
  chains: {
    chain: {
      id: chainId,
      rpc: chainId === LOCAL_CHAIN_ID ? Array<string>(LOCAL_RPC_SLOTS).fill(rpcUrl) : rpcUrl,
      pollingInterval,
      // A local Hardhat chain is new on every start: a cache would replay events of a chain that is gone.
      disableCache: chainId === LOCAL_CHAIN_ID,
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
