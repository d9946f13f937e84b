// Tells every API process when a key or a brand changes (revoked, rotated, suspended, re-planned), so the
// per-process key cache (brands/key-cache.ts) is cleared at once, from whatever process made the change.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION app.notify_brand_auth() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('brand_auth', TG_TABLE_NAME);
      RETURN NULL;
    END
    $$`);
  // last_used_at is written once a minute per key and changes nothing an API process caches: not listed.
  await knex.raw(`CREATE TRIGGER api_keys_auth_changed AFTER UPDATE OF revoked_at, key_hash, brand_id OR DELETE ON app.api_keys
                   FOR EACH STATEMENT EXECUTE FUNCTION app.notify_brand_auth()`);
  await knex.raw(`CREATE TRIGGER brands_auth_changed AFTER UPDATE OR DELETE ON app.brands
                   FOR EACH STATEMENT EXECUTE FUNCTION app.notify_brand_auth()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER brands_auth_changed ON app.brands");
  await knex.raw("DROP TRIGGER api_keys_auth_changed ON app.api_keys");
  await knex.raw("DROP FUNCTION app.notify_brand_auth()");
}
