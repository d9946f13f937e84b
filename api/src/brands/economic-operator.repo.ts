// SQL of a brand's economic operator identifier (app.brands.economic_operator_id, migration 033).
import type { Knex } from "../db/knex";

export async function findEconomicOperatorId(db: Knex, brandId: number): Promise<string | null> {
  const row = await db("app.brands").where({ id: brandId }).first<{ economic_operator_id: string | null } | undefined>("economic_operator_id");
  return row?.economic_operator_id ?? null;
}

/**
 * The stored identifier, read under a row lock held until the transaction ends, so two saves at once each audit the
 * value they really replaced. FOR NO KEY UPDATE: rows referencing the brand still pass their foreign-key checks.
 */
export async function lockEconomicOperatorId(trx: Knex, brandId: number): Promise<string | null> {
  const row = await trx("app.brands").where({ id: brandId }).forNoKeyUpdate().first<{ economic_operator_id: string | null } | undefined>("economic_operator_id");
  return row?.economic_operator_id ?? null;
}

export async function updateEconomicOperatorId(trx: Knex, brandId: number, value: string | null): Promise<void> {
  await trx("app.brands").where({ id: brandId }).update({ economic_operator_id: value });
}
