// SQL of a brand's payment gateway credentials (app.gateway_credentials): encrypted JSON, masked hints, the switch.
import type { Knex } from "../db/knex";
import type { PaymentMethod } from "../plans/catalogue";

export type CredentialRow = {
  method: PaymentMethod;
  /** AES-256-GCM ciphertext of the credentials' JSON (orders/gateway-keys.ts); null for Cash QR. */
  ciphertext: string | null;
  hints: Record<string, string>;
  enabled: boolean;
  checked_at: Date | null;
  updated_at: Date;
};

const COLUMNS = ["method", "ciphertext", "hints", "enabled", "checked_at", "updated_at"];

export async function listCredentialRows(db: Knex, brandId: number): Promise<CredentialRow[]> {
  return db("app.gateway_credentials").where({ brand_id: brandId }).select<CredentialRow[]>(COLUMNS);
}

export async function findCredentialRow(db: Knex, brandId: number, method: PaymentMethod): Promise<CredentialRow | undefined> {
  return db("app.gateway_credentials").where({ brand_id: brandId, method }).first<CredentialRow | undefined>(COLUMNS);
}

/** Creates or replaces one method's row: its switch, its encrypted credentials (null for Cash QR) and their hints. */
export async function upsertCredentialRow(
  trx: Knex,
  brandId: number,
  method: PaymentMethod,
  row: { enabled: boolean; ciphertext: string | null; hints: Record<string, string>; checked: boolean },
): Promise<void> {
  const values = { enabled: row.enabled, ciphertext: row.ciphertext, hints: JSON.stringify(row.hints), checked_at: row.checked ? trx.fn.now() : null, updated_at: trx.fn.now() };
  await trx("app.gateway_credentials")
    .insert({ brand_id: brandId, method, ...values })
    .onConflict(["brand_id", "method"])
    .merge(Object.keys(values));
}

/** Switches a configured method on or off; false when it has no row. */
export async function updateCredentialSwitch(trx: Knex, brandId: number, method: PaymentMethod, enabled: boolean): Promise<boolean> {
  return (await trx("app.gateway_credentials").where({ brand_id: brandId, method }).update({ enabled, updated_at: trx.fn.now() })) > 0;
}

export async function deleteCredentialRow(trx: Knex, brandId: number, method: PaymentMethod): Promise<boolean> {
  return (await trx("app.gateway_credentials").where({ brand_id: brandId, method }).delete()) > 0;
}
