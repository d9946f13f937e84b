// Minting a product's passport from the shared wallet, idempotent per UID: the first caller claims the issuance row
// (and, for a certificate, its quota unit in the same transaction); a mint pump in any process carries the claim in
// a mint transaction (passports/mint-pump.ts); the caller waits for the row to settle. Concurrent or repeated
// callers get the same result, and a crash anywhere leaves a claim that any process picks up.
import type { AppDeps } from "../deps";
import { ServiceUnavailableError } from "../errors";
import { crashPoint } from "../chain/crash-points";
import { consumeQuota } from "../metering/service";
import type { EffectiveLimits } from "../plans/catalogue";
import { canonicalContent, dataHashOf, passportContentFor, tokenIdOf } from "./content";
import type { ProductRow } from "../products/products.repo";
import { findIssuance, insertClaim, lockProductForIssuance, recordQuotaPeriod, retakeFailedClaim, type IssuanceClaim, type IssuanceRow } from "./issuance.repo";
import { mintPumpOf } from "./mint-pump";

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

/** How long a request waits for its issuance (its own claim or another caller's) before answering 503. */
const WAIT_FOR_ISSUANCE_MS = 90_000;
/** How often a waiter re-reads its row when no wake-up of this process came (another replica is minting it). */
const POLL_MS = 250;

/** Whose monthly certificate quota a new issuance counts against (a repeat counts nothing). */
export type IssuanceQuota = { brandId: number; limits: EffectiveLimits };

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

/** The issuance claim of a product as it is now (the caller holds its lock): its token, anchored hash and contract. */
export function claimFor(deps: AppDeps, current: ProductRow): IssuanceClaim {
  const contracts = deps.chain.contracts();
  const content = passportContentFor(current);
  return {
    product_id: current.id,
    brand_id: current.brand_id,
    token_id: tokenIdOf(current.uid),
    data_hash: dataHashOf(content),
    // The bytes hashed, kept as version 1 of the passport (read back by date through the EN 18222 API).
    content: canonicalContent(content),
    status: "pending",
    chain_id: contracts.deployment.chainId,
    contract_address: contracts.deployment.contracts.ProductPassport.address,
  };
}

/**
 * Issues (mints) the passport of `product`, or returns the issuance that already exists. With `quota`, a new claim
 * takes one certificate unit in the same transaction (MONTHLY_LIMIT_REACHED leaves no claim), and the unit is
 * refunded only when the issuance fails for good.
 */
export async function issuePassport(deps: AppDeps, product: ProductRow, quota?: IssuanceQuota): Promise<Issuance> {
  const { db } = deps;
  const pump = mintPumpOf(deps);
  // The claim is made under a lock on the product row, from the row as it is then: an edit (which takes the same
  // lock) either lands before and is minted, or comes after and sees the claim, so it re-anchors instead.
  const claimed = await db.transaction(async (trx) => {
    const current = (await lockProductForIssuance(trx, product.id, product.uid)) ?? product;
    const claim = claimFor(deps, current);
    // Claim: insert a pending row, or take over a failed one. Exactly one caller wins either way.
    let rows = await insertClaim(trx, claim);
    if (rows.length === 0) rows = await retakeFailedClaim(trx, claim);
    if (rows.length > 0 && quota) await recordQuotaPeriod(trx, current.id, (await consumeQuota(trx, quota.brandId, "certs", quota.limits)).period);
    return rows.length > 0;
  });
  if (claimed) {
    crashPoint("quota-taken");
    pump.wake();
  }
  const row = await waitForIssuance(deps, product.id, claimed);
  if (claimed) crashPoint("recorded");
  return toIssuance(row, claimed);
}

/** Waits (bounded) for the issuance row to settle: woken by this process's pump, or by polling the row. */
async function waitForIssuance(deps: AppDeps, productId: number, claimed: boolean): Promise<IssuanceRow> {
  const pump = mintPumpOf(deps);
  const deadline = Date.now() + WAIT_FOR_ISSUANCE_MS;
  for (;;) {
    const generation = pump.generation;
    const row = (await findIssuance(deps.db, productId))!;
    if (row.status === "minted") return row;
    if (row.status === "failed") {
      throw new ServiceUnavailableError(
        claimed ? "The chain did not accept the certificate; retry the same request." : "A concurrent issuance of this UID failed; retry the request.",
      );
    }
    if (Date.now() >= deadline) break;
    await pump.settledOrTimeout(Math.min(POLL_MS, deadline - Date.now()), generation);
  }
  // The claim stays: the mint goes on in the background, and a repeat of the request returns it once minted.
  throw new ServiceUnavailableError("The issuance of this UID is still in progress; retry the same request.");
}
