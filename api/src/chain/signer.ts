// The only writer to the chain: the service's shared wallet. Sends are serialised so nonces never collide, while
// waiting for receipts happens outside the queue, so many transactions can be in flight at once.
import { NonceManager, Wallet, type JsonRpcProvider, type TransactionResponse } from "ethers";

export class SharedWallet {
  readonly wallet: Wallet;
  private readonly signer: NonceManager;
  private queue: Promise<unknown> = Promise.resolve();

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
