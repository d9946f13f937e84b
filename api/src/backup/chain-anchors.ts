// The hashes the passport contract set for a token, read from the chain this process is configured with (its own
// RPC, its own deployment file), never from the primary: the PassportMinted event's hash, then each DataHashUpdated
// event's new hash, in chain order. The contract keeps only the current hash; older versions are found in its events,
// as the archive's verify kit finds them (archive/kit/verify.cjs).
import type { ChainAccess } from "../chain/access";
import { finalBlockUpTo } from "../chain/finality";

/** One hash the chain set: version n of a passport is step n (the mint is version 1). */
export type AnchorStep = { hash: string; txHash: string; blockNumber: number };

/** Blocks asked per eth_getLogs call: public nodes refuse wider ranges. */
const LOG_RANGE = 50_000;

/**
 * The final steps of `tokenId`, in order, from the deployment's start block, and the last final block. Steps in
 * blocks not yet final (CONFIRMATIONS) are left out: their versions wait for the next run.
 */
export async function anchorSteps(chain: ChainAccess, confirmations: number, tokenId: string): Promise<{ steps: AnchorStep[]; finalBlock: number }> {
  const { passport, deployment } = chain.contracts();
  const provider = passport.runner!.provider!;
  const final = finalBlockUpTo(await provider.getBlockNumber(), confirmations);
  const ranges: Array<[number, number]> = [];
  for (let start = deployment.startBlock; start <= final; start += LOG_RANGE) ranges.push([start, Math.min(final, start + LOG_RANGE - 1)]);
  const [minted, updated] = await Promise.all([
    Promise.all(ranges.map(([start, end]) => passport.queryFilter(passport.filters.PassportMinted(tokenId), start, end))),
    Promise.all(ranges.map(([start, end]) => passport.queryFilter(passport.filters.DataHashUpdated(tokenId), start, end))),
  ]);
  const byPosition = (a: { blockNumber: number; index: number }, b: { blockNumber: number; index: number }) => a.blockNumber - b.blockNumber || a.index - b.index;
  const step = (hash: string, log: { transactionHash: string; blockNumber: number }): AnchorStep => ({ hash: hash.toLowerCase(), txHash: log.transactionHash, blockNumber: log.blockNumber });
  const steps = [...minted.flat().sort(byPosition).map((log) => step(log.args.dataHash, log)), ...updated.flat().sort(byPosition).map((log) => step(log.args.newHash, log))];
  return { steps, finalBlock: final };
}
