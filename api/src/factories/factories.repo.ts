// SQL for factories: the indexer's registry views joined with the off-chain profiles in schema app.
import { compiledOnce, type Knex } from "../db/knex";

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

/** The columns of a FactoryRecord; `id` names the expression that holds the factory id. */
function columns(db: Knex, id: string) {
  return [
    db.raw(`${id}::text as factory_id`),
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
  ];
}

function query(db: Knex, schema: string) {
  // Every factory known either on chain or by profile; a full join keeps both sides.
  return db
    .from(db.raw("??.factory as f", [schema]))
    .fullOuterJoin("app.factory_profiles as p", "p.factory_id", "f.factory_id")
    .leftJoin(db.raw("??.factory_stats as s on s.factory_id = coalesce(f.factory_id, p.factory_id)", [schema]))
    .select(columns(db, "coalesce(f.factory_id, p.factory_id)"));
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
  return (await findFactories(db, schema, [factoryId]))[0];
}

/**
 * The factories of `factoryIds` known on chain or by profile, in one query. The ids drive the joins, so each side is
 * read by its key; filtering the full join of `query` by id would read every factory of both sides first.
 */
export async function findFactories(db: Knex, schema: string, factoryIds: number[]): Promise<FactoryRecord[]> {
  if (factoryIds.length === 0) return [];
  return (await factoriesByIds(db, { ids: factoryIds }, schema)).map(toRecord);
}

/** Built once per schema of the views (compiledOnce): every public read of a passport runs it. */
const factoriesByIds = compiledOnce<Row, "ids">((db, param, schema) =>
  db
    .from(db.raw("unnest(?::bigint[]) as ids(id)", [param("ids")]))
    .leftJoin(db.raw("??.factory as f on f.factory_id = ids.id", [schema]))
    .leftJoin("app.factory_profiles as p", "p.factory_id", "ids.id")
    .leftJoin(db.raw("??.factory_stats as s on s.factory_id = ids.id", [schema]))
    .whereRaw("(f.factory_id is not null or p.factory_id is not null)")
    .select(columns(db, "ids.id")),
);

export async function listFactories(db: Knex, schema: string): Promise<FactoryRecord[]> {
  const rows = await query(db, schema).orderByRaw("1");
  return (rows as Row[]).map(toRecord);
}

export async function factoryProfileExists(db: Knex, factoryId: number): Promise<{ country: string } | undefined> {
  return db("app.factory_profiles").where({ factory_id: factoryId }).first<{ country: string } | undefined>("country");
}

/** Creates or replaces a factory's off-chain profile. */
export async function upsertFactoryProfile(db: Knex, profile: Record<string, unknown> & { factory_id: number; metadata_hash: string }): Promise<void> {
  await db("app.factory_profiles").insert(profile).onConflict("factory_id").merge();
}
