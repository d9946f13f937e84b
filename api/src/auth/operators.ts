// Operator accounts (factory operators and admins), who sign in with an email and a password (login.ts).
import type { Knex } from "../db/knex";
import { findOperatorByEmail, insertOperator, updateOperatorPassword } from "./operators.repo";
import { hashPassword } from "./passwords";

export type NewOperator = { email: string; role: "admin" | "operator"; factoryId: number | null; password: string };

export async function operatorExists(db: Knex, email: string): Promise<boolean> {
  return (await findOperatorByEmail(db, email)) !== undefined;
}

/** Creates the account; the password is stored only as its Argon2id hash. */
export async function createOperator(db: Knex, operator: NewOperator): Promise<void> {
  await insertOperator(db, { email: operator.email, role: operator.role, factoryId: operator.factoryId, passwordHash: await hashPassword(operator.password) });
}

export async function setOperatorPassword(db: Knex, email: string, password: string): Promise<void> {
  await updateOperatorPassword(db, email, await hashPassword(password));
}
