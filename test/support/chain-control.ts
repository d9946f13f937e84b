// Driving a Hardhat node's blocks by hand, for reorganisation tests: snapshots, reverts, and blocks mined one at a
// time (hardhat_mine with a count above 1 makes blocks Ponder cannot follow), on the old branch or on a new one.
import { JsonRpcProvider, Network, type TransactionReceipt } from "ethers";

/** Hardhat's unlocked test accounts #5 and #6: a new branch's blocks carry transfers between them, never ours. */
const BRANCH_FROM = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const BRANCH_TO = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

export class ChainControl {
  readonly provider: JsonRpcProvider;

  constructor(rpcUrl: string, chainId: number) {
    this.provider = new JsonRpcProvider(rpcUrl, Network.from(chainId), { staticNetwork: true, cacheTimeout: -1 });
  }

  head(): Promise<number> {
    return this.provider.getBlockNumber();
  }

  snapshot(): Promise<string> {
    return this.provider.send("evm_snapshot", []) as Promise<string>;
  }

  /** Back to `snapshot`: the blocks (and the mempool) since are gone. */
  async revert(snapshot: string): Promise<void> {
    if ((await this.provider.send("evm_revert", [snapshot])) !== true) throw new Error(`evm_revert ${snapshot} refused`);
  }

  /** Automine on: each transaction sent is mined at once in its own block. Off: only `mine` makes blocks. */
  async automine(on: boolean): Promise<void> {
    await this.provider.send("evm_setAutomine", [on]);
  }

  /** One block, with whatever the mempool holds. */
  async mine(): Promise<void> {
    await this.provider.send("evm_mine", []);
  }

  /**
   * One block of a new branch (automine must be off): it carries a transfer between two accounts that are not the
   * shared wallet, so it differs from any block of the old branch even if it also carries a re-sent transaction.
   */
  async mineBranchBlock(): Promise<void> {
    await this.provider.send("eth_sendTransaction", [{ from: BRANCH_FROM, to: BRANCH_TO, value: "0x1" }]);
    await this.mine();
  }

  /** The receipt of `hash` on the current chain, or null when the chain does not hold it. */
  receipt(hash: string): Promise<TransactionReceipt | null> {
    return this.provider.getTransactionReceipt(hash);
  }

  /** How deep the block `blockNumber` is at the current head, counting its own inclusion as the first. */
  async depth(blockNumber: number): Promise<number> {
    return (await this.head()) - blockNumber + 1;
  }

  close(): void {
    this.provider.destroy();
  }
}
