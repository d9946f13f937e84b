// Schema "app": the API's own tables. The indexer's tables live in other schemas and are read through views.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("CREATE SCHEMA IF NOT EXISTS app");
  // A schema builder accumulates statements, so each table gets a fresh one.
  const app = () => knex.schema.withSchema("app");

  await app().createTable("meta", (t) => {
    t.text("key").primary();
    t.jsonb("value").notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await app().createTable("brands", (t) => {
    t.increments("id").primary();
    t.text("slug").notNullable().unique();
    t.text("name").notNullable();
    t.text("uid_prefix").notNullable().unique();
    t.text("status").notNullable().defaultTo("active");
    t.text("plan").notNullable().defaultTo("enterprise");
    t.jsonb("limit_overrides").notNullable().defaultTo("{}");
    t.jsonb("branding").notNullable().defaultTo("{}");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE app.brands ADD CONSTRAINT brands_status_check CHECK (status IN ('active', 'suspended'))`);

  await app().createTable("api_keys", (t) => {
    t.increments("id").primary();
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    // The first characters of the key, shown in listings so an operator can tell keys apart.
    t.text("key_prefix").notNullable();
    // SHA-256 of the whole key: keys are 256-bit random values, so a fast hash is enough to keep them unreadable.
    t.binary("key_hash").notNullable().unique();
    t.text("label");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("revoked_at", { useTz: true });
    t.timestamp("last_used_at", { useTz: true });
    t.index(["brand_id"]);
  });

  await app().createTable("operators", (t) => {
    t.increments("id").primary();
    t.text("email").notNullable().unique();
    t.text("password_hash").notNullable();
    t.text("role").notNullable();
    t.bigInteger("factory_id");
    t.integer("failed_logins").notNullable().defaultTo(0);
    t.timestamp("locked_until", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE app.operators ADD CONSTRAINT operators_role_check CHECK (role IN ('admin', 'operator'))`);

  // The off-chain profile of a registry factory; its keccak256 is anchored on chain as the factory's metadata hash.
  await app().createTable("factory_profiles", (t) => {
    t.bigInteger("factory_id").primary();
    t.text("name").notNullable();
    t.text("city").notNullable();
    t.specificType("country", "char(2)").notNullable();
    t.specificType("certifications", "text[]").notNullable().defaultTo("{}");
    t.specificType("product_types", "text[]").notNullable().defaultTo("{}");
    t.integer("capacity_units_per_month").notNullable();
    t.integer("min_order_units").notNullable();
    t.integer("lead_time_days").notNullable();
    t.text("description").notNullable().defaultTo("");
    t.text("metadata_hash").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await app().createTable("products", (t) => {
    t.increments("id").primary();
    t.integer("brand_id").notNullable().references("id").inTable("app.brands").onDelete("CASCADE");
    t.text("uid").notNullable().unique();
    t.text("sku").notNullable();
    t.text("name").notNullable();
    t.text("category").notNullable();
    t.text("fabric_type");
    t.decimal("price", 14, 2).notNullable();
    t.text("description");
    t.bigInteger("factory_id");
    t.jsonb("fiber_composition").notNullable().defaultTo("[]");
    t.jsonb("certifications").notNullable().defaultTo("[]");
    t.text("care_instructions").notNullable().defaultTo("");
    t.specificType("country_of_manufacture", "char(2)");
    t.decimal("carbon_kg", 10, 3).notNullable();
    t.specificType("carbon_rating", "char(1)").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["brand_id", "created_at"]);
  });

  // Issuance of a product's passport on chain. One row per product: issuance is idempotent per UID.
  await app().createTable("passports", (t) => {
    t.integer("product_id").primary().references("id").inTable("app.products").onDelete("CASCADE");
    t.text("token_id").notNullable().unique();
    t.text("data_hash").notNullable();
    t.text("status").notNullable();
    t.integer("chain_id").notNullable();
    t.text("contract_address").notNullable();
    t.text("tx_hash");
    t.integer("nonce");
    t.bigInteger("block_number");
    t.text("error");
    t.timestamp("requested_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("minted_at", { useTz: true });
  });
  await knex.raw(
    `ALTER TABLE app.passports ADD CONSTRAINT passports_status_check CHECK (status IN ('pending', 'minted', 'failed'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP SCHEMA IF EXISTS app CASCADE");
}
