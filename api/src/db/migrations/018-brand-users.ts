// Brand dashboard accounts: users with a role in one brand, their cookie sessions, single-use invitation and
// password-reset tokens, and the audit log of who changed what.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // One account per email across the service, so signing in needs no brand picker. password_hash is null while an
  // invitation is pending: the user exists (and shows in the team list) but cannot sign in yet.
  await knex.raw(`
    CREATE TABLE app.brand_users (
      id serial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      email text NOT NULL,
      name text,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'cashier', 'viewer')),
      password_hash text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_login_at timestamptz
    )`);
  await knex.raw("CREATE UNIQUE INDEX brand_users_email ON app.brand_users (lower(email))");
  await knex.raw("CREATE INDEX brand_users_brand ON app.brand_users (brand_id)");

  // Sessions by the SHA-256 of their cookie value. The CSRF token is per session; it is not a secret from the user,
  // only from other sites, which cannot read it.
  await knex.raw(`
    CREATE TABLE app.brand_sessions (
      token_hash bytea PRIMARY KEY,
      user_id integer NOT NULL REFERENCES app.brand_users (id) ON DELETE CASCADE,
      csrf_token text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      idle_expires_at timestamptz NOT NULL
    )`);
  await knex.raw("CREATE INDEX brand_sessions_user ON app.brand_sessions (user_id)");
  await knex.raw("CREATE INDEX brand_sessions_expires ON app.brand_sessions (expires_at)");

  // Invitation and reset links, by the SHA-256 of the token the email carries; used once, then kept until expiry.
  await knex.raw(`
    CREATE TABLE app.brand_user_tokens (
      token_hash bytea PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('invite', 'reset')),
      user_id integer NOT NULL REFERENCES app.brand_users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`);
  await knex.raw("CREATE INDEX brand_user_tokens_user ON app.brand_user_tokens (user_id, kind)");

  // Who changed what. actor is kept as text too, so an entry still names a user after they were removed.
  await knex.raw(`
    CREATE TABLE app.audit_log (
      id bigserial PRIMARY KEY,
      brand_id integer NOT NULL REFERENCES app.brands (id) ON DELETE CASCADE,
      actor_user_id integer REFERENCES app.brand_users (id) ON DELETE SET NULL,
      actor text NOT NULL,
      action text NOT NULL,
      target text,
      details jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw("CREATE INDEX audit_log_brand ON app.audit_log (brand_id, id DESC)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TABLE app.audit_log");
  await knex.raw("DROP TABLE app.brand_user_tokens");
  await knex.raw("DROP TABLE app.brand_sessions");
  await knex.raw("DROP TABLE app.brand_users");
}
