// SQL of a factory's facility identifiers (app.factory_profiles.gln and os_id, migration 033).
import type { Knex } from "../db/knex";

export type FacilityIdsRow = { gln: string | null; os_id: string | null };

/** The identifiers of a factory with a profile; undefined when it has none. */
export async function findFacilityIds(db: Knex, factoryId: number): Promise<FacilityIdsRow | undefined> {
  return db("app.factory_profiles").where({ factory_id: factoryId }).first<FacilityIdsRow | undefined>("gln", "os_id");
}

/** Updates the columns given; the stored identifiers afterwards, or undefined when the factory has no profile. */
export async function updateFacilityIds(db: Knex, factoryId: number, patch: Partial<FacilityIdsRow>): Promise<FacilityIdsRow | undefined> {
  const [row] = await db("app.factory_profiles").where({ factory_id: factoryId }).update(patch).returning<FacilityIdsRow[]>(["gln", "os_id"]);
  return row;
}
