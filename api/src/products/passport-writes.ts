// Brand-side writes to a minted passport (re-anchor its data hash, assign a tag, mark it lost or stolen) in two steps,
// broadcast and confirm, so a caller can record the transaction hash durably before waiting, and later settle a
// write whose outcome it never saw (the process stopped, the receipt came too late) from the chain. Sends go
// through the ledger (chain/ledger.ts), which records each transaction before it is broadcast.
import { isError, type ContractTransactionResponse, type TransactionResponse } from "ethers";
import type { AppDeps } from "../deps";
import { AppError, ConflictError, ServiceUnavailableError } from "../errors";
import { explorerTxUrl } from "../links";
import { ledgerReceipt } from "../chain/transactions";

export type ConfirmedWrite = { txHash: string; explorerUrl: string; blockNumber: number };

/** How long a request waits for its transaction's receipt before answering that it is still unconfirmed. */
/** A sent transaction with no receipt after this long is taken as dropped, unless the chain shows its effect. */
export const UNCONFIRMED_AFTER_MS = 5 * 60_000;

/** Answers, by contract error name, what the caller is told when the chain refuses the write (409 CONFLICT). */
export type RevertMessages = Record<string, (args: readonly unknown[]) => string>;

/**
 * Sends one passport write from the shared wallet. The contract checks the write when its gas is estimated, before
 * anything is broadcast: a refusal it names (a tag on another passport, a status change it forbids) becomes a 409
 * with `messages`' wording; any other refusal, or the chain being unreachable, is a 503. Nothing was sent when this throws.
 */
export async function broadcastPassportWrite(
  deps: AppDeps,
  submit: () => Promise<ContractTransactionResponse>,
  messages: RevertMessages,
): Promise<TransactionResponse> {
  try {
    return await deps.chain.wallet.send(submit);
  } catch (error) {
    if (error instanceof AppError) throw error;
    const revert = revertOf(deps, error);
    const message = revert ? messages[revert.name] : undefined;
    if (revert && message) throw new ConflictError(message(revert.args));
    deps.logger.error({ err: error }, "passport write not sent");
    // A refusal the request could not have avoided (the wallet lost its role, a paused contract) is the service's
    // problem, not the caller's: 503, with the contract's reason.
    if (revert) throw new ServiceUnavailableError(`The chain refused the change (${revert.name}); nothing was changed.`);
    throw new ServiceUnavailableError("The chain could not be reached; nothing was changed. Retry shortly.");
  }
}

/**
 * The contract's custom error in a refused call. Gas estimation reports the raw revert data: ethers decodes only
 * Error(string) and panics itself, so the passport's ABI decodes the rest.
 */
function revertOf(deps: AppDeps, error: unknown): { name: string; args: readonly unknown[] } | undefined {
  if (!isError(error, "CALL_EXCEPTION")) return undefined;
  if (error.revert) return { name: error.revert.name, args: error.revert.args };
  if (!error.data) return undefined;
  const parsed = deps.chain.contracts().passport.interface.parseError(error.data);
  return parsed ? { name: parsed.name, args: [...parsed.args] } : undefined;
}

/** Why a sent write did not confirm: reverted on chain, or no receipt within the wait (it may still land). */
export class WriteNotConfirmed extends Error {
  constructor(
    readonly txHash: string,
    readonly reverted: boolean,
  ) {
    super(reverted ? `transaction ${txHash} reverted` : `transaction ${txHash} not confirmed in time`);
  }
}

/**
 * Waits (bounded) for a sent write's receipt through the ledger (a fee bump is followed); throws WriteNotConfirmed
 * when it reverted or did not come in time.
 */
export async function confirmPassportWrite(deps: AppDeps, tx: TransactionResponse): Promise<ConfirmedWrite> {
  let receipt;
  try {
    receipt = await ledgerReceipt(deps, tx.hash);
  } catch (error) {
    deps.logger.error({ err: error, txHash: tx.hash }, "passport write not confirmed");
    throw new WriteNotConfirmed(tx.hash, false);
  }
  if (receipt.status !== 1) throw new WriteNotConfirmed(receipt.hash, true);
  return { txHash: receipt.hash, explorerUrl: explorerTxUrl(deps.config, receipt.hash), blockNumber: receipt.blockNumber };
}

/** What the chain says of a write sent earlier: mined (and whether it succeeded), or not (yet) known. */
export type SentWriteState = { state: "confirmed"; blockNumber: number } | { state: "reverted" } | { state: "unknown" };

export async function sentWriteState(deps: AppDeps, txHash: string): Promise<SentWriteState> {
  // Through the ledger row of the hash, so a replacement with higher fees counts; a hash the ledger does not know
  // (sent before it existed) is asked about directly.
  const row = await deps.chain.ledger.findByHash(txHash);
  const receipt = row ? await deps.chain.ledger.receiptOf(row) : await deps.provider.getTransactionReceipt(txHash);
  if (!receipt) return { state: "unknown" };
  return receipt.status === 1 ? { state: "confirmed", blockNumber: receipt.blockNumber } : { state: "reverted" };
}
