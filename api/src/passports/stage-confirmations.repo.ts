// SQL of facilities' confirmations of their textile stages (app.stage_confirmations, migration 037): a row is claimed
// before its transaction is sent, so a stage is confirmed once however many requests race; its `tx_hash` is written in
// the database transaction that signs it (before the broadcast), and `confirmed_at` once it is mined. A row with a
// hash is never released or taken over: whoever asks next waits for that transaction rather than sending another.
import type { Knex } from "../db/knex";

export type StageConfirmationRow = {
  id: string;
  product_id: number;
  stage_hash: string;
  stage: string;
  factory_id: number;
  confirmed_by: "factory_operator" | "admin";
  details_hash: string;
  tx_hash: string | null;
  block_number: string | null;
  claimed_at: Date;
  confirmed_at: Date | null;
};

/** A confirmation as a passport's record shows it: the passport whose token holds it, and its details to recompute. */
export type ConfirmedStageRow = StageConfirmationRow & { uid: string; tx_hash: string; confirmed_at: Date; details: Record<string, unknown> };

export type StageClaim = Pick<StageConfirmationRow, "product_id" | "stage_hash" | "stage" | "factory_id" | "confirmed_by" | "details_hash">;

/** The new claim, or undefined when the stage has a row already (confirmed, or being confirmed). */
export async function claimStageConfirmation(db: Knex, claim: StageClaim): Promise<StageConfirmationRow | undefined> {
  const [row] = await db("app.stage_confirmations").insert(claim).onConflict(["product_id", "stage_hash"]).ignore().returning<StageConfirmationRow[]>("*");
  return row;
}

export async function findStageConfirmation(db: Knex, productId: number, stageHash: string): Promise<StageConfirmationRow | undefined> {
  return db("app.stage_confirmations").where({ product_id: productId, stage_hash: stageHash }).first<StageConfirmationRow | undefined>();
}

/**
 * Takes over a claim whose request ended without completing or releasing it (its process died) and that is older
 * than `staleAfterSeconds`; undefined when another request took it first or it was completed meanwhile.
 */
export async function takeOverStaleClaim(db: Knex, row: StageConfirmationRow, claim: StageClaim, staleAfterSeconds: number): Promise<StageConfirmationRow | undefined> {
  const [taken] = await db("app.stage_confirmations")
    .where({ id: row.id, tx_hash: null })
    .where("claimed_at", "<", db.raw("now() - make_interval(secs => ?)", [staleAfterSeconds]))
    .update({ ...claim, claimed_at: db.fn.now() })
    .returning<StageConfirmationRow[]>("*");
  return taken;
}

/**
 * Writes the signed transaction's hash on the claim, inside the ledger's signing transaction (ChainLedger.send's
 * `link`); false when the claim is no longer this request's (taken over as stale), and then nothing may be sent.
 */
export async function linkStageConfirmation(trx: Knex, id: string, detailsHash: string, txHash: string): Promise<boolean> {
  const updated = await trx("app.stage_confirmations").where({ id, details_hash: detailsHash, tx_hash: null }).update({ tx_hash: txHash });
  return updated === 1;
}

/** Records the receipt (its hash may be a fee bump's); the first completion's time stays. */
export async function completeStageConfirmation(db: Knex, id: string, mined: { tx_hash: string; block_number: number }): Promise<StageConfirmationRow> {
  const [row] = await db("app.stage_confirmations")
    .where({ id })
    .update({ tx_hash: mined.tx_hash, block_number: mined.block_number, confirmed_at: db.raw("coalesce(confirmed_at, now())") })
    .returning<StageConfirmationRow[]>("*");
  return row!;
}

/** Drops this request's claim when nothing was signed for it (no hash), so the stage can be confirmed again. */
export async function releaseStageConfirmation(db: Knex, id: string, detailsHash: string): Promise<void> {
  await db("app.stage_confirmations").where({ id, details_hash: detailsHash, tx_hash: null }).del();
}

/**
 * Drops a claim whose transaction the chain settled without the event: it reverted, or its nonce went to another
 * transaction and nothing redoes it. Only then may a claim with a hash go: that transaction can no longer be mined.
 */
export async function dropUnminedStageConfirmation(db: Knex, id: string, txHash: string): Promise<void> {
  await db("app.stage_confirmations").where({ id, tx_hash: txHash, confirmed_at: null }).del();
}

/** The completed confirmations recorded on these passports of a brand (by UID), with their details, oldest first. */
export async function listConfirmedStages(db: Knex, brandId: number, uids: string[]): Promise<ConfirmedStageRow[]> {
  if (uids.length === 0) return [];
  return db("app.stage_confirmations as c")
    .join("app.products as p", "p.id", "c.product_id")
    .leftJoin("app.supply_chain_details as d", "d.details_hash", "c.details_hash")
    .where("p.brand_id", brandId)
    .whereIn("p.uid", uids)
    .whereNotNull("c.confirmed_at")
    .orderBy("c.id")
    .select<ConfirmedStageRow[]>("c.*", "p.uid", "d.details");
}
