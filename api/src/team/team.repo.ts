// SQL of brand users, their sessions and their single-use invitation and reset tokens.
import { compiledOnce, type Knex } from "../db/knex";
import type { Role } from "./roles";

export type BrandUserRow = {
  id: number;
  brand_id: number;
  email: string;
  name: string | null;
  role: Role;
  password_hash: string | null;
  created_at: Date;
  last_login_at: Date | null;
};

export type SessionUserRow = BrandUserRow & {
  csrf_token: string;
  expires_at: Date;
  idle_expires_at: Date;
  brand_slug: string;
  brand_name: string;
  brand_status: "active" | "suspended";
  brand_uid_prefix: string;
  brand_plan: string;
  brand_limit_overrides: Record<string, unknown> | null;
};

const USER_COLUMNS = ["u.id", "u.brand_id", "u.email", "u.name", "u.role", "u.password_hash", "u.created_at", "u.last_login_at"];

export function findUserByEmail(db: Knex, email: string): Promise<BrandUserRow | undefined> {
  return db("app.brand_users as u").whereRaw("lower(u.email) = ?", [email.toLowerCase()]).first<BrandUserRow | undefined>(USER_COLUMNS);
}

export function findUser(db: Knex, brandId: number, id: number): Promise<BrandUserRow | undefined> {
  return db("app.brand_users as u").where({ "u.brand_id": brandId, "u.id": id }).first<BrandUserRow | undefined>(USER_COLUMNS);
}

export function listUsers(db: Knex, brandId: number): Promise<BrandUserRow[]> {
  return db("app.brand_users as u").where("u.brand_id", brandId).orderBy("u.id").select<BrandUserRow[]>(USER_COLUMNS);
}

export async function countOwners(db: Knex, brandId: number): Promise<number> {
  const row = await db("app.brand_users").where({ brand_id: brandId, role: "owner" }).whereNotNull("password_hash").count<{ count: string }>("* as count").first();
  return Number(row?.count ?? 0);
}

export async function insertUser(db: Knex, user: { brandId: number; email: string; name: string | null; role: Role; passwordHash: string | null }): Promise<BrandUserRow> {
  const [row] = await db("app.brand_users")
    .insert({ brand_id: user.brandId, email: user.email, name: user.name, role: user.role, password_hash: user.passwordHash })
    .returning<BrandUserRow[]>(["id", "brand_id", "email", "name", "role", "password_hash", "created_at", "last_login_at"]);
  return row!;
}

export async function updateUser(db: Knex, id: number, patch: { role?: Role; passwordHash?: string; lastLoginAt?: Date; name?: string | null }): Promise<void> {
  const values: Record<string, unknown> = {};
  if (patch.role) values.role = patch.role;
  if (patch.passwordHash) values.password_hash = patch.passwordHash;
  if (patch.lastLoginAt) values.last_login_at = patch.lastLoginAt;
  if (patch.name !== undefined) values.name = patch.name;
  await db("app.brand_users").where("id", id).update(values);
}

export async function deleteUser(db: Knex, brandId: number, id: number): Promise<boolean> {
  return (await db("app.brand_users").where({ brand_id: brandId, id }).del()) > 0;
}

export async function insertSession(db: Knex, session: { tokenHash: Buffer; userId: number; csrfToken: string; expiresAt: Date; idleExpiresAt: Date }): Promise<void> {
  await db("app.brand_sessions").insert({
    token_hash: session.tokenHash,
    user_id: session.userId,
    csrf_token: session.csrfToken,
    expires_at: session.expiresAt,
    idle_expires_at: session.idleExpiresAt,
  });
  // Sessions that ended more than a day ago go as new ones start, so the table stays small without a sweeper.
  await db("app.brand_sessions").where("expires_at", "<", db.raw("now() - interval '1 day'")).orWhere("idle_expires_at", "<", db.raw("now() - interval '1 day'")).del();
}

/** The user of a live session (neither past its lifetime nor idle too long), with the brand it belongs to. */
export async function findSessionUser(db: Knex, tokenHash: Buffer): Promise<SessionUserRow | undefined> {
  return (await sessionUser(db, { tokenHash }))[0];
}

