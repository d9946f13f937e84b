// Sends one shared-wallet transaction, waits (bounded) for its receipt, and describes it for a response.
import type { ContractTransactionResponse } from "ethers";
import type { AppDeps } from "../deps";
import { ServiceUnavailableError } from "../errors";
import { explorerTxUrl } from "../links";

export type SentTransaction = { tx_hash: string; explorer_url: string; block_number: number };

const RECEIPT_TIMEOUT_MS = 60_000;

export async function sendAndConfirm(deps: AppDeps, submit: () => Promise<ContractTransactionResponse>): Promise<SentTransaction> {
  const tx = await deps.chain.wallet.send(submit);
  const receipt = await tx.wait(1, RECEIPT_TIMEOUT_MS).catch((error: unknown) => {
    deps.logger.error({ err: error, txHash: tx.hash }, "transaction not confirmed");
    throw new ServiceUnavailableError(`Transaction ${tx.hash} was sent but not confirmed in time.`);
  });
  if (!receipt || receipt.status !== 1) throw new ServiceUnavailableError(`Transaction ${tx.hash} failed on chain.`);
  return { tx_hash: tx.hash, explorer_url: explorerTxUrl(deps.config, tx.hash), block_number: receipt.blockNumber };
}
