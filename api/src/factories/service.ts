// Factories: their off-chain profiles, and their reputation from the indexed registry and counters (reputation.ts).
import type { Knex } from "../db/knex";
import { NotFoundError } from "../errors";
import { fromViews } from "../onchain/views";
import { dataHashOf } from "../passports/content";
import { findFactory, listFactories, upsertFactoryProfile, type FactoryRecord } from "./factories.repo";
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

/** A factory's off-chain profile, as POST /api/factories takes it. */
export type FactoryProfileInput = {
  factory_id: number;
  name: string;
  city: string;
  country: string;
  certifications?: string[];
  product_types?: string[];
  capacity_units_per_month: number;
  min_order_units: number;
  lead_time_days: number;
  description?: string;
};

/**
 * Stores a factory's off-chain profile, created or replaced, and returns its metadata hash: keccak256 of the
 * profile's canonical JSON, which the registry anchors on chain, so anyone can check the profile against it.
 */
export async function saveFactoryProfile(db: Knex, input: FactoryProfileInput): Promise<string> {
  const profile = {
    factory_id: input.factory_id,
    name: input.name,
    city: input.city,
    country: input.country,
    certifications: input.certifications ?? [],
    product_types: input.product_types ?? [],
    capacity_units_per_month: input.capacity_units_per_month,
    min_order_units: input.min_order_units,
    lead_time_days: input.lead_time_days,
    description: input.description ?? "",
  };
  const metadataHash = dataHashOf(profile);
  // Only these columns are written, so a factory's GLN and Open Supply Hub id (facility-ids.ts, outside the hashed
  // profile) survive a profile being saved again.
  await upsertFactoryProfile(db, { ...profile, metadata_hash: metadataHash });
  return metadataHash;
}
