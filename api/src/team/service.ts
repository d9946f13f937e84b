// Brand dashboard accounts: sign-in with a cookie session, invitations and password resets by emailed link, and the
// team's roles. No Koa here: the dashboard routes (routes/dashboard/) and the operator CLI are adapters over it.
import { createHash, randomBytes } from "node:crypto";
import type { BrandContext } from "../brands/service";
import type { Config } from "../config";
import type { Knex } from "../db/knex";
import { ConflictError, ForbiddenError, NotFoundError, RateLimitError, UnauthorizedError, ValidationError } from "../errors";
import { dashboardUrl } from "../links";
import type { Mailer } from "../mail/mailer";
import { effectiveLimits } from "../plans/catalogue";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { ACCOUNT_POLICY, CLIENT_POLICY, PAIR_POLICY, reserveAttempt, settleSuccess, sleep, type ThrottlePolicy } from "../auth/throttle";
import { recordAudit, type Actor } from "../audit/service";
import { mayManageRole, type Role } from "./roles";
import * as repo from "./team.repo";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
export const EMAIL_MAX = 254;
export const INVITE_HOURS = 72;
export const RESET_MINUTES = 60;

/** The signed-in user a dashboard request acts as, with the brand they belong to. */
export type SessionUser = {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  brand: BrandContext;
  csrfToken: string;
  expiresAt: Date;
  /** Hash of the session's cookie value, to end this session. */
  sessionHash: Buffer;
};

export type NewSession = { token: string; csrfToken: string; expiresAt: Date; user: SessionUser };

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest();
const newToken = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;
const normalise = (email: string) => email.trim().toLowerCase();

let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword(randomBytes(16).toString("hex")));

/** Problems with a new password: length, and not the email itself. */
export function passwordProblems(password: string, email: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  if (password.trim().toLowerCase() === email.toLowerCase()) return "must not be your email address";
  return undefined;
}

/**
 * Signs a user in. The same throttle as operator logins (per account and address, per address, account-wide
 * slow-down), under its own keys; a wrong email costs the same time as a wrong password.
 */
export async function signIn(db: Knex, config: Config, email: string, password: string, clientIp: string): Promise<NewSession> {
  const normalised = normalise(email);
  const pair = { key: `dashboard:pair:${clientIp}:${normalised}`, policy: PAIR_POLICY };
  const client = { key: `dashboard:ip:${clientIp}`, policy: CLIENT_POLICY };
  const account = { key: `dashboard:email:${normalised}`, policy: ACCOUNT_POLICY };
  await sleep(await reserveAttempt(db, [pair, client, account]));
  const user = await repo.findUserByEmail(db, normalised);
  const valid = await verifyPassword(user?.password_hash ?? (await dummy()), password).catch(() => false);
  if (!user || !user.password_hash || !valid) throw new UnauthorizedError("Wrong email or password.");
  await settleSuccess(db, [pair.key, account.key], [client]);
  await repo.updateUser(db, user.id, { lastLoginAt: new Date() });
  return startSession(db, config, user.id);
}

/** Opens a session for `userId` (after sign-in, or after accepting an invitation). */
export async function startSession(db: Knex, config: Config, userId: number): Promise<NewSession> {
  const token = newToken("prd_");
  const csrfToken = randomBytes(24).toString("base64url");
  const now = Date.now();
  const expiresAt = new Date(now + config.dashboard.sessionHours * 3600_000);
  const idleExpiresAt = new Date(Math.min(expiresAt.getTime(), now + config.dashboard.idleMinutes * 60_000));
  await repo.insertSession(db, { tokenHash: hashToken(token), userId, csrfToken, expiresAt, idleExpiresAt });
  const user = await sessionUser(db, config, token);
  if (!user) throw new UnauthorizedError("The account cannot sign in.");
  return { token, csrfToken, expiresAt, user };
}

/**
 * The user of a live session cookie, or undefined. Each use moves the idle deadline on (at most once a minute, so
 * reading screens does not write a row per request).
 */
