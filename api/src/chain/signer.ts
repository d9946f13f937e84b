// The shared wallet as ethers sees it: contracts connected to `runner` send through the ledger (chain/ledger.ts),
// which allocates the nonce under a Postgres lock and records the signed transaction before it is broadcast.
import {
  AbstractSigner,
  Transaction,
  TransactionResponse,
  Wallet,
  type JsonRpcProvider,
  type Provider,
  type TransactionRequest,
  type TypedDataDomain,
  type TypedDataField,
} from "ethers";
import { FactoryRegistry__factory, ProductPassport__factory } from "../../../typechain-types";
import type { ChainLedger } from "./ledger";

const INTERFACES = [ProductPassport__factory.createInterface(), FactoryRegistry__factory.createInterface()];

/** The ledger's purpose of a call: the snake_case name of the contract function it calls ("assign_tag"). */
export function purposeOf(data: string): string {
  for (const iface of INTERFACES) {
    const parsed = iface.parseTransaction({ data });
    if (parsed) return parsed.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  }
  return "call";
}

/**
 * A signer whose sends go through the ledger. Gas is estimated first, as ethers' own signers do, so a call the
 * contract refuses fails here with its revert data and nothing is recorded or sent.
 */
class LedgerSigner extends AbstractSigner<JsonRpcProvider> {
  constructor(
    private readonly ledger: ChainLedger,
    provider: JsonRpcProvider,
  ) {
    super(provider);
  }

  getAddress(): Promise<string> {
    return Promise.resolve(this.ledger.address);
  }

  connect(provider: Provider | null): LedgerSigner {
    void provider;
    throw new Error("the shared wallet's signer is bound to its provider");
  }

  override async sendTransaction(request: TransactionRequest): Promise<TransactionResponse> {
    const to = await this.resolveTo(request);
    const data = request.data ?? "0x";
    const gasLimit =
      request.gasLimit !== undefined && request.gasLimit !== null
        ? BigInt(request.gasLimit)
        : await this.provider.estimateGas({ from: this.ledger.address, to, data });
    const row = await this.ledger.sendCall({ purpose: purposeOf(data), to, data, gasLimit });
    const tx = Transaction.from(row.raw_tx);
    return new TransactionResponse(
      {
        blockNumber: null,
        blockHash: null,
        hash: row.tx_hash,
        index: 0,
        type: tx.type ?? 2,
        to: tx.to,
        from: this.ledger.address,
        nonce: tx.nonce,
        gasLimit: tx.gasLimit,
        gasPrice: tx.gasPrice ?? tx.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
        maxFeePerGas: tx.maxFeePerGas,
        data: tx.data,
        value: tx.value,
        chainId: tx.chainId,
        signature: tx.signature!,
        accessList: tx.accessList,
        authorizationList: null,
      },
      this.provider,
    );
  }

  signTransaction(): Promise<string> {
    throw new Error("the shared wallet signs through the ledger only");
  }

  signMessage(): Promise<string> {
    throw new Error("the shared wallet signs no messages");
  }

  signTypedData(domain: TypedDataDomain, types: Record<string, TypedDataField[]>, value: Record<string, unknown>): Promise<string> {
    void domain;
    void types;
    void value;
    throw new Error("the shared wallet signs no typed data");
  }

  private async resolveTo(request: TransactionRequest): Promise<string> {
    const to = await request.to;
    if (typeof to === "string") return to;
    if (to && typeof (to as { getAddress?: unknown }).getAddress === "function") return (to as { getAddress: () => Promise<string> }).getAddress();
    throw new Error("a shared-wallet transaction needs a `to` address");
  }
}

export class SharedWallet {
  /** The wallet's key as an ethers Wallet bound to the provider: for reads (`wallet.provider`), never for sending. */
  readonly wallet: Wallet;
  private readonly signer: LedgerSigner;

  constructor(
    provider: JsonRpcProvider,
    privateKey: string,
    readonly ledger: ChainLedger,
  ) {
    this.wallet = new Wallet(privateKey, provider);
    this.signer = new LedgerSigner(ledger, provider);
  }

  get address(): string {
    return this.wallet.address;
  }

  /** The signer to connect contracts to: every send through it is recorded in the ledger first. */
  get runner(): AbstractSigner {
    return this.signer;
  }

  /**
   * Runs `submit`, which sends one transaction through `runner`. Kept as the one call site shape for sends; nonces
   * need no queue here any more, the ledger allocates them under its lock.
   */
  send<T extends TransactionResponse>(submit: () => Promise<T>): Promise<T> {
    return submit();
  }
}
