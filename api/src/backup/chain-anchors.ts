// Where the chain set a passport's hash, read from the chain this process is configured with (its own RPC, its own
// deployment file), never from the primary or an indexer: the receipt of the transaction the primary names for a
// version, and in it the token's mint (its Transfer from zero, with the hash the mint call passed) or the
// DataHashUpdated event the passport contract emitted. The contract keeps only the current hash; its events and mint
// calls keep every earlier one (as the archive's verify kit reads them).
import { ZeroAddress } from "ethers";
import type { ChainAccess } from "../chain/access";
import { finalBlockUpTo } from "../chain/finality";
import { mintedHashOf } from "../chain/mint-call";

/** A hash the contract set for the token in one transaction: at its mint, or by an update (after `previousHash`). */
export type AnchorEvent = { kind: "minted" | "updated"; hash: string; previousHash: string | null; txHash: string; blockNumber: number };

export type TransactionAnchors =
  /** Not mined yet on this chain, or in a block not final yet (CONFIRMATIONS): the next run looks again. */
  | { status: "pending" }
  /** This chain has no such transaction (mined and final blocks are all it knows: `finalBlock`). */
  | { status: "unknown"; finalBlock: number }
  | { status: "mined"; events: AnchorEvent[] };

/** The hashes the passport contract set for `tokenId` in transaction `txHash`, once its block is final. */
export async function anchorsInTransaction(chain: ChainAccess, confirmations: number, tokenId: string, txHash: string): Promise<TransactionAnchors> {
  const { passport, deployment } = chain.contracts();
  const provider = passport.runner!.provider!;
  const [receipt, head] = await Promise.all([provider.getTransactionReceipt(txHash), provider.getBlockNumber()]);
  const finalBlock = finalBlockUpTo(head, confirmations);
  if (!receipt) return { status: "unknown", finalBlock };
  if (receipt.blockNumber > finalBlock) return { status: "pending" };
  const contract = deployment.contracts.ProductPassport.address.toLowerCase();
  const events: AnchorEvent[] = [];
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== contract) continue;
    const parsed = passport.interface.parseLog({ topics: [...log.topics], data: log.data });
    if (!parsed || parsed.args.tokenId?.toString() !== tokenId) continue;
    const at = { txHash: receipt.hash, blockNumber: receipt.blockNumber };
    if (parsed.name === "Transfer" && parsed.args.from === ZeroAddress) {
      const tx = await provider.getTransaction(txHash);
      if (!tx) throw new Error(`mint transaction ${txHash} has a receipt but the node does not return it`);
      events.push({ kind: "minted", hash: mintedHashOf(tx, contract, tokenId), previousHash: null, ...at });
    }
    if (parsed.name === "DataHashUpdated") events.push({ kind: "updated", hash: String(parsed.args.newHash).toLowerCase(), previousHash: String(parsed.args.previousHash).toLowerCase(), ...at });
  }
  return { status: "mined", events };
}