/** Built once (compiledOnce): every dashboard request runs it. */
const sessionUser = compiledOnce<SessionUserRow, "tokenHash">((db, param) =>
  db("app.brand_sessions as s")
    .join("app.brand_users as u", "u.id", "s.user_id")
    .join("app.brands as b", "b.id", "u.brand_id")
    .where("s.token_hash", param("tokenHash"))
    .where("s.expires_at", ">", db.fn.now())
    .where("s.idle_expires_at", ">", db.fn.now())
    .whereNotNull("u.password_hash")
    .limit(1)
    .select([...USER_COLUMNS, "s.csrf_token", "s.expires_at", "s.idle_expires_at", "b.slug as brand_slug", "b.name as brand_name", "b.status as brand_status", "b.uid_prefix as brand_uid_prefix", "b.plan as brand_plan", "b.limit_overrides as brand_limit_overrides"]),
);

/** Moves a session's idle deadline on, never past its lifetime. */
export async function touchSession(db: Knex, tokenHash: Buffer, idleExpiresAt: Date): Promise<void> {
  await db("app.brand_sessions").where("token_hash", tokenHash).update({ idle_expires_at: db.raw("least(?::timestamptz, expires_at)", [idleExpiresAt]) });
}

export async function deleteSession(db: Knex, tokenHash: Buffer): Promise<boolean> {
  return (await db("app.brand_sessions").where("token_hash", tokenHash).del()) > 0;
}

export async function deleteUserSessions(db: Knex, userId: number): Promise<number> {
  return db("app.brand_sessions").where("user_id", userId).del();
}

export async function insertToken(db: Knex, token: { tokenHash: Buffer; kind: "invite" | "reset"; userId: number; expiresAt: Date }): Promise<void> {
  // A new link of a kind replaces the unused ones: only the newest invitation or reset email works.
  await db("app.brand_user_tokens").where({ user_id: token.userId, kind: token.kind }).whereNull("used_at").del();
  await db("app.brand_user_tokens").insert({ token_hash: token.tokenHash, kind: token.kind, user_id: token.userId, expires_at: token.expiresAt });
}

/**
 * A password-reset link for the account of `email` (one that can sign in), replacing its unused ones, in one
 * statement that is the same whether or not there is such an account (or `issue` is false): a reset request does the
 * same work either way. Returns the address to mail the link to, or undefined when no link was made.
 */
export async function issueResetToken(db: Knex, reset: { email: string; tokenHash: Buffer; expiresAt: Date; issue: boolean }): Promise<string | undefined> {
  const { rows } = await db.raw<{ rows: Array<{ email: string }> }>(
    `WITH target AS (
       SELECT u.id, u.email FROM app.brand_users u
        WHERE lower(u.email) = :email AND u.password_hash IS NOT NULL AND :issue::boolean
     ), replaced AS (
       DELETE FROM app.brand_user_tokens t USING target
        WHERE t.user_id = target.id AND t.kind = 'reset' AND t.used_at IS NULL
     ), issued AS (
       INSERT INTO app.brand_user_tokens (token_hash, kind, user_id, expires_at)
       SELECT :tokenHash, 'reset', target.id, :expiresAt FROM target
       RETURNING user_id
     )
     SELECT target.email FROM issued JOIN target ON target.id = issued.user_id`,
    { email: reset.email.toLowerCase(), issue: reset.issue, tokenHash: reset.tokenHash, expiresAt: reset.expiresAt },
  );
  return rows[0]?.email;
}

/** Marks a live token used, in one conditional UPDATE so two uses of the same link cannot both succeed. */
export async function consumeToken(db: Knex, tokenHash: Buffer, kind: "invite" | "reset"): Promise<number | undefined> {
  const [row] = await db("app.brand_user_tokens")
    .where({ token_hash: tokenHash, kind })
    .whereNull("used_at")
    .where("expires_at", ">", db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning<Array<{ user_id: number }>>("user_id");
  return row?.user_id;
}

/** The user a live token belongs to, without using it up (to show the invitation before it is accepted). */
export function peekToken(db: Knex, tokenHash: Buffer, kind: "invite" | "reset"): Promise<(BrandUserRow & { brand_name: string }) | undefined> {
  return db("app.brand_user_tokens as t")
    .join("app.brand_users as u", "u.id", "t.user_id")
    .join("app.brands as b", "b.id", "u.brand_id")
    .where({ "t.token_hash": tokenHash, "t.kind": kind })
    .whereNull("t.used_at")
    .where("t.expires_at", ">", db.fn.now())
    .first([...USER_COLUMNS, "b.name as brand_name"]);
}
