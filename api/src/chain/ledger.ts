// The shared wallet's one nonce authority, across every process: each transaction is signed and recorded in
// app.chain_transactions under a Postgres advisory lock before it is broadcast, so replicas never collide, nothing
// is on the wire that is not durably recorded, and any process (the elected monitor) can follow, re-send or replace it.
import { keccak256, Transaction, Wallet, type JsonRpcProvider, type TransactionReceipt } from "ethers";
import type { Knex } from "../db/knex";
import type { Logger } from "../logger";
import { crashPoint } from "./crash-points";
import { isFinal, requiredConfirmations } from "./finality";

export type LedgerStatus = "signed" | "sent" | "mined" | "final" | "superseded" | "failed";

/** bigint columns come back as numbers (db/knex.ts parses int8). */
export type LedgerRow = {
  id: number;
  wallet: string;
  chain_id: number;
  nonce: number;
  purpose: string;
  to_address: string;
  data: string;
  gas_limit: number;
  raw_tx: string;
  tx_hash: string;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  gas_price: string | null;
  hashes: string[];
  status: LedgerStatus;
  mined_hash: string | null;
  block_number: number | null;
  block_hash: string | null;
  checked_depth: number;
  first_sent_at: Date | null;
  last_sent_at: Date | null;
  signed_at: Date;
  replacements: number;
  superseded_by: number | null;
  error: string | null;
};

/** A contract call to send from the shared wallet; `purpose` names it in the ledger ("mint_batch", "assign_tag"). */
export type LedgerCall = { purpose: string; to: string; data: string; gasLimit: bigint };

/** What a `send` preparation returns: the call, and how to link the caller's rows to the ledger row (same transaction). */
export type PreparedSend = { call: LedgerCall; link?: (trx: Knex, row: LedgerRow) => Promise<void> };

/**
 * What a module does when a transaction of one of its purposes changes state, each inside the transaction that
 * records the change: mined (a receipt, status 1), final (at the confirmation depth), reverted (status 0), unmined
 * (its block left the chain), superseded (its nonce went to something else: the intent must be redone).
 */
export type LedgerHandler = {
  purposes: readonly string[];
  mined?: (trx: Knex, row: LedgerRow, receipt: TransactionReceipt) => Promise<void>;
  final?: (trx: Knex, row: LedgerRow) => Promise<void>;
  reverted?: (trx: Knex, row: LedgerRow) => Promise<void>;
  unmined?: (trx: Knex, row: LedgerRow) => Promise<void>;
  superseded?: (trx: Knex, row: LedgerRow) => Promise<void>;
  /** Called after any of the above committed, for in-process wake-ups. */
  settled?: (row: LedgerRow) => void;
};

export type LedgerOptions = {
  db: Knex;
  provider: JsonRpcProvider;
  privateKey: string;
  chainId: number;
  logger: Logger;
  /** Depth at which a mined transaction is final (config.confirmations; 0 and 1 both mean its own block). */
  confirmations: number;
};

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

/** Fee data is re-read at most this often: one read serves every transaction of a burst. */
const FEE_DATA_TTL_MS = 5000;
const PENDING_COUNT_TTL_MS = 1000;
/** Tries of a broadcast the node refused as ahead of its next nonce (20 ms, 40 ms, …: about 4 s in all). */
const NONCE_AHEAD_ATTEMPTS = 20;
/** Advisory-lock class ids (the second key is the wallet's hash): the nonce lock and the monitor's election. */
export const NONCE_LOCK_CLASS = 15_001;
export const MONITOR_LOCK_CLASS = 15_002;

/** Thrown by `wait` when no receipt came in time; the transaction stays in the ledger and may still land. */
export class LedgerWaitTimeout extends Error {
  constructor(readonly row: LedgerRow) {
    super(`transaction ${row.tx_hash} (nonce ${row.nonce}) has no receipt yet`);
  }
}

/** Thrown by `wait` when the row's nonce went to another transaction and nothing redoes it (a mint's claims are re-queued). */
export class LedgerSuperseded extends Error {
  constructor(readonly row: LedgerRow) {
    super(`transaction ${row.tx_hash} (nonce ${row.nonce}) was superseded`);
  }
}

export class ChainLedger {
  readonly db: Knex;
  readonly provider: JsonRpcProvider;
  readonly logger: Logger;
  readonly chainId: number;
  readonly confirmations: number;
  /** Lower-case address, as stored. */
  readonly walletKey: string;
  private readonly signer: Wallet;
  private readonly handlers: LedgerHandler[] = [];
  private fees: { at: number; value: Promise<Fees> } | undefined;
  private pending: { at: number; value: Promise<number> } | undefined;