export async function sessionUser(db: Knex, config: Config, token: string): Promise<SessionUser | undefined> {
  const tokenHash = hashToken(token);
  const row = await repo.findSessionUser(db, tokenHash);
  if (!row) return undefined;
  const idleMs = config.dashboard.idleMinutes * 60_000;
  if (new Date(row.idle_expires_at).getTime() - Date.now() < idleMs - 60_000) {
    await repo.touchSession(db, tokenHash, new Date(Date.now() + idleMs));
  }
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    csrfToken: row.csrf_token,
    expiresAt: new Date(row.expires_at),
    sessionHash: tokenHash,
    brand: {
      id: row.brand_id,
      slug: row.brand_slug,
      name: row.brand_name,
      uidPrefix: row.brand_uid_prefix,
      status: row.brand_status,
      plan: row.brand_plan,
      limits: effectiveLimits({ plan: row.brand_plan, limit_overrides: row.brand_limit_overrides ?? {} }),
    },
  };
}

/** Ends this session, or with `everywhere` every session of its user (a lost phone, a shared computer). */
export async function signOut(db: Knex, user: SessionUser, everywhere: boolean): Promise<void> {
  if (everywhere) await repo.deleteUserSessions(db, user.id);
  else await repo.deleteSession(db, user.sessionHash);
}

export type TeamMember = { id: number; email: string; name: string | null; role: Role; status: "active" | "invited"; created_at: Date; last_login_at: Date | null };

export async function listTeam(db: Knex, brandId: number): Promise<TeamMember[]> {
  const users = await repo.listUsers(db, brandId);
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    status: user.password_hash ? "active" : "invited",
    created_at: user.created_at,
    last_login_at: user.last_login_at,
  }));
}

export type Invitation = { user: TeamMember; link: string; expiresAt: Date; mailFile?: string };

/**
 * Invites `email` to the brand with `role` and emails the link. Inviting an address again (still pending) sends a new
 * link and cancels the old one; an address that already has an account (in any brand) is a conflict.
 */
export async function inviteMember(
  deps: { db: Knex; config: Config; mailer: Mailer },
  brand: { id: number; name: string },
  actor: Actor & { role?: Role },
  input: { email: string; role: Role; name?: string | null },
): Promise<Invitation> {
  const email = normalise(input.email);
  if (actor.role && !mayManageRole(actor.role, input.role)) throw new ForbiddenError("Only an owner can invite an owner.");
  const { user, token, expiresAt } = await deps.db.transaction(async (trx) => {
    let existing = await repo.findUserByEmail(trx, email);
    if (existing && (existing.brand_id !== brand.id || existing.password_hash)) {
      throw new ConflictError("That email address already has an account.");
    }
    // Re-inviting a pending address changes its role: the same rule as changing a member's role.
    if (existing && actor.role && !mayManageRole(actor.role, existing.role)) throw new ForbiddenError("Only an owner can change an owner's invitation.");
    existing ??= await repo.insertUser(trx, { brandId: brand.id, email, name: input.name ?? null, role: input.role, passwordHash: null });
    if (existing.role !== input.role) await repo.updateUser(trx, existing.id, { role: input.role });
    const token = newToken("inv_");
    const expiresAt = new Date(Date.now() + INVITE_HOURS * 3600_000);
    await repo.insertToken(trx, { tokenHash: hashToken(token), kind: "invite", userId: existing.id, expiresAt });
    await recordAudit(trx, brand.id, actor, { action: "team.invited", target: email, details: { role: input.role } });
    return { user: { ...existing, role: input.role }, token, expiresAt };
  });
  // The token travels in the fragment: browsers do not send it to the server, so it stays out of access logs.
  const link = `${dashboardUrl(deps.config)}/accept-invite#token=${token}`;
  const sent = await deps.mailer.send({
    to: email,
    subject: `You are invited to ${brand.name} on Passport Registry`,
    text:
      `You have been invited to join ${brand.name} on Passport Registry as ${input.role}.\n\n` +
      `Choose your password here (the link works once, for ${INVITE_HOURS} hours):\n${link}\n\n` +
      "If you did not expect this, you can ignore this email.\n",
  });
  return {
    user: { id: user.id, email: user.email, name: user.name, role: input.role, status: "invited", created_at: user.created_at, last_login_at: null },
    link,
    expiresAt,
    mailFile: sent.file,
  };
}

/** Who an invitation link is for, before it is accepted (the accept screen shows it); 404 when used or expired. */
export async function inspectInvitation(db: Knex, token: string): Promise<{ email: string; brand: string; role: Role }> {
  const row = await repo.peekToken(db, hashToken(token), "invite");
  if (!row) throw new NotFoundError("invitation (it was used or has expired)");
  return { email: row.email, brand: row.brand_name, role: row.role };
}

