// Operator login: Argon2id verification behind a Postgres-backed brute-force throttle.
import type { Knex } from "../../db/knex";
import { randomBytes } from "node:crypto";
import { hashPassword, verifyPassword } from "../../auth/passwords";
import { createSession, TOKEN_LIFETIME_SECONDS } from "../../auth/sessions";
import { ACCOUNT_POLICY, assertNotLocked, clearFailures, CLIENT_POLICY, recordFailure, sleep } from "../../auth/throttle";
import { UnauthorizedError } from "../../errors";

// Verified when the email is unknown, so a wrong email costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword(randomBytes(16).toString("hex")));

export async function login(db: Knex, email: string, password: string, clientIp: string) {
  const normalised = email.trim().toLowerCase();
  const keys = [
    { key: `login:email:${normalised}`, policy: ACCOUNT_POLICY },
    { key: `login:ip:${clientIp}`, policy: CLIENT_POLICY },
  ];
  await assertNotLocked(db, keys.map((k) => k.key));
  const operator = await db("app.operators")
    .whereRaw("lower(email) = ?", [normalised])
    .first<{ id: number; email: string; role: "admin" | "operator"; factory_id: string | null; password_hash: string } | undefined>();
  const valid = await verifyPassword(operator?.password_hash ?? (await dummy()), password).catch(() => false);
  if (!operator || !valid) {
    const delayMs = await recordFailure(db, keys);
    await sleep(delayMs);
    throw new UnauthorizedError("Wrong email or password.");
  }
  await clearFailures(db, [keys[0]!.key]);
  const session = await createSession(db, operator.id);
  return {
    token: session.token,
    token_type: "Bearer" as const,
    expires_in: TOKEN_LIFETIME_SECONDS,
    expires_at: session.expiresAt.toISOString(),
    operator: { email: operator.email, role: operator.role, factory_id: operator.factory_id === null ? null : Number(operator.factory_id) },
  };
}
