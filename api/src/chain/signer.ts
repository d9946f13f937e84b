// The only writer to the chain: the service's shared wallet. Sends are serialised so nonces never collide, while
// waiting for receipts happens outside the queue, so many transactions can be in flight at once.
import { NonceManager, Wallet, type ContractTransaction, type JsonRpcProvider, type TransactionResponse } from "ethers";

/** Fee data is re-read at most this often: one read serves every transaction of a burst. */
const FEE_DATA_TTL_MS = 5000;

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

export class SharedWallet {
  readonly wallet: Wallet;
  private readonly signer: NonceManager;
  private queue: Promise<unknown> = Promise.resolve();
  private fees: { at: number; value: Promise<Fees> } | undefined;

  constructor(provider: JsonRpcProvider, privateKey: string) {
    this.wallet = new Wallet(privateKey, provider);
    // NonceManager counts nonces locally after reading the pending count once.
    this.signer = new NonceManager(this.wallet);
  }

  get address(): string {
    return this.wallet.address;
  }

  /** The signer to connect contracts to; every send through it must go via `send`. */
  get runner(): NonceManager {
    return this.signer;
  }

  /**
   * Sends a prepared contract call with a known gas limit. Everything that needs the chain (fees) is read before
   * entering the queue, so the queue holds only signing and broadcasting: the part that must be serial.
   */
  async sendCall(call: ContractTransaction, gasLimit: bigint): Promise<TransactionResponse> {
    const fees = await this.feeData();
    return this.send(() => this.signer.sendTransaction({ to: call.to, data: call.data, gasLimit, ...fees }));
  }

  private feeData(): Promise<Fees> {
    if (!this.fees || Date.now() - this.fees.at > FEE_DATA_TTL_MS) {
      const value = this.wallet.provider!.getFeeData().then((data): Fees => {
        if (data.maxFeePerGas !== null && data.maxPriorityFeePerGas !== null) {
          return { maxFeePerGas: data.maxFeePerGas, maxPriorityFeePerGas: data.maxPriorityFeePerGas };
        }
        return { gasPrice: data.gasPrice ?? 0n };
      });
      // A failed read is not cached: the next call tries again.
      value.catch(() => (this.fees = undefined));
      this.fees = { at: Date.now(), value };
    }
    return this.fees.value;
  }

  /**
   * Runs `submit` (which must broadcast exactly one transaction through `runner`) alone in the queue, so each
   * transaction gets the next nonce. If broadcasting fails, the nonce count is re-read from the chain.
   */
  send<T extends TransactionResponse>(submit: () => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      try {
        return await submit();
      } catch (error) {
        this.signer.reset();
        throw error;
      }
    });
    this.queue = result.catch(() => undefined);
    return result;
  }
}
