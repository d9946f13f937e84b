// SQL for factories: the indexer's registry views joined with the off-chain profiles in schema app.
import type { Knex } from "../../db/knex";

export type FactoryRecord = {
  factoryId: number;
  name: string | null;
  city: string | null;
  country: string | null;
  profileCertifications: string[];
  productTypes: string[];
  capacityUnitsPerMonth: number | null;
  minOrderUnits: number | null;
  leadTimeDays: number | null;
  /** Registered on chain (a row in the registry view). */
  registered: boolean;
  verified: boolean;
  certificationsMask: number;
  onChainEvents: number;
  passportsMinted: number;
  supplyChainEvents: number;
  lastActivityAt: number | undefined;
};

type Row = {
  factory_id: string;
  name: string | null;
  city: string | null;
  country: string | null;
  profile_certifications: string[] | null;
  product_types: string[] | null;
  capacity_units_per_month: number | null;
  min_order_units: number | null;
  lead_time_days: number | null;
  registered: boolean;
  verified: boolean | null;
  certifications_mask: number | null;
  on_chain_events: number | null;
  passports_minted: number | null;
  supply_chain_events: number | null;
  last_activity_at: string | null;
};

function query(db: Knex, schema: string) {
  // Every factory known either on chain or by profile; a full join keeps both sides.
  return db
    .from(db.raw("??.factory as f", [schema]))
    .fullOuterJoin("app.factory_profiles as p", "p.factory_id", "f.factory_id")
    .leftJoin(db.raw("??.factory_stats as s on s.factory_id = coalesce(f.factory_id, p.factory_id)", [schema]))
    .select(
      db.raw("coalesce(f.factory_id, p.factory_id)::text as factory_id"),
      "p.name",
      "p.city",
      db.raw("coalesce(p.country, f.country) as country"),
      "p.certifications as profile_certifications",
      "p.product_types",
      "p.capacity_units_per_month",
      "p.min_order_units",
      "p.lead_time_days",
      db.raw("f.factory_id is not null as registered"),
      "f.verified",
      "f.certifications_mask",
      "s.on_chain_events",
      "s.passports_minted",
      "s.supply_chain_events",
      "s.last_activity_at",
    );
}

function toRecord(row: Row): FactoryRecord {
  return {
    factoryId: Number(row.factory_id),
    name: row.name,
    city: row.city,
    country: row.country?.trim() ?? null,
    profileCertifications: row.profile_certifications ?? [],
    productTypes: row.product_types ?? [],
    capacityUnitsPerMonth: row.capacity_units_per_month,
    minOrderUnits: row.min_order_units,
    leadTimeDays: row.lead_time_days,
    registered: row.registered,
    verified: row.verified ?? false,
    certificationsMask: row.certifications_mask ?? 0,
    onChainEvents: row.on_chain_events ?? 0,
    passportsMinted: row.passports_minted ?? 0,
    supplyChainEvents: row.supply_chain_events ?? 0,
    lastActivityAt: row.last_activity_at === null ? undefined : Number(row.last_activity_at),
  };
}

export async function findFactory(db: Knex, schema: string, factoryId: number): Promise<FactoryRecord | undefined> {
  const row = await query(db, schema)
    .where((q) => q.where("f.factory_id", factoryId).orWhere("p.factory_id", factoryId))
    .first<Row | undefined>();
  return row ? toRecord(row) : undefined;
}

export async function listFactories(db: Knex, schema: string): Promise<FactoryRecord[]> {
  const rows = await query(db, schema).orderByRaw("1");
  return (rows as Row[]).map(toRecord);
}
