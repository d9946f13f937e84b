// Off-chain details of supply-chain events; the chain holds their keccak256 (detailsHash), so anyone can check them.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.withSchema("app").createTable("supply_chain_details", (t) => {
    t.text("details_hash").primary();
    t.jsonb("details").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.withSchema("app").dropTable("supply_chain_details");
}
