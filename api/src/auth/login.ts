// Operator login and logout: Argon2id verification behind a Postgres-backed brute-force throttle; revocable sessions.
import type { Knex } from "../db/knex";
import { randomBytes } from "node:crypto";
import { findOperatorByEmail } from "./operators.repo";
import { hashPassword, verifyPassword } from "./passwords";
import { createSession, revokeSessions, TOKEN_LIFETIME_SECONDS } from "./sessions";
import { ACCOUNT_POLICY, CLIENT_POLICY, PAIR_POLICY, reserveAttempt, settleSuccess, sleep } from "./throttle";
import { UnauthorizedError } from "../errors";

// Verified when the email is unknown, so a wrong email costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword(randomBytes(16).toString("hex")));

export async function login(db: Knex, email: string, password: string, clientIp: string) {
  const normalised = email.trim().toLowerCase();
  const pair = { key: `login:pair:${clientIp}:${normalised}`, policy: PAIR_POLICY };
  const client = { key: `login:ip:${clientIp}`, policy: CLIENT_POLICY };
  const account = { key: `login:email:${normalised}`, policy: ACCOUNT_POLICY };
  // Locks are per account and address, and per address: guesses from one address cannot lock the operator out at
  // another. The account as a whole is only slowed, and the delay comes before the check, so a guesser cannot cut
  // it short by reading an early answer.
  const delayMs = await reserveAttempt(db, [pair, client, account]);
  await sleep(delayMs);
  const operator = await findOperatorByEmail(db, normalised);
  const valid = await verifyPassword(operator?.password_hash ?? (await dummy()), password).catch(() => false);
  // A failure needs no more bookkeeping: the reserved attempt stays counted.
  if (!operator || !valid) throw new UnauthorizedError("Wrong email or password.");
  await settleSuccess(db, [pair.key, account.key], [client]);
  const session = await createSession(db, operator.id);
  return {
    token: session.token,
    token_type: "Bearer" as const,
    expires_in: TOKEN_LIFETIME_SECONDS,
    expires_at: session.expiresAt.toISOString(),
    operator: { email: operator.email, role: operator.role, factory_id: operator.factory_id === null ? null : Number(operator.factory_id) },
  };
}

/** Ends the session of `token`, or with `all` every session of its operator; false when the token is not live. */
export function logout(db: Knex, token: string, all: boolean): Promise<boolean> {
  return revokeSessions(db, token, all);
}