/** Accepts an invitation: sets the password (once) and signs the new user in. */
export async function acceptInvitation(db: Knex, config: Config, token: string, password: string, name?: string | null): Promise<NewSession> {
  const passwordHash = await hashPasswordFor(db, token, "invite", password);
  const userId = await db.transaction(async (trx) => {
    const userId = await repo.consumeToken(trx, hashToken(token), "invite");
    if (userId === undefined) throw new NotFoundError("invitation (it was used or has expired)");
    await repo.updateUser(trx, userId, { passwordHash, lastLoginAt: new Date(), ...(name ? { name } : {}) });
    return userId;
  });
  return startSession(db, config, userId);
}

/**
 * Reset links mailed to one account, whoever asks: at most 3 within a link's lifetime. Past that a request is answered
 * the same but mails nothing, so nobody can flood a mailbox, and nobody can lock the owner out either: the newest
 * link mailed is less than a lifetime old, so it still works.
 */
export const RESET_MAIL_POLICY: ThrottlePolicy = { windowSeconds: RESET_MINUTES * 60, slowAfter: 3, lockAfter: 3, lockSeconds: RESET_MINUTES * 60 };

/** A reset link to send once the request is answered; nothing to send for an address without an account. */
export type ResetMail = { send: () => Promise<void> };

/**
 * Makes a reset link for `email` if it has an account, and hands back the mail to send, for the caller to send after
 * answering. The work before the answer is the same statements whether or not the account exists (throttle counts,
 * then one statement that makes the link only if it does), and no mail is waited for, so neither the answer nor its
 * timing says who has an account. Throttled per client address and per address and account (429 past their locks),
 * and per account without a 429 (RESET_MAIL_POLICY).
 */
export async function requestPasswordReset(deps: { db: Knex; config: Config; mailer: Mailer }, email: string, clientIp: string): Promise<ResetMail> {
  const normalised = normalise(email);
  await sleep(
    await reserveAttempt(deps.db, [
      { key: `reset:ip:${clientIp}`, policy: CLIENT_POLICY },
      { key: `reset:pair:${clientIp}:${normalised}`, policy: PAIR_POLICY },
    ]),
  );
  const issue = await reserveAttempt(deps.db, [{ key: `reset:mail:${normalised}`, policy: RESET_MAIL_POLICY }]).then(
    () => true,
    (error: unknown) => {
      if (error instanceof RateLimitError) return false;
      throw error;
    },
  );
  const token = newToken("rst_");
  const to = await repo.issueResetToken(deps.db, { email: normalised, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + RESET_MINUTES * 60_000), issue });
  return {
    send: async () => {
      if (!to) return;
      await deps.mailer.send({
        to,
        subject: "Reset your Passport Registry password",
        text:
          `Someone asked to reset the password of ${to} on Passport Registry.\n\n` +
          `Choose a new password here (the link works once, for ${RESET_MINUTES} minutes):\n${dashboardUrl(deps.config)}/reset-password#token=${token}\n\n` +
          "If it was not you, ignore this email: your password stays as it is.\n",
      });
    },
  };
}

/** Sets a new password from a reset link and ends every session of the account (whoever had it is signed out). */
export async function completePasswordReset(db: Knex, token: string, password: string): Promise<void> {
  const passwordHash = await hashPasswordFor(db, token, "reset", password);
  await db.transaction(async (trx) => {
    const userId = await repo.consumeToken(trx, hashToken(token), "reset");
    if (userId === undefined) throw new NotFoundError("reset link (it was used or has expired)");
    await repo.updateUser(trx, userId, { passwordHash });
    await repo.deleteUserSessions(trx, userId);
  });
}

/** Checks the new password against the token's account and hashes it (outside any transaction: Argon2 is slow). */
async function hashPasswordFor(db: Knex, token: string, kind: "invite" | "reset", password: string): Promise<string> {
  const row = await repo.peekToken(db, hashToken(token), kind);
  if (!row) throw new NotFoundError(kind === "invite" ? "invitation (it was used or has expired)" : "reset link (it was used or has expired)");
  const problem = passwordProblems(password, row.email);
  if (problem) throw new ValidationError([{ field: "password", problem }]);
  return hashPassword(password);
}

