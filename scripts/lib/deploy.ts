// Deploys ProductPassport and FactoryRegistry once per chain and records them in <deploymentsDir>/<chainId>.json.
// Plain ethers on purpose (no `hardhat` import): the local start script runs it under tsx, outside Hardhat.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { JsonRpcProvider, Network, Wallet, getAddress, type BaseContract } from "ethers";
import { FactoryRegistry__factory, ProductPassport__factory } from "../../typechain-types";

export type ContractDeployment = { address: string; blockNumber: number; blockHash: string; txHash: string };

export type Deployment = {
  chainId: number;
  deployer: string;
  admin: string;
  /** First block the indexer needs: the block of the earlier deployment. */
  startBlock: number;
  /** ISO time of the ProductPassport deployment block. */
  deployedAt: string;
  contracts: { ProductPassport: ContractDeployment; FactoryRegistry: ContractDeployment };
};

export type DeployOptions = {
  rpcUrl: string;
  /** The shared wallet: deploys, and becomes minter, custodian, registrar and verifier. */
  signerKey: string;
  /** Gets DEFAULT_ADMIN_ROLE on both contracts. */
  adminAddress: string;
  adminDelaySeconds: number;
  baseURI: string;
  deploymentsDir: string;
  log?: (line: string) => void;
};

const CONTRACT_NAMES = ["ProductPassport", "FactoryRegistry"] as const;
const MAX_UINT48 = 2 ** 48 - 1;

export function deploymentFile(deploymentsDir: string, chainId: number): string {
  return path.join(deploymentsDir, `${chainId}.json`);
}

/** The recorded deployment for `chainId`, or undefined if there is none. Throws on a file that is not one. */
export function readDeployment(deploymentsDir: string, chainId: number): Deployment | undefined {
  const file = deploymentFile(deploymentsDir, chainId);
  if (!existsSync(file)) return undefined;
  let deployment: Deployment;
  try {
    deployment = JSON.parse(readFileSync(file, "utf8")) as Deployment;
  } catch {
    throw new Error(`${file} is not valid JSON`);
  }
  const complete =
    deployment?.chainId === chainId &&
    typeof deployment.startBlock === "number" &&
    CONTRACT_NAMES.every((name) => {
      const contract = deployment.contracts?.[name];
      return typeof contract?.address === "string" && typeof contract.blockNumber === "number" && !!contract.blockHash;
    });
  if (!complete) throw new Error(`${file} is not a deployment record for chain ${chainId}`);
  return deployment;
}

/**
 * The chain id behind `rpcUrl`, asked with one plain JSON-RPC call: ethers' provider would retry forever on a node
 * that is down, while a deploy should fail at once and say where it looked.
 */
export async function fetchChainId(rpcUrl: string, timeoutMs = 10_000): Promise<number> {
  let body: { result?: string; error?: { message?: string } };
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = (await response.json()) as typeof body;
  } catch (error) {
    throw new Error(`cannot reach the chain at ${rpcUrl}: ${(error as Error).message}`);
  }
  if (typeof body.result !== "string") {
    throw new Error(`eth_chainId failed at ${rpcUrl}: ${body.error?.message ?? "no result"}`);
  }
  return Number(BigInt(body.result));
}

/** Deploys both contracts unless the recorded deployment for this chain is still on it; returns the deployment. */
export async function deployContracts(options: DeployOptions): Promise<Deployment> {
  const log = options.log ?? ((line: string) => console.log(line));
  const admin = getAddress(options.adminAddress);
  const delay = options.adminDelaySeconds;
  if (!Number.isSafeInteger(delay) || delay < 0 || delay > MAX_UINT48) {
    throw new Error(`adminDelaySeconds must be a whole number of seconds (uint48), got ${delay}`);
  }

  const chainId = await fetchChainId(options.rpcUrl);
  // A static network skips ethers' probing; a short polling interval makes receipts on a local node quick.
  const provider = new JsonRpcProvider(options.rpcUrl, Network.from(chainId), {
    // No 250 ms response cache: the second deployment must see the first one's nonce.
    cacheTimeout: -1,
    staticNetwork: true,
    pollingInterval: 250,
  });
  try {
    const file = deploymentFile(options.deploymentsDir, chainId);
    let recorded: Deployment | undefined;
    try {
      recorded = readDeployment(options.deploymentsDir, chainId);
    } catch (error) {
      log(`ignoring the recorded deployment: ${(error as Error).message}`);
    }
    if (recorded && (await isOnChain(provider, recorded))) {
      log(`contracts already deployed on chain ${chainId} (recorded in ${file})`);
      return recorded;
    }
    log(
      recorded
        ? `the deployment recorded in ${file} is not on this chain (a new chain?): deploying again`
        : `no deployment recorded for chain ${chainId}: deploying`,
    );

    const wallet = new Wallet(options.signerKey, provider);
    log(`deployer (minter, custodian, registrar, verifier) ${wallet.address}; admin ${admin}, admin delay ${delay}s`);

    const passport = await new ProductPassport__factory(wallet).deploy(admin, delay, wallet.address, options.baseURI);
    const passportRecord = await deploymentOf(provider, passport);
    log(`ProductPassport ${passportRecord.address} (block ${passportRecord.blockNumber}, tx ${passportRecord.txHash})`);

    const registry = await new FactoryRegistry__factory(wallet).deploy(admin, delay, wallet.address, wallet.address);
    const registryRecord = await deploymentOf(provider, registry);
    log(`FactoryRegistry ${registryRecord.address} (block ${registryRecord.blockNumber}, tx ${registryRecord.txHash})`);

    const passportBlock = await provider.getBlock(passportRecord.blockNumber);
    const deployment: Deployment = {
      chainId,
      deployer: wallet.address,
      admin,
      startBlock: Math.min(passportRecord.blockNumber, registryRecord.blockNumber),
      deployedAt: new Date(Number(passportBlock!.timestamp) * 1000).toISOString(),
      contracts: { ProductPassport: passportRecord, FactoryRegistry: registryRecord },
    };
    writeDeployment(file, deployment);
    log(`recorded in ${file}`);
    return deployment;
  } finally {
    provider.destroy();
  }
}

/** A recorded deployment is still valid if both contracts have code and their blocks are the recorded ones. */
async function isOnChain(provider: JsonRpcProvider, deployment: Deployment): Promise<boolean> {
  for (const name of CONTRACT_NAMES) {
    const { address, blockNumber, blockHash } = deployment.contracts[name];
    const [code, block] = await Promise.all([provider.getCode(address), provider.getBlock(blockNumber)]);
    // Code alone is not enough: a restarted Hardhat node puts the same deployer's contracts at the same addresses.
    if (code === "0x" || block?.hash !== blockHash) return false;
  }
  return true;
}

/** Waits for a deployment to be mined and returns where it landed. */
async function deploymentOf(provider: JsonRpcProvider, contract: BaseContract): Promise<ContractDeployment> {
  const tx = contract.deploymentTransaction();
  if (!tx) throw new Error("contract was not deployed by this call");
  const receipt = await tx.wait();
  if (!receipt || receipt.status !== 1) throw new Error(`deployment transaction ${tx.hash} failed`);
  const address = await contract.getAddress();
  if ((await provider.getCode(address)) === "0x") throw new Error(`no code at ${address} after ${tx.hash}`);
  return { address, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, txHash: receipt.hash };
}

/** Written to a temporary file first, so a reader (the indexer, the API) never sees half a record. */
function writeDeployment(file: string, deployment: Deployment): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(deployment, null, 2)}\n`);
  renameSync(temporary, file);
}
