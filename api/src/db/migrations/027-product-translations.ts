// Issue 16: brand-provided translations of product names and descriptions (Bengali and English).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  void knex;
}

export async function down(knex: Knex): Promise<void> {
  void knex;
}
