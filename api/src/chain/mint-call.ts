// The data hashes a mint transaction anchored, read from its own arguments: the passport contract logs one
// PassportsMinted per call and a Transfer from zero per passport, and a passport's hash travels only in the call.
import type { TransactionResponse } from "ethers";
import { ProductPassport__factory } from "../../../typechain-types";

const passportInterface = ProductPassport__factory.createInterface();

/**
 * The hash `tx` (a direct `mint` or `mintBatch` call of the passport contract at `contract`) anchored for `tokenId`.
 * Throws, naming the transaction, for anything else: a call through another contract cannot be decoded from its
 * input, and guessing a hash would defeat the check it feeds. The service's shared wallet always calls directly.
 */
export function mintedHashOf(tx: Pick<TransactionResponse, "hash" | "to" | "data">, contract: string, tokenId: string): string {
  const refuse = (why: string): never => {
    throw new Error(`mint transaction ${tx.hash}: ${why}`);
  };
  if (!tx.to || tx.to.toLowerCase() !== contract.toLowerCase()) refuse(`calls ${tx.to ?? "no contract"}, not the passport contract ${contract}`);
  const call = passportInterface.parseTransaction({ data: tx.data });
  let ids: bigint[] = [];
  let hashes: string[] = [];
  if (call?.name === "mint") {
    ids = [call.args.tokenId as bigint];
    hashes = [call.args.dataHash as string];
  } else if (call?.name === "mintBatch") {
    ids = [...(call.args.tokenIds as bigint[])];
    hashes = [...(call.args.dataHashes as string[])];
  } else {
    refuse(`its input is ${call ? call.name : "no passport contract call"}, not mint or mintBatch`);
  }
  const at = ids.findIndex((id) => id.toString() === tokenId);
  if (at < 0) refuse(`does not mint token ${tokenId}`);
  return hashes[at]!.toLowerCase();
}