  constructor(options: LedgerOptions) {
    this.db = options.db;
    this.provider = options.provider;
    this.logger = options.logger;
    this.chainId = options.chainId;
    this.confirmations = requiredConfirmations(options.confirmations);
    this.signer = new Wallet(options.privateKey);
    this.walletKey = this.signer.address.toLowerCase();
  }

  get address(): string {
    return this.signer.address;
  }

  /** Registers what happens to the caller's rows when a transaction of its purposes settles; once per purpose. */
  register(handler: LedgerHandler): void {
    if (this.handlers.some((h) => h.purposes.some((p) => handler.purposes.includes(p)))) return;
    this.handlers.push(handler);
  }

  handlerFor(purpose: string): LedgerHandler | undefined {
    return this.handlers.find((h) => h.purposes.includes(purpose));
  }

  /**
   * Sends one transaction: in one database transaction, under the wallet's advisory lock, `prepare` picks (and
   * locks) its work and returns the call or nothing; the next nonce is allocated, the call signed and recorded, and
   * the caller's rows linked; after the commit it is broadcast. Resolves with the row, or undefined when `prepare`
   * had nothing to send. A broadcast that fails is not an error here: the row is durable and the monitor re-sends it.
   */
  async send(prepare: (trx: Knex) => Promise<PreparedSend | undefined>): Promise<LedgerRow | undefined> {
    // Chain reads happen before the lock, so it is held only for the few statements below. The pending count only
    // matters for sends made outside the ledger (the ledger's own highest nonce is exact), so a slightly old one is fine.
    const [fees, pendingCount] = await Promise.all([this.feeData(), this.pendingCount()]);
    const row = await this.db.transaction(async (trx) => {
      await trx.raw("SELECT pg_advisory_xact_lock(?, hashtext(?))", [NONCE_LOCK_CLASS, this.lockKey]);
      const prepared = await prepare(trx);
      if (!prepared) return undefined;
      const highest = await trx("app.chain_transactions")
        .where({ wallet: this.walletKey, chain_id: this.chainId })
        .whereNot({ status: "superseded" })
        .max<{ max: number | null }>("nonce as max")
        .first();
      const nonce = Math.max(highest?.max === null || highest?.max === undefined ? 0 : Number(highest.max) + 1, pendingCount);
      const { call } = prepared;
      const raw = await this.sign(call, nonce, fees);
      crashPoint("signed");
      const [inserted] = await trx("app.chain_transactions")
        .insert({
          wallet: this.walletKey,
          chain_id: this.chainId,
          nonce,
          purpose: call.purpose,
          to_address: call.to.toLowerCase(),
          data: call.data,
          gas_limit: call.gasLimit.toString(),
          raw_tx: raw,
          tx_hash: keccak256(raw),
          hashes: [keccak256(raw)],
          ...feeColumns(fees),
          status: "signed",
        })
        .returning<LedgerRow[]>("*");
      await prepared.link?.(trx, inserted!);
      return inserted!;
    });
    if (!row) return undefined;
    // A refused broadcast leaves the row `signed`: the monitor sends it.
    if (!(await this.broadcastInOrder(row))) return row;
    crashPoint("sent");
    await this.db("app.chain_transactions")
      .where({ id: row.id, status: "signed" })
      .update({ status: "sent", first_sent_at: this.db.raw("coalesce(first_sent_at, now())"), last_sent_at: this.db.fn.now(), updated_at: this.db.fn.now() });
    return { ...row, status: "sent" };
  }

  /** Sends one call with nothing to link (factory, tag and passport writes). */
  async sendCall(call: LedgerCall): Promise<LedgerRow> {
    return (await this.send(async () => ({ call })))!;
  }

  /**
   * Resolves with the receipt once any hash ever broadcast for the row (a fee bump re-signs it) has one; follows a
   * generic call redone under a new nonce. Throws LedgerWaitTimeout after `timeoutMs`, LedgerSuperseded when the
   * row's nonce went elsewhere and nothing redid it.
   */
  async wait(id: number, options: { timeoutMs: number; pollMs?: number }): Promise<TransactionReceipt> {
    const deadline = Date.now() + options.timeoutMs;
    let current = id;
    for (;;) {
      const row = await this.find(current);
      if (!row) throw new Error(`no ledger row ${current}`);
      if (row.status === "superseded") {
        if (row.superseded_by) {
          current = row.superseded_by;
          continue;
        }
        throw new LedgerSuperseded(row);
      }
      const receipt = await this.receiptOf(row);
      if (receipt) return receipt;
      if (Date.now() >= deadline) throw new LedgerWaitTimeout(row);
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
    }
  }

