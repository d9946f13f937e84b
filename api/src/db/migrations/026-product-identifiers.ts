// Issue 16: GS1 identifiers of a product (GTIN, serial, lot) for the Digital Link resolver.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  void knex;
}

export async function down(knex: Knex): Promise<void> {
  void knex;
}
