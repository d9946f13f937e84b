// Sends one shared-wallet transaction, waits (bounded) for its receipt, and describes it for a response.
import type { ContractTransactionResponse, TransactionReceipt } from "ethers";
import type { AppDeps } from "../deps";
import { ServiceUnavailableError } from "../errors";
import { explorerTxUrl } from "../links";

export type SentTransaction = { tx_hash: string; explorer_url: string; block_number: number };

/**
 * The receipt of a transaction sent through the ledger, following the ledger row of `hash`: a fee bump or a redo
 * under a new nonce is followed, so the receipt may carry another hash than the one first sent. Waits at most
 * CHAIN_RECEIPT_WAIT_MS by default.
 */
export async function ledgerReceipt(deps: AppDeps, hash: string, timeoutMs = deps.config.chainLedger.receiptWaitMs): Promise<TransactionReceipt> {
  const row = await deps.chain.ledger.findByHash(hash);
  if (!row) throw new Error(`transaction ${hash} is not in the ledger`);
  return deps.chain.ledger.wait(row.id, { timeoutMs });
}

export async function sendAndConfirm(deps: AppDeps, submit: () => Promise<ContractTransactionResponse>): Promise<SentTransaction> {
  const tx = await deps.chain.wallet.send(submit);
  const receipt = await ledgerReceipt(deps, tx.hash).catch((error: unknown) => {
    deps.logger.error({ err: error, txHash: tx.hash }, "transaction not confirmed");
    throw new ServiceUnavailableError(`Transaction ${tx.hash} was sent but not confirmed in time.`);
  });
  if (receipt.status !== 1) throw new ServiceUnavailableError(`Transaction ${receipt.hash} failed on chain.`);
  return { tx_hash: receipt.hash, explorer_url: explorerTxUrl(deps.config, receipt.hash), block_number: receipt.blockNumber };
}
