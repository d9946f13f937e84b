// CLI: deploys the contracts unless this chain already has them, and prints their addresses.
// Run `npm run deploy -- --network localhost` (through Hardhat) or `npx tsx scripts/deploy.ts`; configured by env:
//   RPC_URL              default http://127.0.0.1:8545 (under `hardhat run --network <net>`: that network's url)
//   SIGNER_PRIVATE_KEY   the shared wallet; default on chain 31337 only: Hardhat's public test account #0
//   ADMIN_ADDRESS        gets DEFAULT_ADMIN_ROLE; default on chain 31337 only: Hardhat's test account #1
//   ADMIN_DELAY_SECONDS  two-step admin transfer delay; default 0 on chain 31337, 86400 elsewhere
//   PUBLIC_BASE_URL      default http://127.0.0.1:3000; tokenURI base is `${PUBLIC_BASE_URL}/api/nft/`
//   DEPLOYMENTS_DIR      default ./deployments; the record is <DEPLOYMENTS_DIR>/<chainId>.json
import { Wallet, isAddress } from "ethers";
import { HARDHAT_TEST_KEY as HARDHAT_ACCOUNT_0_KEY, LOCAL_CHAIN_ID } from "../api/src/config";
import { deployContracts, fetchChainId } from "./lib/deploy";

// Hardhat's well-known, public test accounts: usable only on a local chain.
const HARDHAT_ACCOUNT_1_ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

function rpcUrl(): string {
  const fromEnv = process.env.RPC_URL?.trim();
  if (fromEnv) return fromEnv;
  // `hardhat run --network <net>` runs this file with HARDHAT_NETWORK set: honour that network's url if it has one.
  if (process.env.HARDHAT_NETWORK) {
    const { network } = require("hardhat") as typeof import("hardhat");
    if ("url" in network.config) return network.config.url;
  }
  return "http://127.0.0.1:8545";
}

async function main(): Promise<void> {
  const env = (key: string) => process.env[key]?.trim() || undefined;
  const url = rpcUrl();
  const chainId = await fetchChainId(url);
  const local = chainId === LOCAL_CHAIN_ID;

  const signerKey = env("SIGNER_PRIVATE_KEY") ?? (local ? HARDHAT_ACCOUNT_0_KEY : undefined);
  const adminAddress = env("ADMIN_ADDRESS") ?? (local ? HARDHAT_ACCOUNT_1_ADDRESS : undefined);
  const delayText = env("ADMIN_DELAY_SECONDS") ?? (local ? "0" : "86400");
  const problems: string[] = [];
  if (!signerKey) problems.push("SIGNER_PRIVATE_KEY: required on a chain other than 31337");
  else if (!isPrivateKey(signerKey)) problems.push("SIGNER_PRIVATE_KEY: not a 32-byte hex private key");
  else if (!local && signerKey.toLowerCase() === HARDHAT_ACCOUNT_0_KEY) {
    problems.push("SIGNER_PRIVATE_KEY: Hardhat's public test key must not be used off the local chain");
  }
  if (!adminAddress) problems.push("ADMIN_ADDRESS: required on a chain other than 31337");
  else if (!isAddress(adminAddress)) problems.push("ADMIN_ADDRESS: not an address");
  if (!/^\d+$/.test(delayText) || Number(delayText) >= 2 ** 48) {
    problems.push("ADMIN_DELAY_SECONDS: not a whole number of seconds");
  }
  if (problems.length > 0) {
    console.error(`deploy: cannot deploy to chain ${chainId} at ${url}; fix these environment variables:`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exitCode = 1;
    return;
  }

  const publicBaseUrl = (env("PUBLIC_BASE_URL") ?? "http://127.0.0.1:3000").replace(/(?<!\/)\/+$/, "");
  const deployment = await deployContracts({
    rpcUrl: url,
    signerKey: signerKey!,
    adminAddress: adminAddress!,
    adminDelaySeconds: Number(delayText),
    baseURI: `${publicBaseUrl}/api/nft/`,
    deploymentsDir: env("DEPLOYMENTS_DIR") ?? "deployments",
    log: (line) => console.log(`deploy: ${line}`),
  });
  console.log(`ProductPassport ${deployment.contracts.ProductPassport.address}`);
  console.log(`FactoryRegistry ${deployment.contracts.FactoryRegistry.address}`);
}

function isPrivateKey(key: string): boolean {
  try {
    new Wallet(key);
    return true;
  } catch {
    return false;
  }
}

main().catch((error: unknown) => {
  console.error(`deploy: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
