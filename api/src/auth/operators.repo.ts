// SQL of operator accounts (factory operators and admins), who sign in with an email and a password.
import type { Knex } from "../db/knex";

export type OperatorAccountRow = { id: number; email: string; role: "admin" | "operator"; factory_id: string | null; password_hash: string };

/** The account of an email, compared case-insensitively. */
export async function findOperatorByEmail(db: Knex, email: string): Promise<OperatorAccountRow | undefined> {
  return db("app.operators").whereRaw("lower(email) = ?", [email.toLowerCase()]).first<OperatorAccountRow | undefined>();
}

export async function insertOperator(
  db: Knex,
  operator: { email: string; role: "admin" | "operator"; factoryId: number | null; passwordHash: string },
): Promise<void> {
  await db("app.operators").insert({ email: operator.email, role: operator.role, factory_id: operator.factoryId, password_hash: operator.passwordHash });
}

export async function updateOperatorPassword(db: Knex, email: string, passwordHash: string): Promise<void> {
  await db("app.operators").where({ email }).update({ password_hash: passwordHash });
}