/** Changes the password of the signed-in user, who must give the current one; other sessions are ended. */
export async function changePassword(db: Knex, user: SessionUser, current: string, next: string): Promise<void> {
  // Guesses of the current password from a live session are throttled like sign-ins (a left-open laptop).
  const attempt = { key: `dashboard:password:${user.id}`, policy: PAIR_POLICY };
  await sleep(await reserveAttempt(db, [attempt]));
  const row = await repo.findUser(db, user.brand.id, user.id);
  if (!row?.password_hash || !(await verifyPassword(row.password_hash, current).catch(() => false))) {
    throw new ValidationError([{ field: "current_password", problem: "is not your current password" }]);
  }
  await settleSuccess(db, [attempt.key], []);
  const problem = passwordProblems(next, row.email);
  if (problem) throw new ValidationError([{ field: "password", problem }]);
  const passwordHash = await hashPassword(next);
  await db.transaction(async (trx) => {
    await repo.updateUser(trx, user.id, { passwordHash });
    await trx("app.brand_sessions").where("user_id", user.id).whereNot("token_hash", user.sessionHash).del();
  });
}

/** Gives a member another role. A brand always keeps one owner who can sign in. */
export async function changeRole(db: Knex, actor: SessionUser, memberId: number, role: Role): Promise<TeamMember> {
  return db.transaction(async (trx) => {
    await lockTeam(trx, actor.brand.id);
    const member = await repo.findUser(trx, actor.brand.id, memberId);
    if (!member) throw new NotFoundError("team member");
    if (!mayManageRole(actor.role, member.role) || !mayManageRole(actor.role, role)) throw new ForbiddenError("Only an owner can change an owner's role or make an owner.");
    if (member.role === "owner" && role !== "owner" && member.password_hash && (await repo.countOwners(trx, actor.brand.id)) <= 1) {
      throw new ConflictError("The brand needs at least one owner: make someone else owner first.");
    }
    await repo.updateUser(trx, member.id, { role });
    // Sessions carry no role (it is read per request), so the new rights apply to the next request.
    await recordAudit(trx, actor.brand.id, actorOf(actor), { action: "team.role_changed", target: member.email, details: { from: member.role, to: role } });
    return { ...(await listTeam(trx, actor.brand.id)).find((m) => m.id === member.id)! };
  });
}

/** Removes a member (or cancels an invitation); their sessions end with them. */
export async function removeMember(db: Knex, actor: SessionUser, memberId: number): Promise<void> {
  await db.transaction(async (trx) => {
    await lockTeam(trx, actor.brand.id);
    const member = await repo.findUser(trx, actor.brand.id, memberId);
    if (!member) throw new NotFoundError("team member");
    if (!mayManageRole(actor.role, member.role)) throw new ForbiddenError("Only an owner can remove an owner.");
    if (member.role === "owner" && member.password_hash && (await repo.countOwners(trx, actor.brand.id)) <= 1) {
      throw new ConflictError("The brand needs at least one owner: make someone else owner first.");
    }
    await repo.deleteUser(trx, actor.brand.id, member.id);
    await recordAudit(trx, actor.brand.id, actorOf(actor), { action: "team.removed", target: member.email, details: { role: member.role } });
  });
}

/**
 * Creates a user with a password directly (operator CLI, local demo seed): the brand's first owner, or a demo
 * cashier. Idempotent for the demo: an existing account of the same brand gets the password and role given.
 */
export async function createMemberWithPassword(db: Knex, brandId: number, input: { email: string; role: Role; password: string; name?: string | null }): Promise<TeamMember> {
  const email = normalise(input.email);
  const problem = passwordProblems(input.password, email);
  if (problem) throw new ValidationError([{ field: "password", problem }]);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (trx) => {
    const existing = await repo.findUserByEmail(trx, email);
    if (existing && existing.brand_id !== brandId) throw new ConflictError("That email address already has an account in another brand.");
    if (existing) await repo.updateUser(trx, existing.id, { passwordHash, role: input.role });
    else await repo.insertUser(trx, { brandId, email, name: input.name ?? null, role: input.role, passwordHash });
    await recordAudit(trx, brandId, { system: "operator CLI" }, { action: existing ? "team.password_set" : "team.created", target: email, details: { role: input.role } });
    return (await listTeam(trx, brandId)).find((m) => m.email === email)!;
  });
}

export function actorOf(user: SessionUser): Actor & { role: Role } {
  return { userId: user.id, email: user.email, role: user.role };
}

/** Serialises team changes of one brand, so two admins cannot both remove "the other" last owner. */
async function lockTeam(trx: Knex, brandId: number): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('brand-team'), ?)", [brandId]);
}
