// A facility confirms its own processing stage of a passport's textile section (issue 26). The brand declares who ran
// each stage (`textile.stages`, in its anchored content); the operator of the registry factory that the stage's
// facility names by its registry id confirms it (a GLN or Open Supply Hub id is not proof: passports/textile.ts).
// The confirmation is a supply-chain event on the passport's token, sent from the shared wallet and attributed to that
// factory, whose details (the stage as declared, the content hash it was declared in) are kept off chain by their
// hash, as every step's are. It is an attestation beside the brand's content, not part of it: docs/textile.md says
// why. It is sent at most once: its hash is written on the claim in the ledger transaction that signs it, and a later
// request waits for that transaction.
import type { Operator } from "../auth/sessions";
import type { Contracts } from "../chain/contracts";
import { LedgerSuperseded, LedgerWaitTimeout, type ChainLedger } from "../chain/ledger";
import { purposeOf } from "../chain/signer";
import type { Knex } from "../db/knex";
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError, ValidationError } from "../errors";
import { SUPPLY_CHAIN_STAGES } from "../generated/contract-constants";
import { dataHashOf, passportContentFor, tokenIdOf } from "../passports/content";
import {
  claimStageConfirmation,
  completeStageConfirmation,
  dropUnminedStageConfirmation,
  findStageConfirmation,
  linkStageConfirmation,
  releaseStageConfirmation,
  takeOverStaleClaim,
  type StageClaim,
  type StageConfirmationRow,
} from "../passports/stage-confirmations.repo";
import { saveSupplyChainDetails } from "../passports/supply-chain.repo";
import { CHAIN_STAGE_OF, facilityIsFactory, type FacilityRef, type TextileStage } from "../passports/textile";
import { confirmMaker, findProductByUid } from "../products/products.repo";
import { findFacilityIds } from "./facility-ids.repo";
import { assertActsFor } from "./operations";

/** What a confirmation needs: the database, the two contracts, and the shared wallet's ledger to send through. */
export type StageConfirmationDeps = {
  db: Knex;
  contracts: Pick<Contracts, "passport" | "registry">;
  /** Signs and records the transaction, linking its hash to the claim in the same database transaction (chain/ledger.ts). */
  ledger: Pick<ChainLedger, "send" | "findByHash" | "wait">;
  /** How long a request waits for the receipt (config.chainLedger.receiptWaitMs); then a 503, and the next request waits again. */
  receiptWaitMs: number;
};

export type ConfirmStageInput = { uid: string; stage: TextileStage; index?: number };

export type StageConfirmationResult = {
  uid: string;
  token_id: string;
  stage: string;
  index: number;
  factory_id: number;
  confirmed_by: "factory_operator" | "admin";
  stage_code: number;
  details_hash: string;
  tx_hash: string;
  block_number: number;
  confirmed_at: string;
  /** False when the stage was confirmed before: the answer is that first confirmation. */
  created: boolean;
};

/**
 * A claim with no hash older than this (its request died before signing) may be taken over. A claim with a hash is
 * never taken over: its transaction may be on the wire.
 */
const STALE_CLAIM_SECONDS = 300;

/**
 * Confirms stage `input.stage` of passport `input.uid` for factory `factoryId`: 403 unless that stage's facility is
 * this factory (an admin may act for any factory, but never confirm a stage for a factory it does not name), 404 for
 * a stage the passport does not declare, 409 before the passport is minted. A stage already confirmed returns its
 * first confirmation (idempotent: no second transaction); one whose transaction was sent is awaited, not sent again; one
 * being claimed by another request (nothing signed yet) is a 409.
 */
