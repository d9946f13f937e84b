// Minting a product's passport from the shared wallet, idempotent per UID: the first caller claims the issuance
// row, sends the mint and records it; concurrent or repeated callers get the same result. A crash between sending
// and the receipt leaves a pending row that `reconcilePendingIssuances` settles from the chain at start.
import type { AppDeps } from "../deps";
import { certificatePageUrl, explorerTxUrl } from "../links";
import type { Knex } from "../db/knex";
import { ServiceUnavailableError } from "../errors";
import type { Logger } from "../logger";
import { certIssuedPayload } from "../webhooks/events";
import { enqueueEvent } from "../webhooks/outbox";
import { dataHashOf, passportContentFor, tokenIdOf } from "./content";
import { certificatePdfUrl } from "../links";
import { brandAddress } from "../domains/service";
import type { ProductRow } from "../products/products.repo";
import {
  findIssuance,
  findIssuedProduct,
  insertClaim,
  listPendingIssuances,
  lockProductForIssuance,
  markFailed,
  markMintedRow,
  recordSentMint,
  retakeFailedClaim,
  type IssuanceRow,
} from "./issuance.repo";

export type Issuance = {
  productId: number;
  tokenId: string;
  dataHash: string;
  status: "pending" | "minted" | "failed";
  txHash: string | null;
  blockNumber: number | null;
  contractAddress: string;
  chainId: number;
  mintedAt: Date | null;
  /** True when this call minted; false when it returned an earlier issuance. */
  created: boolean;
};

const RECEIPT_TIMEOUT_MS = 60_000;

const WAIT_FOR_OTHER_MS = 90_000;

function toIssuance(row: IssuanceRow, created: boolean): Issuance {
  return {
    productId: row.product_id,
    tokenId: row.token_id,
    dataHash: row.data_hash,
    status: row.status,
    txHash: row.tx_hash,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    contractAddress: row.contract_address,
    chainId: row.chain_id,
    mintedAt: row.minted_at,
    created,
  };
}

/** Issues (mints) the passport of `product`, or returns the issuance that already exists. */
export async function issuePassport(deps: AppDeps, product: ProductRow): Promise<Issuance> {
  const { db } = deps;
  const contracts = deps.chain.contracts();
  // The claim is made under a lock on the product row, from the row as it is then: an edit (which takes the same
  // lock) either lands before and is minted, or comes after and sees the claim, so it re-anchors instead.
  const { claimed, retaken, current } = await db.transaction(async (trx) => {
    const current = (await lockProductForIssuance(trx, product.id, product.uid)) ?? product;
    const claim = {
      product_id: current.id,
      token_id: tokenIdOf(current.uid),
      data_hash: dataHashOf(passportContentFor(current)),
      status: "pending",
      chain_id: contracts.deployment.chainId,
      contract_address: contracts.deployment.contracts.ProductPassport.address,
    };
    // Claim: insert a pending row, or take over a failed one. Exactly one caller wins either way.
    let claimed = await insertClaim(trx, claim);
    // A first claim cannot be on chain yet; a retaken failed one may be (its transaction may have landed late).
    let retaken = false;
    if (claimed.length === 0) {
      claimed = await retakeFailedClaim(trx, claim);
      retaken = claimed.length > 0;
    }
    return { claimed, retaken, current };
  });
  if (claimed.length === 0) return waitForIssuance(db, product.id);
  return mint(deps, current, claimed[0]!, retaken);
}

async function mint(deps: AppDeps, product: ProductRow, row: IssuanceRow, retaken: boolean): Promise<Issuance> {
  const { db, logger } = deps;
  const { passport } = deps.chain.contracts();
  try {
    // A retried passport may be on chain already (an earlier attempt's transaction landed late): adopt it.
    if (retaken && (await passport.exists(row.token_id))) return toIssuance(await settleFromChain(deps, row, product), true);
    const factoryId = product.factory_id === null ? 0 : Number(product.factory_id);
    const tx = await deps.chain.mints().mint({ tokenId: row.token_id, factoryId, dataHash: row.data_hash });
    await recordSentMint(db, row.product_id, { txHash: tx.hash, nonce: tx.nonce });
    const receipt = await tx.wait(1, RECEIPT_TIMEOUT_MS);
    if (!receipt || receipt.status !== 1) throw new Error(`mint transaction ${tx.hash} failed`);
    const minted = await markMinted(deps, { uid: product.uid, brandId: product.brand_id }, row.product_id, {
      block_number: receipt.blockNumber,
    });
    return toIssuance(minted, true);
  } catch (error) {
    logger.error({ err: error, uid: product.uid }, "passport issuance failed");
    // The transaction may still land; reconciliation looks at the chain before anyone retries blindly.
    await markFailed(db, row.product_id, error instanceof Error ? error.message.slice(0, 500) : String(error));
    throw new ServiceUnavailableError("The chain did not confirm the certificate in time; retry the same request.");
  }
}

