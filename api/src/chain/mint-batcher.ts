// Group commit for mints: while one mint transaction is being sent, further mints queue up and go out together as one
// `mintBatch` (per factory id). A lone mint goes out at once, so batching adds no latency; under load it replaces
// many serial transactions by a few, and costs about half the gas per passport.
import type { TransactionResponse } from "ethers";
import type { ProductPassport } from "../../../typechain-types";
import type { SharedWallet } from "./signer";

export type MintRequest = { tokenId: string; factoryId: number; dataHash: string };

type Pending = MintRequest & { resolve: (tx: TransactionResponse) => void; reject: (error: unknown) => void };

/** Largest batch sent at once (the contract allows 200; 50 keeps one transaction well inside any block). */
const MAX_BATCH = 50;
/** Gas of a single mint to the custodian is ~57,000 and of a batch ~28,000 per passport (.gas-snapshot). */
const SINGLE_MINT_GAS = 120_000n;
const BATCH_BASE_GAS = 80_000n;
const BATCH_GAS_PER_PASSPORT = 40_000n;

export class MintBatcher {
  private pending: Pending[] = [];
  private sending = false;

  constructor(
    private readonly wallet: SharedWallet,
    private readonly passport: ProductPassport,
  ) {}

  /** Resolves with the transaction that carries this mint (possibly shared with other mints). */
  mint(request: MintRequest): Promise<TransactionResponse> {
    return new Promise((resolve, reject) => {
      this.pending.push({ ...request, resolve, reject });
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.sending || this.pending.length === 0) return;
    this.sending = true;
    // One batch carries one factory id: take the oldest request's factory and its peers, in arrival order.
    const factoryId = this.pending[0]!.factoryId;
    const batch = this.pending.filter((p) => p.factoryId === factoryId).slice(0, MAX_BATCH);
    this.pending = this.pending.filter((p) => !batch.includes(p));
    try {
      const tx = await this.send(factoryId, batch);
      for (const p of batch) p.resolve(tx);
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      this.sending = false;
      void this.flush();
    }
  }

  private async send(factoryId: number, batch: Pending[]): Promise<TransactionResponse> {
    const custodian = this.wallet.address;
    if (batch.length === 1) {
      const only = batch[0]!;
      const call = await this.passport.mint.populateTransaction(custodian, only.tokenId, factoryId, only.dataHash);
      return this.wallet.sendCall(call, SINGLE_MINT_GAS);
    }
    const call = await this.passport.mintBatch.populateTransaction(
      custodian,
      factoryId,
      batch.map((p) => p.tokenId),
      batch.map((p) => p.dataHash),
    );
    return this.wallet.sendCall(call, BATCH_BASE_GAS + BATCH_GAS_PER_PASSPORT * BigInt(batch.length));
  }
}
