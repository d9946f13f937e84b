// The API's handle on the chain: the shared wallet (sending through the ledger) and the deployed contracts, read
// from the deployment file on first use so the API can start (and report not-ready) before the contracts exist.
import type { JsonRpcProvider } from "ethers";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { ServiceUnavailableError } from "../errors";
import type { Logger } from "../logger";
import { connectContracts, readDeploymentFile, type Contracts } from "./contracts";
import { ChainLedger } from "./ledger";
import { SharedWallet } from "./signer";

export type ChainAccess = {
  wallet: SharedWallet;
  /** The one nonce authority of the shared wallet (every send goes through it). */
  ledger: ChainLedger;
  contracts: () => Contracts;
};

/** `db` is where the ledger lives (app.chain_transactions). */
export function createChainAccess(config: Config, provider: JsonRpcProvider, db: Knex, logger: Logger): ChainAccess {
  const ledger = new ChainLedger({
    db,
    provider,
    privateKey: config.signerPrivateKey,
    chainId: config.chainId,
    logger,
    confirmations: config.confirmations,
  });
  const wallet = new SharedWallet(provider, config.signerPrivateKey, ledger);
  let contracts: Contracts | undefined;
  return {
    wallet,
    ledger,
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
}