  /** The receipt of whichever of the row's hashes was mined, if any (newest signing first). */
  async receiptOf(row: LedgerRow): Promise<TransactionReceipt | null> {
    const hashes = row.mined_hash ? [row.mined_hash, ...row.hashes] : [...row.hashes].reverse();
    for (const hash of hashes) {
      const receipt = await this.provider.getTransactionReceipt(hash);
      if (receipt) return receipt;
    }
    return null;
  }

  async find(id: number): Promise<LedgerRow | undefined> {
    return this.db("app.chain_transactions").where({ id }).first<LedgerRow | undefined>();
  }

  /** The row that ever broadcast `hash` (the first hash of a row, or one of its replacements). */
  async findByHash(hash: string): Promise<LedgerRow | undefined> {
    return this.db("app.chain_transactions")
      .whereRaw("hashes @> ARRAY[?]::text[]", [hash.toLowerCase()])
      .first<LedgerRow | undefined>();
  }

  /**
   * Records a receipt: the row becomes mined (or failed, status 0) and the purpose's handler settles its rows in the
   * same transaction; at the confirmation depth it is final at once. Idempotent: whoever records first wins (the
   * sending process or the monitor), the other does nothing. Returns the row as it is after.
   */
  async recordReceipt(row: LedgerRow, receipt: TransactionReceipt, head: number): Promise<LedgerRow | undefined> {
    crashPoint("mined");
    const handler = this.handlerFor(row.purpose);
    const settled = await this.db.transaction(async (trx) => {
      const [updated] = await trx("app.chain_transactions")
        .where({ id: row.id })
        .whereIn("status", ["signed", "sent"])
        .update({
          status: receipt.status === 1 ? "mined" : "failed",
          mined_hash: receipt.hash.toLowerCase(),
          block_number: receipt.blockNumber,
          block_hash: receipt.blockHash.toLowerCase(),
          checked_depth: Math.max(1, head - receipt.blockNumber + 1),
          error: receipt.status === 1 ? null : "reverted on chain",
          updated_at: trx.fn.now(),
        })
        .returning<LedgerRow[]>("*");
      if (!updated) return undefined;
      if (receipt.status !== 1) {
        await handler?.reverted?.(trx, updated);
        return updated;
      }
      await handler?.mined?.(trx, updated, receipt);
      if (isFinal(receipt.blockNumber, head, this.confirmations)) return this.markFinal(trx, updated);
      return updated;
    });
    if (settled) handler?.settled?.(settled);
    return settled;
  }

  /** A mined row at the confirmation depth becomes final, and its purpose's chain-derived events go out (once). */
  async markFinal(trx: Knex, row: LedgerRow): Promise<LedgerRow> {
    const [final] = await trx("app.chain_transactions")
      .where({ id: row.id, status: "mined" })
      .update({ status: "final", updated_at: trx.fn.now() })
      .returning<LedgerRow[]>("*");
    if (!final) return row;
    await this.handlerFor(row.purpose)?.final?.(trx, final);
    return final;
  }

  /** Broadcasts the row's current signed transaction; a refusal is recorded on the row (the monitor acts on it). */
  async broadcast(row: Pick<LedgerRow, "id" | "raw_tx" | "tx_hash" | "nonce">): Promise<boolean> {
    const refusal = await this.tryBroadcast(row);
    if (refusal === undefined) return true;
    this.logger.warn({ txHash: row.tx_hash, nonce: row.nonce, refusal: refusal.slice(0, 300) }, "broadcast refused; the ledger monitor will retry");
    await this.db("app.chain_transactions").where({ id: row.id }).update({ error: refusal.slice(0, 500), updated_at: this.db.fn.now() });
    return false;
  }

