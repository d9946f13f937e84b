// The one rule for "is this block deep enough": a block's own inclusion is its first confirmation, so a
// CONFIRMATIONS of 0 or 1 both mean final in its own block. Every record, list, webhook and ledger decision uses it.

/** Confirmations a block needs to be final: the configured count, with 0 read as 1. */
export function requiredConfirmations(confirmations: number): number {
  return Math.max(1, confirmations);
}

/** Confirmations a block has when the chain (or the indexer) is at `head`: 1 in its own block, 0 before it. */
export function confirmationsAt(blockNumber: number, head: number): number {
  return Math.max(0, head - blockNumber + 1);
}

/** Whether a block is deep enough to be final when the chain (or the indexer) is at `head`. */
export function isFinal(blockNumber: number, head: number, confirmations: number): boolean {
  return confirmationsAt(blockNumber, head) >= requiredConfirmations(confirmations);
}

/** The highest block that is final at `head` (every block at or below it is; below 0 when none is yet). */
export function finalBlockUpTo(head: number, confirmations: number): number {
  return head - requiredConfirmations(confirmations) + 1;
}
