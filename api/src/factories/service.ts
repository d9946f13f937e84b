// Factory reputation: the indexed registry and counters, scored by reputation.ts.
import type { Knex } from "../../db/knex";
import { NotFoundError } from "../../errors";
import { fromViews } from "../../onchain/views";
import { findFactory, listFactories, type FactoryRecord } from "./repo";
import { certificationsFromMask, reputationGrade, reputationScore } from "./reputation";

export type FactoryReputation = FactoryRecord & { score: number; grade: string; certifications: string[] };

export function withReputation(record: FactoryRecord, now = Date.now() / 1000): FactoryReputation {
  const score = reputationScore({ ...record, now });
  return { ...record, score, grade: reputationGrade(score), certifications: certificationsFromMask(record.certificationsMask) };
}

/** The reputation of a factory registered on chain; 404 for an id the registry does not know. */
export async function factoryReputation(db: Knex, schema: string, factoryId: number): Promise<FactoryReputation> {
  const record = await fromViews(() => findFactory(db, schema, factoryId));
  if (!record || !record.registered) throw new NotFoundError("Factory");
  return withReputation(record);
}

/** Every registry factory with its profile and reputation, for matching. */
export async function factoriesWithReputation(db: Knex, schema: string): Promise<FactoryReputation[]> {
  const now = Date.now() / 1000;
  return (await fromViews(() => listFactories(db, schema))).map((record) => withReputation(record, now));
}