  /**
   * Commits of two senders may reach the node out of nonce order, and a node that mines on every transaction
   * (Hardhat's automine) refuses a nonce ahead of the next one instead of queueing it. The earlier one is on its
   * way (committed, being broadcast), so the later one is tried again for a short while before the monitor takes over.
   */
  private async broadcastInOrder(row: LedgerRow): Promise<boolean> {
    for (let attempt = 1; attempt <= NONCE_AHEAD_ATTEMPTS; attempt += 1) {
      const refusal = await this.tryBroadcast(row);
      if (refusal === undefined) return true;
      if (!/nonce too high/i.test(refusal)) break;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
    return this.broadcast(row);
  }

  /** undefined when the node took the transaction (or had it already), else its refusal. */
  protected async tryBroadcast(row: Pick<LedgerRow, "raw_tx">): Promise<string | undefined> {
    try {
      await this.provider.send("eth_sendRawTransaction", [row.raw_tx]);
      return undefined;
    } catch (error) {
      const inner = (error as { error?: { message?: unknown } }).error?.message;
      const message = typeof inner === "string" ? inner : error instanceof Error ? error.message : String(error);
      // The node has it already (a re-send of the same bytes): that is success.
      if (/already known|known transaction|already imported/i.test(message)) return undefined;
      return message;
    }
  }

  /**
   * Re-signs a stuck row's nonce with both fees raised by `bumpPercent` (and at least today's fees), records the new
   * hash beside the old ones, then broadcasts it. Returns the new hash, or undefined when the row moved on meanwhile.
   */
  async replace(row: LedgerRow, bumpPercent: number): Promise<string | undefined> {
    const now = await this.feeData(true);
    const bump = (old: string | null, today: bigint) => {
      const raised = old === null ? today : (BigInt(old) * BigInt(100 + bumpPercent) + 99n) / 100n;
      return raised > today ? raised : today;
    };
    const fees: Fees =
      "gasPrice" in now
        ? { gasPrice: bump(row.gas_price, now.gasPrice) }
        : {
            maxFeePerGas: bump(row.max_fee_per_gas, now.maxFeePerGas),
            maxPriorityFeePerGas: bump(row.max_priority_fee_per_gas, now.maxPriorityFeePerGas),
          };
    const raw = await this.sign({ purpose: row.purpose, to: row.to_address, data: row.data, gasLimit: BigInt(row.gas_limit) }, row.nonce, fees);
    const hash = keccak256(raw);
    const [updated] = await this.db("app.chain_transactions")
      .where({ id: row.id })
      .whereIn("status", ["signed", "sent"])
      .update({
        raw_tx: raw,
        tx_hash: hash,
        hashes: this.db.raw("array_append(hashes, ?)", [hash]),
        ...feeColumns(fees),
        replacements: this.db.raw("replacements + 1"),
        signed_at: this.db.fn.now(),
        updated_at: this.db.fn.now(),
      })
      .returning<LedgerRow[]>("*");
    if (!updated) return undefined;
    await this.broadcast(updated);
    await this.db("app.chain_transactions").where({ id: row.id }).update({ last_sent_at: this.db.fn.now() });
    return hash;
  }

  private get lockKey(): string {
    return `${this.chainId}:${this.walletKey}`;
  }

  private async sign(call: LedgerCall, nonce: number, fees: Fees): Promise<string> {
    const common = { chainId: this.chainId, nonce, to: call.to, data: call.data, gasLimit: call.gasLimit, value: 0n };
    const tx = "gasPrice" in fees ? Transaction.from({ ...common, type: 0, gasPrice: fees.gasPrice }) : Transaction.from({ ...common, type: 2, ...fees });
    return this.signer.signTransaction(tx);
  }

  /**
   * The node's pending count, re-read at most every second: it only has to cover transactions sent outside the ledger
   * (the ledger's own highest nonce is exact), and one sent within that second is caught by the monitor (superseded).
   */
  private pendingCount(): Promise<number> {
    if (!this.pending || Date.now() - this.pending.at > PENDING_COUNT_TTL_MS) {
      const value = this.provider.getTransactionCount(this.address, "pending");
      value.catch(() => (this.pending = undefined));
      this.pending = { at: Date.now(), value };
    }
    return this.pending.value;
  }

  private feeData(fresh = false): Promise<Fees> {
    if (fresh || !this.fees || Date.now() - this.fees.at > FEE_DATA_TTL_MS) {
      const value = this.provider.getFeeData().then((data): Fees => {
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
}

function feeColumns(fees: Fees) {
  return "gasPrice" in fees
    ? { gas_price: fees.gasPrice.toString(), max_fee_per_gas: null, max_priority_fee_per_gas: null }
    : { gas_price: null, max_fee_per_gas: fees.maxFeePerGas.toString(), max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString() };
}
