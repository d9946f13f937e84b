// The API's handle on the chain: the shared wallet and the deployed contracts, read from the deployment file on
// first use so the API can start (and report not-ready) before the contracts exist.
import type { JsonRpcProvider } from "ethers";
import type { Config } from "../config";
import { ServiceUnavailableError } from "../errors";
import { connectContracts, readDeploymentFile, type Contracts } from "./contracts";
import { MintBatcher } from "./mint-batcher";
import { SharedWallet } from "./signer";

export type ChainAccess = {
  wallet: SharedWallet;
  contracts: () => Contracts;
  /** The one path for passport mints: batches concurrent mints into one transaction. */
  mints: () => MintBatcher;
};

export function createChainAccess(config: Config, provider: JsonRpcProvider): ChainAccess {
  const wallet = new SharedWallet(provider, config.signerPrivateKey);
  let contracts: Contracts | undefined;
  let mints: MintBatcher | undefined;
  const access: ChainAccess = {
    wallet,
    mints: () => (mints ??= new MintBatcher(wallet, access.contracts().passport)),
    contracts: () => {
      if (!contracts) {
        try {
          contracts = connectContracts(readDeploymentFile(config.deploymentsDir, config.chainId), wallet);
        } catch {
          throw new ServiceUnavailableError(`The contracts are not deployed on chain ${config.chainId} yet.`);
        }
      }
      return contracts;
    },
  };
  return access;
}