export async function confirmTextileStage(
  deps: StageConfirmationDeps,
  operator: Pick<Operator, "role" | "factory_id">,
  factoryId: number,
  input: ConfirmStageInput,
): Promise<StageConfirmationResult> {
  assertActsFor(operator, factoryId);
  if (!(await deps.contracts.registry.isRegistered(factoryId))) throw new NotFoundError("Factory");
  const product = await findProductByUid(deps.db, input.uid);
  if (!product) throw new NotFoundError("Product");
  const content = passportContentFor(product);

  const declared = (content.textile?.stages ?? []).map((entry, index) => ({ entry, index }));
  const named = declared.filter(({ entry, index }) => entry.stage === input.stage && (input.index === undefined || input.index === index));
  if (named.length === 0) {
    const where = input.index === undefined ? "" : ` at index ${input.index}`;
    throw new NotFoundError(`Stage ${input.stage}${where} of passport ${product.uid}`);
  }
  const mine = named.filter(({ entry }) => facilityIsFactory(entry.facility, factoryId));
  if (mine.length === 0) {
    const facilities = named.map(({ entry }) => describeFacility(entry.facility)).join(" and ");
    const ids = await findFacilityIds(deps.db, factoryId);
    const byOwnIdentifier = named.some(({ entry: { facility } }) => (facility.id?.scheme === "gln" && facility.id.value === ids?.gln) || (facility.id?.scheme === "osh" && facility.id.value === ids?.os_id));
    throw new ForbiddenError(
      byOwnIdentifier
        ? `Stage ${input.stage} of passport ${product.uid} names ${facilities} as its facility, by an identifier factory ${factoryId} has set as its own, ` +
            `but nothing verifies a GLN or Open Supply Hub id: the brand must name the facility by its registry id (registry:${factoryId}) for the factory to confirm the stage.`
        : `Stage ${input.stage} of passport ${product.uid} names ${facilities} as its facility, ` +
            `not factory ${factoryId}: a factory confirms only a stage whose facility names it by its registry id.`,
    );
  }
  if (mine.length > 1) {
    throw new ValidationError([{ field: "index", problem: `is required: factory ${factoryId} runs stage ${input.stage} ${mine.length} times in this passport (at indexes ${mine.map((m) => m.index).join(", ")})` }]);
  }
  const { entry, index } = mine[0]!;
  const tokenId = tokenIdOf(product.uid);
  if (!(await deps.contracts.passport.exists(tokenId))) throw new ConflictError(`Product ${product.uid} has no passport on chain yet; its brand issues it first.`);

  const stageCode = SUPPLY_CHAIN_STAGES.find((s) => s.name === CHAIN_STAGE_OF[entry.stage])!.code;
  const confirmedBy = operator.role === "admin" ? ("admin" as const) : ("factory_operator" as const);
  // What the chain's detailsHash commits to: who confirms which stage, as the brand declared it in which content.
  const details = {
    kind: "textile_stage_confirmation",
    uid: product.uid,
    factory_id: factoryId,
    stage: stageCode,
    textile_stage: entry.stage,
    stage_index: index,
    declared: entry,
    content_hash: dataHashOf(content),
    confirmed_by: confirmedBy,
    recorded_at: new Date().toISOString(),
  };
  const claim: StageClaim = { product_id: product.id, stage_hash: dataHashOf(entry), stage: entry.stage, factory_id: factoryId, confirmed_by: confirmedBy, details_hash: dataHashOf(details) };

  // The maker confirming its own making-up is the maker confirming it made the product; another stage it runs is not.
  const settled = async (done: StageConfirmationRow) => {
    if (entry.stage === "making_up") await confirmMaker(deps.db, product.id, factoryId);
    return done;
  };

  let row = await claimStageConfirmation(deps.db, claim);
  if (!row) {
    const existing = await findStageConfirmation(deps.db, product.id, claim.stage_hash);
    if (existing?.confirmed_at) return resultOf(product.uid, tokenId, index, stageCode, existing, false);
    // Sent before (by a request that timed out or died): wait for that transaction, never send a second one.
    if (existing?.tx_hash) return resultOf(product.uid, tokenId, index, stageCode, await settled(await awaitReceipt(deps, existing)), false);
    row = existing ? await takeOverStaleClaim(deps.db, existing, claim, STALE_CLAIM_SECONDS) : undefined;
    if (!row) throw new ConflictError(`Stage ${entry.stage} of passport ${product.uid} is being confirmed by another request; ask again in a minute.`);
  }
  const claimId = row.id;
  let txHash: string;
  try {
    await saveSupplyChainDetails(deps.db, claim.details_hash, details);
    const { passport } = deps.contracts;
    const args: [string, number, number, string] = [tokenId, factoryId, stageCode, claim.details_hash];
    // Estimated first, as the shared wallet's signer does: a call the contract refuses fails here and nothing is signed.
    const gasLimit = await passport.recordSupplyChainEvent.estimateGas(...args);
    const data = passport.interface.encodeFunctionData("recordSupplyChainEvent", args);
    const call = { purpose: purposeOf(data), to: await passport.getAddress(), data, gasLimit };
    const sent = await deps.ledger.send(async () => ({
      call,
      link: async (trx, ledgerRow) => {
        if (!(await linkStageConfirmation(trx, claimId, claim.details_hash, ledgerRow.tx_hash))) {
          throw new ConflictError(`Stage ${entry.stage} of passport ${product.uid} is being confirmed by another request; ask again in a minute.`);
        }
      },
    }));
    txHash = sent!.tx_hash;
  } catch (error) {
    // Nothing was signed (the hash is written in the signing transaction, which rolled back): the stage is free again.
    await releaseStageConfirmation(deps.db, claimId, claim.details_hash);
    throw error;
  }
  const done = await awaitReceipt(deps, { ...row, tx_hash: txHash });
  return resultOf(product.uid, tokenId, index, stageCode, await settled(done), true);
}

