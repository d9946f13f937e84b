// A facility confirms its own processing stage of a passport's textile section (issue 26). The brand declares who ran
// each stage (`textile.stages`, in its anchored content); the operator of the registry factory that the stage's
// facility names (by registry id, GLN or Open Supply Hub id) confirms it. The confirmation is a supply-chain event on
// the passport's token, sent from the shared wallet and attributed to that factory, whose details (the stage as
// declared, the content hash it was declared in) are kept off chain by their hash, as every step's are. It is an
// attestation beside the brand's content, not part of it: docs/textile.md says why.
import type { ContractTransactionResponse } from "ethers";
import type { Operator } from "../auth/sessions";
import type { Contracts } from "../chain/contracts";
import type { Knex } from "../db/knex";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { SUPPLY_CHAIN_STAGES } from "../generated/contract-constants";
import { dataHashOf, passportContentFor, tokenIdOf } from "../passports/content";
import {
  claimStageConfirmation,
  completeStageConfirmation,
  findStageConfirmation,
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

/** What a confirmation needs: the database, the two contracts, and a way to send one shared-wallet transaction. */
export type StageConfirmationDeps = {
  db: Knex;
  contracts: Pick<Contracts, "passport" | "registry">;
  /** Sends a transaction from the shared wallet and resolves once it is mined (chain/transactions.ts sendAndConfirm). */
  send: (submit: () => Promise<ContractTransactionResponse>) => Promise<{ tx_hash: string; block_number: number }>;
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
 * A claim older than this whose request never completed it (its process died while sending) may be taken over. It
 * is longer than any receipt wait, so a live request is never overtaken.
 */
const STALE_CLAIM_SECONDS = 300;

/**
 * Confirms stage `input.stage` of passport `input.uid` for factory `factoryId`: 403 unless that stage's facility is
 * this factory (an admin may act for any factory, but never confirm a stage for a factory it does not name), 404 for
 * a stage the passport does not declare, 409 before the passport is minted. A stage already confirmed returns its
 * first confirmation (idempotent: no second transaction); a stage whose confirmation is in flight is a 409.
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
  const ids = await findFacilityIds(deps.db, factoryId);
  const mine = named.filter(({ entry }) => facilityIsFactory(entry.facility, { factoryId, gln: ids?.gln ?? null, osId: ids?.os_id ?? null }));
  if (mine.length === 0) {
    throw new ForbiddenError(
      `Stage ${input.stage} of passport ${product.uid} names ${named.map(({ entry }) => describeFacility(entry.facility)).join(" and ")} as its facility, ` +
        `not factory ${factoryId}: a factory confirms only a stage whose facility is itself (by registry id, GLN or Open Supply Hub id).`,
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

  let row = await claimStageConfirmation(deps.db, claim);
  if (!row) {
    const existing = await findStageConfirmation(deps.db, product.id, claim.stage_hash);
    if (existing?.tx_hash) return resultOf(product.uid, tokenId, index, stageCode, existing, false);
    row = existing ? await takeOverStaleClaim(deps.db, existing, claim, STALE_CLAIM_SECONDS) : undefined;
    if (!row) throw new ConflictError(`Stage ${entry.stage} of passport ${product.uid} is being confirmed by another request; ask again in a minute.`);
  }
  try {
    await saveSupplyChainDetails(deps.db, claim.details_hash, details);
    const sent = await deps.send(() => deps.contracts.passport.recordSupplyChainEvent(tokenId, factoryId, stageCode, claim.details_hash));
    const done = await completeStageConfirmation(deps.db, row.id, sent);
    // The maker confirming its own making-up is the maker confirming it made the product.
    await confirmMaker(deps.db, product.id, factoryId);
    return resultOf(product.uid, tokenId, index, stageCode, done, true);
  } catch (error) {
    await releaseStageConfirmation(deps.db, row.id);
    throw error;
  }
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