/** Another caller holds the issuance: wait (bounded) for it to settle and return the same result. */
async function waitForIssuance(db: Knex, productId: number): Promise<Issuance> {
  const deadline = Date.now() + WAIT_FOR_OTHER_MS;
  while (Date.now() < deadline) {
    const row = (await findIssuance(db, productId))!;
    if (row.status === "minted") return toIssuance(row, false);
    if (row.status === "failed") throw new ServiceUnavailableError("A concurrent issuance of this UID failed; retry the request.");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new ServiceUnavailableError("The issuance of this UID is still in progress; retry the same request.");
}

/**
 * Marks an issuance minted and, in the same transaction, enqueues `cert.issued`: the state change and the event it
 * causes commit together or not at all.
 */
async function markMinted(
  deps: AppDeps,
  product: { uid: string; brandId: number },
  productId: number,
  changes: Record<string, unknown>,
): Promise<IssuanceRow> {
  return deps.db.transaction(async (trx) => {
    const minted = await markMintedRow(trx, productId, changes);
    const { config } = deps;
    const brand = await brandAddress(trx, product.brandId);
    await enqueueEvent(trx, {
      brandId: product.brandId,
      type: "cert.issued",
      dedupeKey: `cert.issued:${product.uid}`,
      payload: certIssuedPayload({
        uid: product.uid,
        txHash: minted.tx_hash!,
        tokenId: minted.token_id,
        networkUrl: explorerTxUrl(config, minted.tx_hash!),
        certificateUrl: certificatePageUrl(config, product.uid, brand),
        certificatePdfUrl: certificatePdfUrl(config, product.uid, brand),
        at: new Date(),
      }),
    });
    return minted;
  });
}

/** Marks an issuance minted from what the chain says (the PassportMinted log of its token). */
async function settleFromChain(deps: AppDeps, row: IssuanceRow, product: { uid: string; brand_id: number }): Promise<IssuanceRow> {
  const { passport } = deps.chain.contracts();
  const logs = await passport.queryFilter(passport.filters.PassportMinted(row.token_id), deps.chain.contracts().deployment.startBlock);
  const log = logs[0];
  if (!log) throw new Error(`passport ${row.token_id} exists but its PassportMinted log was not found`);
  const onChainHash = await passport.dataHashOf(row.token_id);
  return markMinted(deps, { uid: product.uid, brandId: product.brand_id }, row.product_id, {
    tx_hash: log.transactionHash,
    block_number: log.blockNumber,
    data_hash: onChainHash,
  });
}

/**
 * Settles issuances left pending by a crash: minted on chain → minted; broadcast but unknown to the chain, or never
 * broadcast → failed, so the next request issues again. Returns how many rows it settled.
 */
export async function reconcilePendingIssuances(deps: AppDeps, logger: Logger, olderThanSeconds = 0): Promise<number> {
  const pending = await listPendingIssuances(deps.db, olderThanSeconds);
  if (pending.length === 0) return 0;
  const { passport } = deps.chain.contracts();
  for (const row of pending) {
    if (await passport.exists(row.token_id)) {
      const product = (await findIssuedProduct(deps.db, row.product_id))!;
      await settleFromChain(deps, row, product);
      logger.info({ tokenId: row.token_id }, "pending issuance settled from the chain: minted");
    } else {
      await markFailed(deps.db, row.product_id, "interrupted before the mint reached the chain");
      logger.warn({ tokenId: row.token_id }, "pending issuance not on chain: marked failed, the next request retries");
    }
  }
  return pending.length;
}