/**
 * Waits for the receipt of the claim's transaction (following a fee bump or a redo, as the ledger does) and completes
 * the claim. A late receipt is a 503 and the claim stays, so the next request waits for the same transaction; only a
 * transaction the chain settled without the event (reverted, or its nonce taken and not redone) frees the stage.
 */
async function awaitReceipt(deps: StageConfirmationDeps, row: StageConfirmationRow): Promise<StageConfirmationRow> {
  const txHash = row.tx_hash!;
  const ledgerRow = await deps.ledger.findByHash(txHash);
  if (!ledgerRow) throw new Error(`stage confirmation ${row.id}: transaction ${txHash} is not in the ledger`);
  let receipt;
  try {
    receipt = await deps.ledger.wait(ledgerRow.id, { timeoutMs: deps.receiptWaitMs });
  } catch (error) {
    if (error instanceof LedgerWaitTimeout) {
      throw new ServiceUnavailableError(`Transaction ${txHash} was sent but not confirmed in time; ask again: the same transaction is awaited, none is sent again.`);
    }
    if (error instanceof LedgerSuperseded) {
      await dropUnminedStageConfirmation(deps.db, row.id, txHash);
      throw new ServiceUnavailableError(`Transaction ${txHash} was replaced on chain before it was mined; ask again to send the confirmation anew.`);
    }
    throw error;
  }
  if (receipt.status !== 1) {
    await dropUnminedStageConfirmation(deps.db, row.id, txHash);
    throw new ServiceUnavailableError(`Transaction ${receipt.hash} failed on chain; ask again to send the confirmation anew.`);
  }
  return completeStageConfirmation(deps.db, row.id, { tx_hash: receipt.hash, block_number: receipt.blockNumber });
}

function describeFacility(facility: FacilityRef): string {
  return facility.id ? `"${facility.name}" (${facility.id.scheme} ${facility.id.value})` : `"${facility.name}" (no identifier)`;
}

function resultOf(uid: string, tokenId: string, index: number, stageCode: number, row: StageConfirmationRow, created: boolean): StageConfirmationResult {
  return {
    uid,
    token_id: tokenId,
    stage: row.stage,
    index,
    factory_id: Number(row.factory_id),
    confirmed_by: row.confirmed_by,
    stage_code: stageCode,
    details_hash: row.details_hash,
    tx_hash: row.tx_hash!,
    block_number: Number(row.block_number),
    confirmed_at: row.confirmed_at!.toISOString(),
    created,
  };
}
